"""Empty Elasticsearch's shard request cache before a benchmark measures fresh queries (and
read a node's version, for the benchmark that compares two).

Why: the fresh query pools are seeded (bench/freshqueries.py), so a second run sends the same
queries as the first. Elasticsearch caches the whole response of a `size: 0` request per shard
(our suggest request is one) until the index refreshes with a change, so a second run on
unchanged indices had its suggestions answered from that cache: measured with bench/es_cost.py,
the misspelled pool cost 5.3 ms of Elasticsearch time a query instead of 7.3 ms, and the ratio
the issue's target is about fell from 5.0x to 3.3x. Clearing it makes every run as fresh as the
first after a reindex.
"""

import base64
import json
import logging
import os
import urllib.request
from urllib.parse import unquote, urlsplit, urlunsplit

log = logging.getLogger(__name__)


def _call(url: str, path: str, *, method: str = "GET") -> bytes:
    """`method` `path` on the first node of `url` (comma-separated nodes allowed), as the user in
    the URL (the site's, with security on)."""
    parts = urlsplit(url.split(",")[0].rstrip("/"))
    node = urlunsplit((parts.scheme, parts.hostname + (f":{parts.port}" if parts.port else ""), parts.path, "", ""))
    request = urllib.request.Request(f"{node}{path}", method=method)
    if parts.username:
        token = base64.b64encode(f"{unquote(parts.username)}:{unquote(parts.password or '')}".encode()).decode()
        request.add_header("Authorization", f"Basic {token}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.read()


def clear_request_cache(url: str, indices: str | None = None) -> None:
    """POST <indices>/_cache/clear?request=true to the first node of `url`: those indices' request
    cache on every node (the API fans out). The site's user may clear only its own indices: by
    default those of the index prefix, every benchmark's alias among them (`<prefix>-*`)."""
    target = indices or f"{os.environ.get('SEARCH_INDEX_PREFIX', 'blog')}-*"
    _call(url, f"/{target}/_cache/clear?request=true&allow_no_indices=true", method="POST")
    log.info("cleared Elasticsearch's request cache of %s at %s", target, url.split(",")[0].split("@")[-1])


def server_version(url: str) -> str:
    """The Elasticsearch version the first node of `url` runs ("9.2.4")."""
    return json.loads(_call(url, "/"))["version"]["number"]
