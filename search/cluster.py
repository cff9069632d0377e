"""What the Elasticsearch cluster says about itself: readiness of new indices, status for /healthz.

On one node the answers are trivial; on a cluster they decide whether an alias swap is safe (a
new index whose replicas are still copying would leave searches on a single copy, or on none if
a node went away meanwhile).
"""
import logging

from django.conf import settings

log = logging.getLogger(__name__)


class IndicesNotReady(Exception):
    """New indices did not reach the wanted health in time; the aliases must not move to them."""


def wanted_status(client) -> str:
    """green when every replica can be placed (more data nodes than replicas), else yellow.

    On one node with SEARCH_REPLICAS=1 the replicas can never be assigned: waiting for green
    there would only time out.
    """
    data_nodes = client.cluster.health()["number_of_data_nodes"]
    return "green" if data_nodes > settings.SEARCH["REPLICAS"] else "yellow"


def wait_until_ready(client, indices: list[str], *, timeout: float | None = None) -> str:
    """Block until `indices` are at least yellow (green when replicas can be placed).

    Returns the status reached; raises IndicesNotReady after `timeout` seconds (default
    SEARCH["READY_TIMEOUT_SECONDS"]).
    """
    timeout = settings.SEARCH["READY_TIMEOUT_SECONDS"] if timeout is None else timeout
    want = wanted_status(client)
    health = client.options(request_timeout=timeout + 10).cluster.health(
        index=",".join(indices), wait_for_status=want, timeout=f"{max(int(timeout * 1000), 1)}ms",
        wait_for_no_initializing_shards=True)
    if health["timed_out"] or health["status"] not in (want, "green"):
        raise IndicesNotReady(f"{', '.join(indices)} still {health['status']} after {timeout:g}s (waiting for {want}; "
                              f"{health['unassigned_shards']} shard copies unassigned, "
                              f"{health['initializing_shards']} initializing)")
    log.info("new indices %s are %s", ", ".join(indices), health["status"])
    return health["status"]


def summary(client) -> dict:
    """Status and node counts for /healthz."""
    health = client.cluster.health(timeout="1s")
    return {"status": health["status"], "nodes": health["number_of_nodes"],
            "data_nodes": health["number_of_data_nodes"]}
