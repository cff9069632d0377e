"""The one Elasticsearch connection, made lazily from settings (no network I/O at import time).

`ELASTICSEARCH_URL` may list several nodes, comma-separated. The client's node pool (from
elastic-transport) spreads requests over them round robin and puts a node that failed to connect
on a growing timeout (1 s, 2 s, 4 s ... at most 30 s), so a lost node costs one fast failed attempt
now and then, not one per request. A request that could not *connect* (refused, reset) is tried
again on another node; one that *timed out* is not (a slow cluster must give a fast 503, not
several slow attempts), and every attempt of a request shares the request's own deadline.

Works with the `elasticsearch` client 8.19 and 9.x (elastic-transport 8.19 and 9.x): the transport's
`perform_request` takes the same keywords in both, and the 9.x ones it adds (retry backoff) pass
through untouched.
"""

import logging
import threading
import time

from django.core.signals import setting_changed
from django.dispatch import receiver
from elastic_transport import ConnectionError as ConnectError
from elastic_transport import ConnectionTimeout, NodePool, Transport
from elastic_transport.client_utils import DEFAULT
from elasticsearch import ApiError, Elasticsearch
from elasticsearch.serializer import OrjsonSerializer

from search import conf, metrics, process
from search.conf import ElasticsearchSettings
from search.nodes import node_urls

log = logging.getLogger(__name__)

_lock = threading.Lock()
_client: Elasticsearch | None = None
_bulk_client: Elasticsearch | None = None


# What a failed request says about the cluster (failure_kind). Only UNREACHABLE and SERVER_ERROR
# are a node's failure, which the search breaker counts; the others had a node answer.
UNREACHABLE, BUSY, MISSING, SERVER_ERROR, REFUSED = "unreachable", "busy", "missing", "server_error", "refused"
NODE_FAILURES = frozenset({UNREACHABLE, SERVER_ERROR})


def is_busy(status: int, body: object) -> bool:
    """An answer that means "too much to do now": 429 (a full search queue, a tripped memory
    breaker, and since Elasticsearch 9 a search past its server-side `timeout` when partial results
    are not allowed), or the 504 with which 8.x answered that same timed-out search."""
    if status == 429:
        return True
    if status != 504 or not isinstance(body, dict) or not isinstance(body.get("error"), dict):
        return False
    causes = body["error"].get("root_cause") or [body["error"]]
    return any(isinstance(cause, dict) and cause.get("type") == "search_timeout_exception" for cause in causes)


def failure_kind(exc: Exception) -> str:
    """UNREACHABLE: no answer (refused, reset, timed out on our side); BUSY: see is_busy; MISSING:
    404 (no such index or alias: `reindex` has not run); SERVER_ERROR: any other 5xx; REFUSED: any
    other 4xx (a request we built was refused: a bug)."""
    if not isinstance(exc, ApiError):
        return UNREACHABLE
    status = exc.meta.status
    if is_busy(status, exc.body):
        return BUSY
    if status == 404:
        return MISSING
    return SERVER_ERROR if status >= 500 else REFUSED


class HeldDeathNodePool(NodePool):
    """elastic-transport's pool, except that while a thread `holds` it, the nodes the stock
    transport marks dead are only noted, for FailoverTransport to bury or spare once it has read
    the answer. The stock transport takes a node out of the rotation (the dead-node backoff: 1 s,
    2 s ...) for any status outside 2xx and 400-409, 429 included: a node that answered "busy"
    would count as lost, and its share of the searches would move onto the other nodes."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._held = threading.local()

    def mark_dead(self, node, _now=None) -> None:
        held = getattr(self._held, "nodes", None)
        if held is None:
            super().mark_dead(node, _now)
        else:
            held.append(node)

    def hold(self) -> list:
        """Note this thread's mark_dead calls from now on; returns the list they go to."""
        self._held.nodes = []
        return self._held.nodes

    def release(self, bury: bool) -> None:
        """Stop holding; mark the noted nodes dead after all when `bury`."""
        held, self._held.nodes = self._held.nodes, None
        for node in held if bury else ():
            super().mark_dead(node)


