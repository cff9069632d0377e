"""Who may read the metrics, and the Prometheus text they read: for the web's /metrics and for
the port `search_sync --every` serves.

Metrics tell how busy the service is and when it fails, which is nobody's business outside:
loopback, the addresses and networks of metrics.allow and a request carrying metrics.token may
read them; everyone else gets a 404, as if there were nothing there. The address is the
connection's own (REMOTE_ADDR): a forwarded header is whatever the client wrote.

Why the scheduler serves its own port rather than pushing: its counters (sync rounds, the
freshness of what it applied) live in its memory, and a Pushgateway would be one more service
to run and secure. Everything that is a state in PostgreSQL or Elasticsearch is read by the web's
/metrics alone (search/metrics_state.py), so the scheduler's port adds no figure twice.
"""

import functools
import hmac
import ipaddress
import logging
import os
import threading
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest, multiprocess

from search import conf
from search.metrics_state import StateCollector

log = logging.getLogger(__name__)

_LOOPBACK = (ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128"))


@functools.lru_cache(maxsize=8)
def networks(text: str) -> tuple:
    """metrics.allow as networks; raises ValueError naming a malformed entry (search/checks.py
    reports it at start-up)."""
    found = []
    for entry in (part.strip() for part in text.split(",")):
        if entry:
            try:
                found.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                raise ValueError(f"SEARCH_METRICS_ALLOW: {entry!r} is not an address or network") from None
    return tuple(found)


def allowed(remote_addr: str, authorization: str = "") -> bool:
    settings = conf.get().metrics
    if not settings.enabled:
        return False
    if settings.token and hmac.compare_digest(authorization.encode(), f"Bearer {settings.token}".encode()):
        return True
    try:
        address = ipaddress.ip_address(remote_addr.split("%")[0])
    except ValueError:
        return False
    if address.version == 6 and address.ipv4_mapped:
        address = address.ipv4_mapped
    return any(address in net for net in (*_LOOPBACK, *networks(settings.allow)))


class _Process:
    """This process's own metrics, as a collector (the default registry cannot be added to another)."""

    def collect(self):
        return REGISTRY.collect()


def render(*, state: bool) -> tuple[bytes, str]:
    """The text format of every process's counters (all gunicorn workers' in multiprocess mode)
    and, with `state`, the figures read from PostgreSQL and Elasticsearch now."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(_Process())
    if state:
        registry.register(StateCollector())
    return generate_latest(registry), CONTENT_TYPE_LATEST


def _app(environ, start_response):
    if environ.get("PATH_INFO") != "/metrics" or not allowed(environ.get("REMOTE_ADDR", ""), environ.get("HTTP_AUTHORIZATION", "")):
        start_response("404 Not Found", [("Content-Type", "text/plain")])
        return [b"Not Found\n"]
    body, content_type = render(state=False)
    start_response("200 OK", [("Content-Type", content_type)])
    return [body]


class _Quiet(WSGIRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the stdlib's name
        log.debug("metrics: " + format, *args)


def serve_in_background(port: int, address: str) -> WSGIServer:
    """Serve this process's counters at http://address:port/metrics on a daemon thread (the
    scheduler's `search_sync --every`), with the web's access rules."""
    server = make_server(address, port, _app, handler_class=_Quiet)
    threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()
    log.info("metrics served at http://%s:%d/metrics", address, server.server_port)
    return server
