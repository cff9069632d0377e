"""The search service's orchestration with a fake Elasticsearch client, in milliseconds: round
trips, the word cache, the deadline, and how failures map to SearchUnavailable and the breaker.

The real-service behaviour is tested in test_search.py, test_relevance.py and test_reliability.py;
this file checks the plan and the executor alone (as Wagtail tests its backend with a mocked
transport)."""

import pytest
from elastic_transport import ApiResponseMeta, HttpHeaders, NodeConfig
from elastic_transport import ConnectionError as TransportConnectionError
from elasticsearch import ApiError, NotFoundError

from search import conf, synonyms, vocabulary
from search.querying import plan, service
from search.querying.executor import DeadlineExceeded, Executor
from search.querying.service import SearchUnavailable, search
from search.words import words
from tests.loopback import BUSY_ANSWERS


class Response:
    def __init__(self, body):
        self.body = body


class FakeClient:
    """Answers searches from a list of canned bodies (or raises them), recording what was asked."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.bodies, self.timeouts = [], []

    def options(self, request_timeout=None, **_):
        self.timeouts.append(request_timeout)
        return self

    def search(self, index, **body):
        self.bodies.append(body)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return Response(answer)


def hits(*titles, matched=("alt0.title.exact.phrase",), took=3):
    return {
        "took": took,
        "hits": {
            "total": {"value": len(titles)},
            "hits": [
                {
                    "_score": 64.0 - i,
                    "_source": {"doc_type": "post", "post_id": i + 1, "title": t, "url": f"/p/{i}/"},
                    "matched_queries": list(matched),
                    "highlight": {"title": [t]},
                }
                for i, t in enumerate(titles)
            ],
        },
    }


def first_answer(*titles, options=None, word="firefix", count=0):
    body = hits(*titles)
    body["suggest"] = {
        "title_terms": [{"text": word, "offset": 0, "length": len(word), "options": [{"text": t, "score": 0.9, "freq": 5} for t in (options or [])]}],
        "text_terms": [],
        "comment_terms": [],
    }
    body["aggregations"] = {"known_words": {"words": {"buckets": {"w0": {"doc_count": count}}}}}
    return body


@pytest.fixture
def knowing(offline, monkeypatch, settings):
    """As `offline`, with a dictionary of a few words (four known, one rare)."""
    pytest.importorskip("search._lexicon")
    words = {"firefox": (5, 5, 0), "tips": (4, 4, 1), "extension": (3, 3, 0), "the": (5, 5, 5), "zeppelin": (1, 1, 0)}
    dictionary = vocabulary.from_words(words)
    monkeypatch.setattr(vocabulary, "current", lambda gen: dictionary)


def suggest_answer(word="firefix", *, options=(), count=0, offset=0, index=0):
    """A suggest_request's answer: suggestions and counts, no hits."""
    return {
        "took": 1,
        "hits": {"total": {"value": 0}, "hits": []},
        "suggest": {
            "title_terms": [{"text": word, "offset": offset, "length": len(word), "options": [{"text": t, "score": 0.9, "freq": 5} for t in options]}],
            "text_terms": [],
            "comment_terms": [],
        },
        "aggregations": {"known_words": {"words": {"buckets": {f"w{index}": {"doc_count": count}}}}},
    }


def test_known_words_take_one_plain_request(knowing):
    client = FakeClient(hits("Firefox tips"))
    result = search("Firefox TIPS", client=client)
    assert (result.round_trips, len(client.bodies)) == (1, 1)
    # No aggregation: the hits count themselves up to COUNT_BOUND, so Elasticsearch may skip (issue 52).
    assert "suggest" not in client.bodies[0] and "aggs" not in client.bodies[0] and client.bodies[0]["track_total_hits"] == 1000
    assert [a.text for a in result.alternatives] == ["Firefox TIPS"] and result.hits[0].title == "Firefox tips"


def test_a_synonym_rule_is_one_more_alternative_of_the_same_one_request(knowing, monkeypatch):
    from search.synonym_rules import parse

    monkeypatch.setattr(synonyms, "current", lambda gen: (parse("zeppelin, airship"),))
    monkeypatch.setattr(synonyms, "indices_apply", lambda client, gen: True)  # the indices have the synonym analyzers
    client = FakeClient(hits("Airship tips", matched=("alt2.title.exact.phrase",)))
    result = search("zepelin tips", client=client)
    assert len(client.bodies) == 1
    assert [(a.label, a.synonym_of) for a in result.alternatives] == [("zepelin tips", ""), ("zeppelin tips", ""), ("airship tips", "zeppelin tips")]
    assert result.alternatives[2].text == "zeppelin tips"  # searched as the correction, the rules applied by Elasticsearch
    assert result.showing_for == "zeppelin tips"  # found through the correction's synonym: the correction is named
    named = {c["constant_score"]["_name"] for d in client.bodies[0]["query"]["bool"]["should"] if "dis_max" in d for c in d["dis_max"]["queries"]}
    assert "alt2.title.exact.phrase" in named


