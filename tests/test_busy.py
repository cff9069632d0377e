"""A busy cluster is not a lost node (issue 50). Elasticsearch 9 answers a search past its
server-side `timeout` (partial results not allowed) with 429, where 8.x answered 504; 429 is also
its answer to a full search queue. A node answered either way: the search breaker must not count
it as a node failure (test_service_plan.py), and the client must keep the node in rotation.
Fake answers and loopback servers, with either client line (8.19 or 9.x); the last test has the
real node time a search out."""

from dataclasses import replace

import pytest
from elastic_transport import ApiResponseMeta, ConnectionTimeout, HttpHeaders, NodeConfig
from elastic_transport import ConnectionError as ConnectError
from elasticsearch import ApiError

from search import conf, metrics
from search.client import BUSY, MISSING, REFUSED, SERVER_ERROR, UNREACHABLE, failure_kind, make_client
from tests.loopback import BUSY_ANSWERS, LoopbackServer


def api_error(status: int, body: object = None) -> ApiError:  # as test_service_plan.py makes a NotFoundError
    meta = ApiResponseMeta(status, "1.1", HttpHeaders(), 0.01, NodeConfig("http", "localhost", 9200))
    return ApiError(f"HTTP {status}", meta, body if body is not None else {})


@pytest.mark.parametrize(
    ("exc", "kind"),
    [
        *((api_error(status, body), BUSY) for status, body in BUSY_ANSWERS.values()),
        (api_error(429, "not json"), BUSY),
        (api_error(504, {"error": {"root_cause": [{"type": "gateway"}]}}), SERVER_ERROR),  # a proxy's 504: no answer from a node
        (api_error(504, "<html>gateway timeout</html>"), SERVER_ERROR),
        (api_error(503), SERVER_ERROR),
        (api_error(500), SERVER_ERROR),
        (api_error(404), MISSING),
        (api_error(400), REFUSED),
        (api_error(403), REFUSED),
        (ConnectError("refused"), UNREACHABLE),
        (ConnectionTimeout("timed out"), UNREACHABLE),
    ],
)
def test_what_a_failed_request_says_about_the_cluster(exc, kind):
    assert failure_kind(exc) == kind


def test_a_busy_node_stays_in_rotation(monkeypatch):
    """One node answers 429, the other answers: requests still alternate between them (round
    robin). The stock transport would put the busy one on its dead-node timeout (1 s, then 2 s ...)
    and send every request to the other meanwhile: 1 and 5 of 6."""
    outcomes = []
    monkeypatch.setattr(metrics, "elasticsearch_request", lambda outcome, seconds: outcomes.append(outcome))
    busy, answering = LoopbackServer("busy"), LoopbackServer("empty")
    try:
        es = make_client(replace(conf.get().elasticsearch, url=f"{busy.url},{answering.url}", timeout=1.0))
        for _ in range(6):
            try:
                es.search(index="posts", query={"match_all": {}})
            except ApiError as exc:
                assert exc.meta.status == 429 and failure_kind(exc) == BUSY
        assert (busy.connections, answering.connections) == (3, 3)  # one attempt each: a 429 is not retried
        assert sorted(outcomes) == ["busy"] * 3 + ["ok"] * 3
    finally:
        busy.close()
        answering.close()


def test_a_server_error_still_takes_the_node_out_of_rotation(monkeypatch):
    """The contrast: a node answering 503 is marked dead by the transport and the request moves on."""
    monkeypatch.setattr(metrics, "elasticsearch_request", lambda outcome, seconds: None)
    stopping, busy = LoopbackServer("unavailable"), LoopbackServer("busy")
    try:
        es = make_client(replace(conf.get().elasticsearch, url=f"{stopping.url},{busy.url}", timeout=1.0))
        for _ in range(4):
            with pytest.raises(ApiError):
                es.search(index="posts", query={"match_all": {}})
        assert stopping.connections == 1  # then on its dead-node timeout
        assert busy.connections == 4
    finally:
        stopping.close()
        busy.close()


# 512 regexps over 50,000 distinct words: 1.3-1.8 s of work on the dev node at a load of 4. It
# must last well over 200 ms, the node's clock for timeouts (thread_pool.estimated_time_interval):
# with 64 regexps, 0.15-0.3 s on a quiet machine, a search sometimes ended before the node saw its
# 1 ms pass. Past its timeout a search stops at the next tick, so the margin costs little.
SLOW = {"bool": {"should": [{"regexp": {"t": f".*{a}.*{b}.*{c}.*"}} for a in "abcd" for b in "efghijkl" for c in "mnopqrstuvwxyzab"]}}


class TimedOutSearches:
    """A client for search() whose every search is one the real node gives up on: the product's
    request replaced by SLOW with `timeout=1ms` and no partial results, on an index of its own."""

    def __init__(self, es, index):
        self.es, self.index, self.answers = es, index, []

    def options(self, **_):
        return self

    def search(self, index, **body):
        try:
            return self.es.search(index=self.index, query=SLOW, size=0, timeout="1ms", allow_partial_search_results=False, request_cache=False)
        except ApiError as exc:
            self.answers.append(exc)
            raise


@pytest.fixture
def words_index(es_admin):
    import random

    from tests.helpers import TEST_PREFIX

    name, rng = f"{TEST_PREFIX}-timeout-probe", random.Random(50)
    es_admin.indices.create(index=name, settings={"number_of_shards": 1, "number_of_replicas": 0})
    words = ("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(8)) for _ in range(50_000))
    docs = [{"t": " ".join(next(words) for _ in range(25))} for _ in range(2_000)]
    es_admin.bulk(operations=[line for doc in docs for line in ({"index": {}}, doc)], index=name, refresh=True)
    yield name
    es_admin.indices.delete(index=name)


def test_a_real_search_past_its_timeout_is_busy_for_the_breaker_and_the_client(offline, es_admin, words_index, monkeypatch):
    """The real node's answer, not a copy of it: 9.x's 429 (8.19's 504) for a search past its
    `timeout` reaches search() as a calm SearchUnavailable, counted busy, and the breaker stays
    closed after twice the searches that open it on server errors; the client's transport counts
    each round trip busy, never an error. The fakes above answer as the node does."""
    from search.querying import service

    outcomes = []
    monkeypatch.setattr(metrics, "elasticsearch_request", lambda outcome, seconds: outcomes.append(outcome))
    client = TimedOutSearches(es_admin, words_index)
    major = int(es_admin.info()["version"]["number"].split(".")[0])
    status, fake = BUSY_ANSWERS["9.x timeout" if major >= 9 else "8.x timeout"]
    searches = conf.get().serving.search_breaker_min_calls * 2
    for _ in range(searches):
        with pytest.raises(service.SearchUnavailable):
            service.search("firefox", client=client)
    assert len(client.answers) == searches
    for exc in client.answers:
        assert (exc.meta.status, failure_kind(exc)) == (status, BUSY), exc
        (cause,) = exc.body["error"]["root_cause"]
        assert (cause["type"], cause["reason"]) == (fake["error"]["root_cause"][0]["type"], "Time exceeded")
    assert service.breaker.allows()
    assert outcomes.count("busy") == searches and "error" not in outcomes
