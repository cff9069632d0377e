"""Empty Elasticsearch's shard request cache before a benchmark measures fresh queries.

Why: the fresh query pools are seeded (bench/freshqueries.py), so a second run sends the same
queries as the first. Elasticsearch caches the whole response of a `size: 0` request per shard
(our suggest request is one) until the index refreshes with a change, so a second run on
unchanged indices had its suggestions answered from that cache: measured with bench/es_cost.py,
the misspelled pool cost 5.3 ms of Elasticsearch time a query instead of 7.3 ms, and the ratio
the issue's target is about fell from 5.0x to 3.3x. Clearing it makes every run as fresh as the
first after a reindex.
"""

import logging
import urllib.request

log = logging.getLogger(__name__)


def clear_request_cache(url: str) -> None:
    """POST _cache/clear?request=true to the first node of `url` (comma-separated nodes allowed):
    every index's request cache, on every node (the API fans out)."""
    node = url.split(",")[0].rstrip("/")
    request = urllib.request.Request(f"{node}/_cache/clear?request=true", method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        response.read()
    log.info("cleared Elasticsearch's request cache at %s", node)