def test_numbers_short_words_and_words_past_the_suggesters_reach_need_no_suggestions(knowing):
    client = FakeClient(hits("Firefox 3.5 on a tablet"))
    search("firefox 35 on tips tips tips tips " + "x" * 40, client=client)
    assert len(client.bodies) == 1 and "suggest" not in client.bodies[0]


def test_unknown_words_are_corrected_by_the_dictionary_in_one_request(knowing):
    client = FakeClient(hits("Firefox extension", matched=("alt1.title.exact.phrase",)))
    result = search("firefox extenson", client=client)
    assert (result.round_trips, len(client.bodies), result.dictionary) == (1, 1, True)
    assert "suggest" not in client.bodies[0] and set(client.bodies[0]["aggs"]) == {"spellings", "entries"}  # posts per spelling, and of all
    assert [a.text for a in result.alternatives] == ["firefox extenson", "firefox extension"]
    assert result.showing_for == "firefox extension"


def test_a_word_the_dictionary_cannot_answer_for_is_asked_about_alone_then_searched_once(knowing):
    """A letter key_word() does not fold (a dotless ı): Elasticsearch's analysis folds it, so the
    suggesters are asked (about it only). An accented word is folded and answered here."""
    client = FakeClient(suggest_answer("extensıon", options=["extension"], offset=8, index=1), hits("Firefox extension", matched=("alt1.title.exact.phrase",)))
    result = search("firefox extensıon", client=client)
    first, second = client.bodies
    assert first["size"] == 0 and "highlight" not in first and "query" not in first
    assert set(first["aggs"]["known_words"]["aggs"]["words"]["filters"]["filters"]) == {"w1"}  # not "firefox"
    assert first["suggest"]["text"] == "        extensıon"  # the known word blanked, offsets kept
    assert "suggest" not in second and set(second["aggs"]) == {"spellings", "entries"}
    assert [a.text for a in result.alternatives] == ["firefox extensıon", "firefox extension"]
    assert result.showing_for == "firefox extension" and result.round_trips == 2


def test_a_rare_word_without_better_options_is_searched_as_typed(knowing):
    client = FakeClient(hits("Zeppelin"))
    result = search("zeppelin", client=client)
    assert [a.text for a in result.alternatives] == ["zeppelin"] and result.round_trips == 1
    assert result.hits[0].title == "Zeppelin"


def test_an_unfinished_word_with_a_typo_is_completed_by_the_dictionary(knowing, settings):
    """No word starts with "zepp" misspelled as "zeppl"... but one starts a typo away: a correction
    scored on the prefix, searched with completions; never when a space ends the word. Only into a
    word enough documents hold (the rare "zeppelin" is offered instead, issue 36)."""
    rare = search("firefox zepl", client=FakeClient(hits("Firefox")))
    assert [a.text for a in rare.alternatives] == ["firefox zepl"] and rare.did_you_mean == "firefox zeppelin"
    settings.SEARCH = {**settings.SEARCH, "CORRECTED_COMPLETION_MIN_DOCS": 1}
    client = FakeClient(hits("Zeppelin", matched=("alt1c.title.exact.prefix",)))
    result = search("firefox zepl", client=client)
    assert [a.text for a in result.alternatives] == ["firefox zepl", "firefox zeppelin"] and result.round_trips == 1
    finished = search("firefox zepl ", client=FakeClient(hits("Zeppelin")))
    assert [a.text for a in finished.alternatives] == ["firefox zepl"]


def test_without_a_vocabulary_every_word_is_asked_about_then_searched_once(offline):
    """One path for every query: before `reindex` stored a vocabulary nothing is known, so even a
    correctly spelled word costs the suggest request first (right, only slower)."""
    client = FakeClient(suggest_answer("firefox", count=40), hits("Firefox tips"))
    result = search("firefox", client=client)
    assert (result.round_trips, len(client.bodies)) == (2, 2)
    assert "suggest" in client.bodies[0] and "query" not in client.bodies[0] and "suggest" not in client.bodies[1]
    assert [a.text for a in result.alternatives] == ["firefox"]
    assert [h.title for h in result.hits] == ["Firefox tips"] and result.showing_for == ""


