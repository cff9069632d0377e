"""The thin I/O part of a search: send request bodies to the aliases within one deadline.

It only sends bodies and keeps account (round trips, Elasticsearch's `took`, the bodies sent, for
the debug table); what to send is decided by search/querying/plan.py and what an answer means by
search/querying/reader.py, both pure. A search as a whole gets serving.deadline_seconds: each request
waits at most what is left of it (never more than the client's own timeout), so three slow answers
cannot add up to a long wait, and an answer that arrives after the deadline counts as a timeout.
"""

import math
import threading
import time

from elasticsearch import ConnectionTimeout, TransportError

from search import process
from search.aliases import alias_name
from search.documents import Kind

# What a search addresses unless told otherwise: the entries' alias. An entry's document holds its
# shown replies' text (search/documents.py), so one hit is one entry; the replies' own alias serves
# the comments shown inside the entries of a results page (query.comments_body).
ENTRIES = (Kind.POSTS,)


class DeadlineExceeded(ConnectionTimeout):
    """The search's time budget ran out (a transport error: the breaker trips on it)."""

    def __init__(self, message: str):
        super().__init__(message)


class PartialAnswer(TransportError):
    """Elasticsearch answered without some shards' documents, twice (a transport error: the
    breaker counts it, the reader gets a 503, nothing is cached)."""

    def __init__(self, message: str):
        super().__init__(message)


def failed_shards(response: dict) -> int:
    """How many shards an answer lacks. A copy lost between the query and the fetch phase (a node
    killed mid-request) leaves an answer whose counts look whole and whose hits are missing."""
    return int(response.get("_shards", {}).get("failed", 0) or 0)


_timed: dict[tuple[int, float], tuple] = {}
_timed_lock = threading.Lock()


def _forget_timed() -> None:
    with _timed_lock:
        _timed.clear()


process.register("clients per timeout step", _forget_timed)


def with_timeout(client, seconds: float):
    """`client.options(request_timeout=...)`, made once per client and 10 ms step of timeout.

    Each options() call builds a new client with its forty-odd API namespaces (and their
    OpenTelemetry set-up reading the environment): a quarter of a millisecond of Python per
    request, as much as a whole cached search. The timeout is rounded down, never up."""
    if seconds < 0.01:  # the last moments of a deadline: exact, not kept
        return client.options(request_timeout=max(seconds, 0.001))
    step = math.floor(seconds * 100 + 1e-6) / 100
    key = (id(client), step)
    found = _timed.get(key)
    if found is not None and found[0] is client:
        return found[1]
    timed = client.options(request_timeout=step)
    with _timed_lock:
        if len(_timed) > 1000:
            _timed.clear()
        _timed[key] = (client, timed)
    return timed


class Executor:
    def __init__(self, client, *, deadline_seconds: float, timeout_seconds: float, clock=None):
        self.client = client
        self.clock = clock or time.monotonic
        self.deadline = self.clock() + deadline_seconds
        self.timeout_seconds = timeout_seconds
        self.round_trips = 0
        self.took_ms = 0
        self.requests: list[dict] = []

    def search(self, body: dict, *, kinds=ENTRIES) -> dict:
        """One request to the aliases of `kinds` (the entries' by default); asked once more, within the
        deadline, when the answer lacks shards: by then the coordinating node routes to a live
        copy (measured on the three-node cluster: one such answer 0.11 s after a node was
        killed, "no hits" with a count of 28). A second partial answer is an error, never shown
        as if whole, nor cached."""
        response = self._send(body, kinds)
        if failed_shards(response):
            response = self._send(body, kinds)
            if failed_shards(response):
                raise PartialAnswer(f"{failed_shards(response)} shard(s) failed twice: {response['_shards'].get('failures', [])[:1]}")
        return response

    def _send(self, body: dict, kinds) -> dict:
        left = self.deadline - self.clock()
        if left <= 0:
            raise DeadlineExceeded("the search's time budget is spent")
        timeout = min(left, self.timeout_seconds)
        indices = ",".join(alias_name(kind) for kind in kinds)
        response = with_timeout(self.client, timeout).search(index=indices, **body).body
        self.round_trips += 1
        self.took_ms += int(response.get("took", 0))
        self.requests.append(body)
        if self.clock() > self.deadline:
            raise DeadlineExceeded("Elasticsearch answered after the search's deadline")
        return response
