"""record(): the one call the search views make to log a search they served.

It hands the in-process buffer (insights/buffer.py) the search's fields from the search()
result object and signs a query id with the token of the row that will count it; no database
work happens on the request path. It returns the query id the page passes on to clicks, or None
when the log is off, nothing was searched, or the buffer is full.
"""

import re
from urllib.parse import urlencode

from django.urls import reverse

from insights import conf, tokens
from insights.buffer import buffer
from insights.models import SearchLog

# A burst id is made up by the instant-results script: random, URL-safe, nothing else accepted.
_BURST = re.compile(r"[A-Za-z0-9_-]{8,40}")


def instant_burst(params) -> tuple[str, int] | None:
    """(burst, seq) when a request says it is a keystroke of an instant-results burst."""
    burst, seq = params.get("burst", ""), params.get("seq", "")
    if _BURST.fullmatch(burst) and seq.isascii() and seq.isdigit() and len(seq) <= 9:
        return burst, int(seq)
    return None


def record(result, *, source: str, burst: tuple[str, int] | None = None) -> str | None:
    """Logs a search served (a search() result) from `source`; returns its query id for clicks."""
    options = conf.get()
    if not options.enabled or not result.query:
        return None
    burst_id, seq = burst if burst else (None, 0)
    token = buffer.add(
        (
            SearchLog.INSTANT if burst else source,
            burst_id,
            seq,
            result.query,
            result.page,
            result.total,
            result.strategy,
            result.showing_for,
            result.round_trips,
            result.took_ms,
            bool(result.cached),
        ),
        float(result.elapsed_ms),
        options,
    )
    return None if token is None else tokens.query_id(token)


def result_links(result, query_id: str | None) -> list[tuple]:
    """(hit, position, href) for the results page: with a query id, href is the no-JavaScript
    click link (/search/click records the click, then redirects to the hit); the page's script
    swaps it for the hit's own URL and sends a beacon instead."""
    first = (result.page - 1) * result.page_size + 1
    if not query_id:
        return [(hit, first + i, hit.url) for i, hit in enumerate(result.hits)]
    click = reverse("insights:click")
    return [(hit, first + i, f"{click}?{urlencode({'id': query_id, 'pos': first + i, 'to': hit.url})}") for i, hit in enumerate(result.hits)]
