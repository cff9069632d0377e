"""A word's other forms by its language's lexicon (search/lemmas.py; issue 53, point 2): built
from a lexicon's (form, lemma) pairs and the blog's words, read by binary search. Plain data:
a small lexicon here, simplemma's in tests/test_languages.py."""

import pytest

from search import conf, lemmas
from search.querying import plan
from search.vocabulary import from_words

PAIRS = [
    ("donneront", "donner"),
    ("donne", "donner"),
    ("donnent", "donner"),
    ("donner", "donner"),
    ("sache", "savoir"),
    ("savez", "savoir"),
    ("créant", "créer"),
    ("créez", "créer"),
    ("Häuser", "Haus"),
    ("sus", "savoir"),  # too short to stand for anything
    ("aurons", "avoir"),  # "avons" is a French stop word: never a form to search
    ("avons", "avoir"),
    ("-t-il", "il"),
    ("serions", "être"),  # a stop word typed stands for no other word
    ("été", "être"),
]
HELD = {"donne": 9, "donnent": 2, "savez": 1, "creez": 3, "haus": 4, "avons": 7, "etre": 2}


def lines(held=HELD, pairs=PAIRS, language="fr", **kw):
    return lemmas.lines(held, lambda: iter(pairs), language, **kw)


def test_each_form_the_blog_lacks_names_the_blog_s_words_of_its_lemma_most_documents_first():
    assert lines() == [
        "creant\tcreez",
        "donner\tdonne donnent",
        "donneront\tdonne donnent",
        "hauser\thaus",
        "sache\tsavez",
    ]
    assert lines(stored=1)[1] == "donner\tdonne"


def test_a_large_blog_keeps_the_forms_of_its_commoner_words():
    assert lines(most=2) == ["donner\tdonne donnent", "donneront\tdonne donnent"]


def test_a_word_the_lexicon_lacks_is_its_own_lemma():
    assert lines(held={"haus": 1}, pairs=[("Häuser", "Haus")]) == ["hauser\thaus"]
    assert lines(held={"unknown": 1}, pairs=[("Häuser", "Haus")]) == []


def test_the_index_finds_a_form_s_words_and_nothing_for_others():
    index = lemmas.FormIndex.from_blob(lemmas.FormIndex(lines()).blob)
    assert index.words_of("donneront") == ["donne", "donnent"]
    assert index.words_of("sache") == ["savez"]
    assert index.words_of("donne") == [] and index.words_of("donn") == [] and index.words_of("zzz") == []
    assert len(index) == 5
    empty = lemmas.FormIndex.from_blob(b"")
    assert empty.words_of("sache") == [] and len(empty) == 0


@pytest.mark.parametrize(("limit", "expected"), [(8, ["donne", "donnent", "donnerait"]), (2, ["donne", "donnent"]), (1, ["donne"])])
def test_the_lexicon_s_forms_come_before_those_found_by_ending(limit, expected):
    """ "donneront": the lexicon names "donne" and "donnent"; by ending alone the nearest held form
    is "donnerait", and "donne" came after the limit (bench/language_relevance.py, kind inflected)."""
    known = from_words({w: (1, 1, 0) for w in ("donne", "donnent", "donnerait", "pluie")}, forms=["donneront\tdonne donnent"])
    cfg = conf.build({"LANGUAGE": "fr", "HELD_FORMS": limit})
    assert plan.held_forms("donneront pluie", [0], known, cfg) == {0: expected}


def test_a_slip_that_is_some_rare_form_is_no_form():
    """A word the language does not use takes no lexicon forms: "casera" is a form of "caser"
    and a slip of "camera", a typo to correct (a reviewer's find on 60378aa)."""
    known = from_words({w: (1, 1, 0) for w in ("caser", "camera")}, forms=["casera\tcaser", "sache\tsavez"])
    assert plan.held_forms("casera", [0], known, conf.build({"LANGUAGE": "fr"})) == {}


def test_english_takes_no_forms_and_a_plain_set_of_words_only_endings():
    known = from_words({"run": (1, 1, 0)}, forms=["ran\trun"])
    assert plan.held_forms("ran", [0], known, conf.build({"LANGUAGE": "en"})) == {}
    assert plan.held_forms("donneront", [0], {"donne", "donnerait"}, conf.build({"LANGUAGE": "fr"})) == {0: ["donnerait", "donne"]}


