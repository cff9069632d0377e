"""The development analysis plugin, through Elasticsearch's _analyze API and the root endpoint.

These prove the integ-test distribution plus devservices/es-plugin understands every analysis
name our mappings use, under the names the full distribution uses.
"""

import pytest

from search.documents import index_body

pytestmark = pytest.mark.django_db(databases=[])


def tokens(es, **body):
    return [t["token"] for t in es.indices.analyze(**body)["tokens"]]


@pytest.mark.parametrize("stemmer", ["porter_stem", "kstem", "snowball"])
def test_stemmers_reduce_formatting_and_formats_to_format(es, stemmer):
    assert tokens(es, tokenizer="standard", filter=["lowercase", stemmer], text="formatting formats") == ["format", "format"]


def test_stemmer_filter_languages(es):
    possessive = {"type": "stemmer", "language": "possessive_english"}
    assert tokens(es, tokenizer="standard", filter=[possessive], text="Simon's blog") == ["Simon", "blog"]
    english = {"type": "stemmer", "language": "english"}
    assert tokens(es, tokenizer="standard", filter=["lowercase", english], text="running") == ["run"]


def test_asciifolding(es):
    assert tokens(es, tokenizer="standard", filter=["lowercase", "asciifolding"], text="Café Ångström") == ["cafe", "angstrom"]
    keep = {"type": "asciifolding", "preserve_original": True}
    assert tokens(es, tokenizer="standard", filter=[keep], text="café") == ["cafe", "café"]


def test_html_strip_char_filter(es):
    assert tokens(es, tokenizer="standard", char_filter=["html_strip"], text="<p>hello <b>world</b> &amp; more</p>") == ["hello", "world", "more"]


def test_mapping_char_filter_with_the_full_distributions_rule_syntax(es):
    rules = {"type": "mapping", "mappings": [". => \\u0020", ": => \\u0020", "ph => f"]}
    analyzed = es.indices.analyze(tokenizer="standard", char_filter=[rules], text="Node.js Wikipedia:Canvassing phone")["tokens"]
    assert [t["token"] for t in analyzed] == ["Node", "js", "Wikipedia", "Canvassing", "fone"]
    assert [(t["start_offset"], t["end_offset"]) for t in analyzed[:2]] == [(0, 4), (5, 7)]  # offsets of the text as written
    with pytest.raises(Exception, match="mappings"):  # no rules: refused, as the full distribution does
        es.indices.analyze(tokenizer="standard", char_filter=[{"type": "mapping"}], text="x")


def test_edge_ngram(es):
    grams = {"type": "edge_ngram", "min_gram": 2, "max_gram": 4}
    assert tokens(es, tokenizer="standard", filter=["lowercase", grams], text="Firefox") == ["fi", "fir", "fire"]


def test_english_analyzer(es):
    assert tokens(es, analyzer="english", text="The formatting of Simon's formats") == ["format", "simon", "format"]


def test_builtin_filters_still_work_beside_the_plugin(es):
    # lowercase, stop and shingle come from the server itself; the plugin must not shadow them.
    assert tokens(es, tokenizer="standard", filter=["lowercase", {"type": "stop", "stopwords": "_english_"}], text="The Fox") == ["fox"]


def test_our_index_analyzers(es):
    """The analyzers defined in search/documents.py, created in a scratch index."""
    name = "test-plugin-scratch"
    es.indices.delete(index=name, ignore_unavailable=True)
    es.indices.create(index=name, **index_body("posts", name))
    try:
        # Stop words out, possessive dropped, folded, stemmed gently (kstem: SEARCH["STEMMER"]).
        assert tokens(es, index=name, analyzer="english_text", text="How to use Firefox's Extensions") == ["use", "firefox", "extension"]
        # The words as written: lowercased, folded, the possessive dropped, stop words kept, no stemming.
        assert tokens(es, index=name, analyzer="exact_text", text="How to use Firefox's Cafés") == ["how", "to", "use", "firefox", "cafes"]
        # A dot or a colon between letters splits a word (the standard tokenizer alone keeps them whole).
        assert tokens(es, index=name, analyzer="exact_text", text="Node.js Wikipedia:Canvassing") == ["node", "js", "wikipedia", "canvassing"]
        assert tokens(es, index=name, analyzer="english_text", text="window.onload") == ["window", "onload"]
        # So do their full-width and small forms (NFKC folds a query's into "." and ":").
        assert tokens(es, index=name, analyzer="exact_text", text="Node\uff0ejs A\uff1aB c\ufe52d") == ["node", "js", "a", "b", "c", "d"]
    finally:
        es.indices.delete(index=name)


def test_root_endpoint_answers_like_the_real_node(es):
    assert es.ping() is True
    info = es.info()
    assert info["version"]["number"].startswith("8.19")
    assert info["tagline"] == "You Know, for Search"
    assert info["cluster_uuid"] not in ("", "_na_")