class FailoverTransport(Transport):
    """A Transport whose retries stay inside the request's deadline.

    elastic-transport already moves a retry to another live node, but gives every attempt the whole
    `request_timeout` again: a node that dies after 0.9 s of a 1 s search would make the search take
    1.9 s. Here each attempt is one call of the stock transport (max_retries=0, so node selection,
    dead-node marking and resurrection stay the library's) with what is left of the deadline. A
    connection error is retried while attempts and time remain; a timeout never is; an answer with a
    status in retry_on_status (502/503: a node shutting down) is retried likewise, else returned.
    """

    def __init__(self, node_configs, **kwargs):
        kwargs.setdefault("node_pool_class", HeldDeathNodePool)
        assert issubclass(kwargs["node_pool_class"], HeldDeathNodePool), "FailoverTransport needs a HeldDeathNodePool"
        super().__init__(node_configs, **kwargs)

    def perform_request(self, method, target, *, max_retries=DEFAULT, retry_on_status=DEFAULT, request_timeout=DEFAULT, **kwargs):
        retries = self.max_retries if max_retries is DEFAULT else max_retries
        statuses = self.retry_on_status if retry_on_status is DEFAULT else retry_on_status
        timeout = self.node_pool.all()[0].config.request_timeout if request_timeout is DEFAULT else request_timeout
        deadline = None if timeout is None else time.monotonic() + timeout
        attempt = 0
        while True:
            left = None if deadline is None else max(deadline - time.monotonic(), 0.001)
            try:
                response = self._attempt(method, target, max_retries=0, retry_on_status=statuses, request_timeout=left, **kwargs)
            except ConnectError as exc:  # ConnectionTimeout is not a ConnectionError: never retried
                if not self._may_retry(attempt, retries, deadline):
                    raise
                log.info("%s %s: %s; trying another node (attempt %d of %d)", method, target, exc, attempt + 2, retries + 1)
            else:
                if response.meta.status not in statuses or not self._may_retry(attempt, retries, deadline):
                    return response
                log.info("%s %s: HTTP %d; trying another node", method, target, response.meta.status)
            attempt += 1
            metrics.elasticsearch_retry()

    def _attempt(self, method, target, **kwargs):
        """One round trip through the stock transport, counted by outcome for /metrics. A node
        that answered "busy" (is_busy) stays in the rotation: it is not lost (HeldDeathNodePool)."""
        started, outcome = time.perf_counter(), "unreachable"
        self.node_pool.hold()
        try:
            response = super().perform_request(method, target, **kwargs)
            status = response.meta.status
            outcome = "busy" if is_busy(status, response.body) else "error" if status >= 500 else "ok"
            return response
        except ConnectionTimeout:
            outcome = "timeout"
            raise
        finally:
            self.node_pool.release(bury=outcome != "busy")
            metrics.elasticsearch_request(outcome, time.perf_counter() - started)

    @staticmethod
    def _may_retry(attempt: int, retries: int, deadline: float | None) -> bool:
        if attempt >= retries:
            return False
        return deadline is None or deadline - time.monotonic() >= conf.get().elasticsearch.min_attempt_seconds


def make_client(options: ElasticsearchSettings, *, fast_json: bool = True) -> Elasticsearch:
    """A client for the nodes in `options.url` with its timeouts and retry policy.

    `fast_json`: orjson (de)serializes the requests, 12% less client CPU per search (README). Not
    for bulk loads: there it saved nothing and raised `reindex`'s peak memory by 32 MB."""
    nodes = node_urls(options.url)
    return Elasticsearch(
        nodes,
        transport_class=FailoverTransport,
        request_timeout=options.timeout,
        # By default each other node gets one try: with one node there is nothing to fail over to.
        max_retries=len(nodes) - 1 if options.max_retries < 0 else options.max_retries,
        retry_on_timeout=False,
        retry_on_status=options.retry_on_status,
        dead_node_backoff_factor=options.dead_node_backoff,
        max_dead_node_backoff=options.max_dead_node_backoff,
        **({"serializer": OrjsonSerializer()} if fast_json else {}),
    )


def get_client() -> Elasticsearch:
    """The shared client. Short timeouts: a reader's request must not hang on search."""
    global _client
    if _client is None:
        with _lock:
            if _client is None:
                _client = make_client(conf.get().elasticsearch)
    return _client


def bulk_client() -> Elasticsearch:
    """The client of the management commands' bulk work (`reindex`, `search_sync`,
    `search_check`): the longer timeout bulk loads need and the standard JSON serializer (see
    make_client), on connections of its own, made once per process. The outbox's syncs after a
    commit go through get_client()."""
    global _bulk_client
    if _bulk_client is None:
        with _lock:
            if _bulk_client is None:
                options = conf.get().elasticsearch
                _bulk_client = make_client(options, fast_json=False).options(request_timeout=options.bulk_timeout)
    return _bulk_client


def sync_client() -> Elasticsearch:
    """The client of a save's sync after the commit: the shared client's connections with
    `ELASTICSEARCH_SYNC_TIMEOUT`. A reader's 1 s is too short for a write: one queued behind a
    rebuild's bulk load took longer, the sync gave up, the generation moved on, and Elasticsearch
    applied the write after the caches had kept the old answer under the new generation."""
    return get_client().options(request_timeout=conf.get().elasticsearch.sync_timeout)


def reset_client() -> None:
    """Forget the client so the next get_client() reads the settings again (tests use this).

    The old client is not closed: whoever still holds it may go on using it.
    """
    global _client, _bulk_client
    with _lock:
        _client = _bulk_client = None


process.register("Elasticsearch clients", reset_client)


@receiver(setting_changed)
def _on_setting_changed(*, setting, **_):
    """A new settings.ELASTICSEARCH (tests' `settings` fixture) takes effect at the next request."""
    if setting == "ELASTICSEARCH":
        reset_client()
