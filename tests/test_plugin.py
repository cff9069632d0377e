"""The development analysis plugin, through Elasticsearch's _analyze API and the root endpoint.

These prove the integ-test distribution plus devservices/es-plugin understands every analysis
name our mappings use, under the names the full distribution uses.
"""

import re

import pytest
from elasticsearch import BadRequestError

from search.documents import index_body

pytestmark = pytest.mark.django_db(databases=[])


@pytest.fixture
def es(es_admin):
    """The plugin belongs to the node, not to the product: it is examined as the superuser
    (_analyze without an index, scratch indices and synonyms sets of other names)."""
    return es_admin


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
    assert re.fullmatch(r"(8\.19|9\.\d+)\.\d+", info["version"]["number"])  # the lines the dev scripts run (ES_VERSION)
    assert info["tagline"] == "You Know, for Search"
    assert info["cluster_uuid"] not in ("", "_na_")


def test_synonym_filters_with_inline_rules_in_both_formats(es):
    graph = {"type": "synonym_graph", "synonyms": ["js, javascript", "k8s => kubernetes", "ml, machine learning"]}
    assert tokens(es, tokenizer="standard", filter=["lowercase", graph], text="JS on K8s") == ["javascript", "js", "on", "kubernetes"]
    analyzed = es.indices.analyze(tokenizer="standard", filter=["lowercase", graph], text="ML tips")["tokens"]
    assert [(t["token"], t["position"], t.get("positionLength", 1)) for t in analyzed] == [("machine", 0, 1), ("ml", 0, 2), ("learning", 1, 1), ("tips", 2, 1)]
    flat = {"type": "synonym", "synonyms": ["js, javascript"], "expand": False}  # no expand: every side to the first
    assert tokens(es, tokenizer="standard", filter=["lowercase", flat], text="javascript") == ["js"]
    wordnet = {"type": "synonym", "format": "wordnet", "synonyms": ["s(100000001,1,'js',n,1,0).", "s(100000001,2,'javascript',n,1,0)."]}
    assert tokens(es, tokenizer="standard", filter=["lowercase", wordnet], text="js") == ["js", "javascript"]
    with pytest.raises(BadRequestError, match="synonyms"):  # no rules anywhere: refused, as the full distribution does
        es.indices.analyze(tokenizer="standard", filter=[{"type": "synonym_graph"}], text="x")
    with pytest.raises(BadRequestError, match="search time"):  # a set only where the filter can be reloaded
        es.indices.analyze(tokenizer="standard", filter=[{"type": "synonym_graph", "synonyms_set": "any"}], text="x")


def test_the_synonyms_api_replaces_a_set_and_reloads_the_search_analyzers_that_read_it(es):
    """The synonyms API of the server, on the development node: a set replaced as a whole (the
    plugin's delete-by-query removes the old rules), one rule added, each change reloaded into an
    index's search analyzer without a reindex; an index opened after the set exists reads it."""
    name, rules = "test-plugin-synonyms", "test-plugin-synonyms-set"
    es.indices.delete(index=name, ignore_unavailable=True)
    es.synonyms.put_synonym(id=rules, synonyms_set=[{"id": "a", "synonyms": "js, javascript"}, {"id": "b", "synonyms": "k8s => kubernetes"}])
    filter_ = {"type": "synonym_graph", "synonyms_set": rules, "updateable": True}
    settings = {"analysis": {"filter": {"rules": filter_}, "analyzer": {"with_rules": {"tokenizer": "standard", "filter": ["lowercase", "rules"]}}}}
    es.indices.create(index=name, settings=settings)
    try:
        assert tokens(es, index=name, analyzer="with_rules", text="js k8s") == ["javascript", "js", "kubernetes"]
        replaced = es.synonyms.put_synonym(id=rules, synonyms_set=[{"id": "c", "synonyms": "ml, machine learning"}])
        assert replaced["result"] == "updated" and replaced["reload_analyzers_details"]["reload_details"][0]["reloaded_analyzers"] == ["with_rules"]
        assert [r["id"] for r in es.synonyms.get_synonym(id=rules)["synonyms_set"]] == ["c"]  # the old rules deleted
        assert tokens(es, index=name, analyzer="with_rules", text="js ml") == ["js", "machine", "ml", "learning"]
        es.synonyms.put_synonym_rule(set_id=rules, rule_id="d", synonyms="pg, postgres")
        assert tokens(es, index=name, analyzer="with_rules", text="pg") == ["postgres", "pg"]
        with pytest.raises(BadRequestError, match="analyzer"):  # an updateable filter is refused at index time
            es.indices.create(index=f"{name}-2", settings=settings, mappings={"properties": {"t": {"type": "text", "analyzer": "with_rules"}}})
    finally:
        es.indices.delete(index=name)
        es.synonyms.delete_synonym(id=rules)