def test_a_misspelled_query_takes_two_and_then_one_from_the_word_cache(offline):
    client = FakeClient(first_answer(options=["firefox"]), hits("Firefox tips", matched=("alt1.title.exact.phrase",)))
    result = search("firefix", client=client)
    assert result.round_trips == 2 and not result.word_cache_hit
    assert [a.text for a in result.alternatives] == ["firefix", "firefox"]
    assert "suggest" not in client.bodies[1]
    assert result.showing_for == "firefox" and result.hits[0].tier == "title.exact.phrase"
    # The same word again, in another query's case: its suggestions come from the word cache.
    again = FakeClient(hits("Firefox tips", matched=("alt1.title.exact.phrase",)))
    result = search("FIREFIX", client=again)
    assert (result.round_trips, result.word_cache_hit, len(again.bodies)) == (1, True, 1)
    assert "suggest" not in again.bodies[0]


def meta(status: int) -> ApiResponseMeta:
    return ApiResponseMeta(status, "1.1", HttpHeaders(), 0.01, NodeConfig("http", "localhost", 9200))


def test_missing_indices_are_unavailable_without_tripping_the_breaker(offline):
    client = FakeClient(NotFoundError("index_not_found_exception", meta(404), {}))
    with pytest.raises(SearchUnavailable):
        search("firefox", client=client)
    assert service.breaker.allows()


@pytest.mark.parametrize("answer", BUSY_ANSWERS)
def test_busy_answers_never_open_the_breaker_while_server_errors_do(offline, answer):
    """Issue 50: 429 (and 8.x's 504 for a search past its timeout) means a node answered, busy."""
    status, body = BUSY_ANSWERS[answer]
    calls = conf.get().serving.search_breaker_min_calls
    for _ in range(calls * 2):
        with pytest.raises(SearchUnavailable):
            search("firefox", client=FakeClient(ApiError("busy", meta(status), body)))
    assert service.breaker.allows()
    service.breaker.reset()
    for _ in range(calls):
        with pytest.raises(SearchUnavailable):
            search("firefox", client=FakeClient(ApiError("unavailable", meta(503), {})))
    assert not service.breaker.allows()


def test_connection_failures_open_the_breaker_and_the_next_search_does_not_wait(offline):
    for n in range(conf.get().serving.search_breaker_min_calls):
        assert service.breaker.allows(), f"open after {n} failure(s)"  # one failure alone never opens it (issue 25)
        with pytest.raises(SearchUnavailable):
            search("firefox", client=FakeClient(TransportConnectionError("refused")))
    assert not service.breaker.allows()
    untouched = FakeClient()
    with pytest.raises(SearchUnavailable):
        search("firefox", client=untouched)
    assert untouched.bodies == []


def test_each_request_waits_only_what_is_left_of_the_deadline():
    now = [100.0]
    client = FakeClient(hits("a"), hits("b"))
    executor = Executor(client, deadline_seconds=1.5, timeout_seconds=1.0, clock=lambda: now[0])
    executor.search({"query": {}})
    now[0] += 0.9  # the first answer took 0.9 s
    executor.search({"query": {}})
    assert client.timeouts == [1.0, pytest.approx(0.6)]
    now[0] += 0.7  # past the deadline: an answer this late counts as a timeout
    with pytest.raises(DeadlineExceeded):
        executor.search({"query": {}})
    assert executor.round_trips == 2


def test_an_answer_after_the_deadline_is_a_timeout_that_counts_as_a_failure(offline, monkeypatch, settings):
    settings.SEARCH = {**settings.SEARCH, "SEARCH_BREAKER_MIN_CALLS": 1}  # one failure is all the recent searches

    class Slow(FakeClient):
        def search(self, index, **body):
            now[0] += 2.0
            return super().search(index, **body)

    now = [0.0]
    monkeypatch.setattr("search.querying.executor.time.monotonic", lambda: now[0])
    with pytest.raises(SearchUnavailable):
        search("firefox", client=Slow(first_answer("Firefox tips", word="firefox", count=40)))
    assert not service.breaker.allows()


