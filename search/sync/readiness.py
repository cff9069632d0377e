"""What the Elasticsearch cluster says about itself: readiness of new indices, status for /healthz.

On one node the answers are trivial; on a cluster they decide whether an alias swap is safe (a
new index whose replicas are still copying would leave searches on a single copy, or on none if
a node went away meanwhile).
"""

import logging
import time

from search import conf

log = logging.getLogger(__name__)


class IndicesNotReady(Exception):
    """New indices did not reach the wanted health in time; the aliases must not move to them."""


def wanted_status(client) -> str:
    """green when every replica can be placed (more data nodes than replicas), else yellow.

    On one node with SEARCH_REPLICAS=1 the replicas can never be assigned: waiting for green
    there would only time out.
    """
    data_nodes = client.cluster.health()["number_of_data_nodes"]
    return "green" if data_nodes > conf.get().index.replicas else "yellow"


def wait_until_ready(client, indices: list[str], *, timeout: float | None = None) -> str:
    """Block until `indices` are at least yellow (green when replicas can be placed), with no shard
    copy still initializing. Returns the status reached; raises IndicesNotReady after `timeout`
    seconds (default index.ready_timeout_seconds).

    Polls instead of using the health API's wait_for_status: that answers a timeout with HTTP 408,
    which the client's node pool would count as a failed node.
    """
    cfg = conf.get()
    timeout = cfg.index.ready_timeout_seconds if timeout is None else timeout
    want = wanted_status(client)
    deadline = time.monotonic() + timeout
    while True:
        health = client.cluster.health(index=",".join(indices))
        if health["status"] in (want, "green") and not health["initializing_shards"]:
            log.info("new indices %s are %s", ", ".join(indices), health["status"])
            return health["status"]
        if time.monotonic() >= deadline:
            raise IndicesNotReady(
                f"{', '.join(indices)} still {health['status']} after {timeout:g}s (waiting for {want}; "
                f"{health['unassigned_shards']} shard copies unassigned, "
                f"{health['initializing_shards']} initializing)"
            )
        time.sleep(cfg.index.ready_poll_seconds)


def summary(client) -> dict:
    """Status and node counts for /healthz."""
    health = client.cluster.health(timeout="1s")
    return {"status": health["status"], "nodes": health["number_of_nodes"], "data_nodes": health["number_of_data_nodes"]}
