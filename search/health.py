"""The state of everything search depends on, for /healthz and container health checks.

Elasticsearch reports its status and node counts: a cluster that lost a node answers yellow with
one node fewer, still healthy (every shard has a copy), so a load balancer keeps the app in.
"""
from django.db import connection
from elasticsearch import ApiError, TransportError

from search import cluster, outbox
from search.client import get_client
from search.documents import KINDS
from search.rebuild import aliased_indices


def check() -> tuple[bool, dict]:
    """(healthy, report). Healthy means PostgreSQL and Elasticsearch answer and the aliases exist."""
    report: dict = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        report["postgresql"] = {"ok": True}
        report["outbox"] = {"ok": True, "pending": outbox.depth()}
    except Exception as exc:  # noqa: BLE001 - any failure is reported, none raised
        report["postgresql"] = {"ok": False, "error": type(exc).__name__}
        report["outbox"] = {"ok": False, "pending": None}
    try:
        client = get_client()
        state = cluster.summary(client)
        report["elasticsearch"] = {"ok": state["status"] in ("green", "yellow"), **state}
        aliases = {kind: aliased_indices(client, kind) for kind in KINDS}
        report["aliases"] = {"ok": all(aliases.values()), **{k: (v[0] if v else None) for k, v in aliases.items()}}
    except (TransportError, ApiError) as exc:
        report["elasticsearch"] = {"ok": False, "error": type(exc).__name__}
        report["aliases"] = {"ok": False}
    healthy = all(part["ok"] for part in report.values())
    return healthy, report