def test_words_joined_by_an_apostrophe_are_known_as_written_and_a_dot_or_underscore_splits(settings):
    pytest.importorskip("search._lexicon")
    known = vocabulary.from_words(dict.fromkeys(["don't", "node", "mod", "python", "kirby's", "wikipedia", "canvassing"], (3, 3, 0)))
    # Known as written: don't; a dot, a colon or an underscore splits words as the analyzers do
    # ("node.js" is node and js, "1.0" two numbers, "Wikipedia:Canvassing" and "MOD_PYTHON" two known words).
    assert plan.unknown_words("Don't node.js MOD_PYTHON 1.0 Wikipedia:Canvassing", known, conf.get()) == []
    # Left to Elasticsearch: a possessive (the filter cuts "'s"), an unknown word, a hyphen (two tokens).
    assert [words(q)[i][2] for q in ["kirby's node.jss don't-care .node"] for i in plan.unknown_words(q, known, conf.get())] == ["kirby's", "jss", "don't-care"]


def partial(body: dict) -> dict:
    """The answer of a search during which a shard's copy was lost: counts whole, hits missing."""
    return {**body, "hits": {"total": body["hits"]["total"], "hits": []}, "_shards": {"total": 2, "successful": 1, "failed": 1, "failures": [{"shard": 0}]}}


def test_an_answer_lacking_shards_is_asked_again_and_never_shown_as_whole(knowing):
    """Seen on the three-node cluster 0.11 s after a node was killed: "no hits" with a count of
    28 (tests_cluster/test_chaos_cluster.py). The second answer, from a live copy, is the one shown."""
    whole = hits("Firefox tips")
    client = FakeClient(partial(whole), whole)
    result = search("firefox", client=client)
    assert [h.title for h in result.hits] == ["Firefox tips"] and len(client.bodies) == 2
    assert client.bodies[0] == client.bodies[1]


def test_two_partial_answers_are_a_503_that_is_not_cached(knowing, settings):
    settings.SEARCH = {**settings.SEARCH, "CACHE_SECONDS": 300}  # the result cache on, as shipped
    whole = hits("Firefox tips")
    with pytest.raises(SearchUnavailable, match="shard"):
        search("firefox", client=FakeClient(partial(whole), partial(whole)))
    client = FakeClient(whole)
    assert [h.title for h in search("firefox", client=client).hits] == ["Firefox tips"]
    assert len(client.bodies) == 1  # asked, not served from a cache of the partial answer
    cached = FakeClient()
    assert [h.title for h in search("firefox", client=cached).hits] == ["Firefox tips"] and cached.bodies == []  # the whole one is


def test_the_words_corrected_are_the_first_unknown_ones_wherever_they_sit(settings):
    """MAX_SUGGEST_WORDS bounds how many words are corrected, not where: a typo after the words a
    reader put around a title ("the one about hack day at the guardizn") is still corrected."""
    pytest.importorskip("search._lexicon")
    known = vocabulary.from_words(dict.fromkeys(["the", "one", "about", "hack", "day", "at"], (3, 3, 0)))
    query = "the one about hack day at the guardizn"
    assert [words(query)[i][2] for i in plan.unknown_words(query, known, conf.get())] == ["guardizn"]
    # Twelve unknown words: the first six only (the cost bench/hostile.py measures).
    many = " ".join(f"wordz{chr(97 + i)}" for i in range(12))
    assert plan.unknown_words(many, known, conf.get()) == list(range(conf.get().ranking.max_suggest_words))


def test_titles_are_matched_fuzzily_only_when_a_word_before_the_last_is_in_no_title(settings):
    pytest.importorskip("search._lexicon")
    counts = {"the": (9, 9, 9), "storm": (2, 5, 0), "stat": (0, 5, 0), "representational": (1, 0, 0), "c#": (3, 0, 0), "csharp": (3, 0, 0)}
    known = vocabulary.from_words(counts)
    cfg = conf.get()
    assert not plan.strangers_to_titles("the storm wor", known, cfg)  # every earlier word in a title (the last may be unfinished)
    assert plan.strangers_to_titles("the torm wor", known, cfg)  # a word the index lacks
    assert plan.strangers_to_titles("representational stat tran", known, cfg)  # a word only bodies hold
    assert not plan.strangers_to_titles("storm xyzzy", known, cfg)  # the last word is not judged
    assert not plan.strangers_to_titles("c# tut", known, cfg)  # a symbol word as indexed ("csharp")
    # Past MAX_SUGGEST_WORDS words: never (a fuzzy word is a correction's work, bounded as they are).
    assert plan.strangers_to_titles("torm " * (cfg.ranking.max_suggest_words - 1) + "wor", known, cfg)
    assert not plan.strangers_to_titles("torm " * cfg.ranking.max_suggest_words + "wor", known, cfg)