def test_an_inflection_the_stemmer_finds_is_searched_in_its_lemma_s_forms_too():
    """ "photographies": the stemmed fields find "photographie" and "photographe" alike; the
    lexicon's form puts the title holding "photographie" first. The lexicon's forms only, since
    the stemmer finds those by ending; never a word typed as the blog holds it, nor in English."""
    known = from_words(
        {w: (5, 5, 0) for w in ("photographie", "photographe", "photographier", "tatin")},
        forms=["photographies\tphotographie photographier"],
    )
    cfg = conf.build({"LANGUAGE": "fr"})
    unknown, inflected = plan.scan_words("photographies tatin", known, cfg)
    assert (unknown, inflected) == ([], [0])
    assert plan.held_forms("photographies tatin", unknown, known, cfg, inflected=inflected) == {0: ["photographie", "photographier"]}
    assert plan.held_forms("photographies tatin", [], known, cfg) == {}
    assert plan.held_forms("photographie tatin", [], known, cfg, inflected=[0]) == {}
    assert plan.held_forms("photographies", [], known, conf.build({"LANGUAGE": "en"}), inflected=[0]) == {}


def test_a_word_typed_plainly_takes_the_lemma_of_the_word_written_so():
    """ "primes" is a prize's plural: not "prîmes" of "prendre", though folding makes them one."""
    pairs = [("primes", "prime"), ("prîmes", "prendre"), ("prendre", "prendre"), ("créant", "créer")]
    assert lines(held={"prendre": 3, "creer": 2}, pairs=pairs) == ["creant\tcreer"]
    assert lines(held={"prendre": 3, "prime": 2}, pairs=pairs) == ["primes\tprime"]
    assert lines(held={"prendre": 3}, pairs=[("prîmes", "prendre")]) == ["primes\tprendre"]


def _completion_boosts(body: dict) -> set[float]:
    clauses = [c for d in body["query"]["bool"]["should"] if "dis_max" in d for c in d["dis_max"]["queries"]]
    return {c["constant_score"]["boost"] for c in clauses if c.get("constant_score", {}).get("_name", "").startswith("alt0c.title.exact")}


def test_a_last_word_the_blog_holds_in_another_form_is_likely_finished():
    """ "micros" beside "micro": its completions ("microsoft") weigh less than a title holding
    its stem, where a last word with no held form completes at ranking.completion_weight."""
    cfg = conf.build({"LANGUAGE": "fr"})
    alts = plan.typed("micros", cfg) + plan.form_alternatives("micros", {0: ["micro"]}, cfg)
    request = lambda **kw: plan.alternatives_request(alts, page=1, cfg=cfg, completing=True, **kw)  # noqa: E731
    top = cfg.ranking.tiers["title.exact.phrase"]
    assert _completion_boosts(request()) == {round(top * cfg.ranking.completion_weight, 4)}
    assert _completion_boosts(request(formed_last=True)) == {round(top * cfg.ranking.form_completion_weight, 4)}
    assert top * cfg.ranking.form_completion_weight < cfg.ranking.tiers["title.stem.phrase"]


def test_a_form_names_its_lemma_first_when_the_blog_holds_it():
    """ "teste" is of "testen": the lemma before "tests", which more documents hold."""
    pairs = [("teste", "testen"), ("testen", "testen"), ("tests", "testen"), ("getestet", "testen")]
    assert lines(held={"tests": 9, "testen": 3, "getestet": 5}, pairs=pairs, language="de") == ["teste\ttesten tests getestet"]
    assert lines(held={"tests": 9, "getestet": 5}, pairs=pairs, language="de") == ["teste\ttests getestet", "testen\ttests getestet"]


def test_sharp_s_written_as_ss_is_written_so_and_a_large_blog_keeps_its_commonest_lines():
    """ "mißt" and "misst" are one spelling to a reader: both readings stay. The cap of `most`
    lines ranks a line by its commonest word, not by its lemma."""
    pairs = [("misst", "missen"), ("mißt", "messen"), ("messen", "messen"), ("missen", "missen")]
    assert lines(held={"messen": 4, "missen": 1}, pairs=pairs, language="de") == ["misst\tmessen missen"]
    pairs = [("teste", "testen"), ("tests", "testen"), ("testen", "testen"), ("hauses", "haus"), ("haus", "haus")]
    assert lines(held={"testen": 1, "tests": 900, "haus": 50}, pairs=pairs, language="de", most=1) == ["teste\ttesten tests"]


def test_the_last_word_is_finished_when_it_is_a_form_of_the_language():
    """Only the last word counts, and only a form the stemmer finds or a real word with held forms:
    a start with a form by ending ("informa": informe) is still being typed."""
    assert plan.formed_last("zen micros", inflected=[1], real=[])
    assert not plan.formed_last("micros zen", inflected=[0], real=[])
    assert plan.formed_last("les voitures", inflected=[], real=[1])
    assert not plan.formed_last("informa", inflected=[], real=[])
    assert not plan.formed_last("", inflected=[], real=[])
