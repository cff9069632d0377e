"""Recording a result opened from a logged search, and the checks that keep the endpoint honest.

Three guards: the query id must be one this server issued (insights/tokens.py), the target must
be one of our own post URLs (so the no-JavaScript redirect can never send a reader elsewhere),
and a client address may record at most CLICK_RATE_PER_MINUTE clicks a minute (counted in
PostgreSQL under a salted hash of the address, by PostgreSQL's minute, so the limit holds across
every worker and host; the address is never written anywhere). Each (search, position) is stored once, so repeated beacons count once.
"""

import hashlib
import logging
import random
import re
from urllib.parse import urlsplit

from django.conf import settings
from django.db import DatabaseError, connection
from django.urls import Resolver404, resolve

from insights import conf
from insights.models import SearchClick
from search.api import get_settings

log = logging.getLogger(__name__)

_FRAGMENT = re.compile(r"comment-[0-9]{1,18}")
# The view that shows a post: the only place a click may lead.
POST_VIEW = "blog:post"


def own_post_url(target: str) -> str | None:
    """`target` when it is a path on this site to a post (optionally #comment-N), else None."""
    if not target or len(target) > SearchClick._meta.get_field("url").max_length:
        return None
    # Browsers drop tabs and newlines inside URLs and read "\" as "/": "/\t/evil" would be "//evil".
    if not target.startswith("/") or target.startswith("//") or any(c <= " " or c in "\\\x7f" for c in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or parts.query or (parts.fragment and not _FRAGMENT.fullmatch(parts.fragment)):
        return None
    try:
        match = resolve(parts.path)
    except Resolver404:
        return None
    return target if match.view_name == POST_VIEW else None


def position(raw: str) -> int | None:
    """A result's position (1-based, across pages), when it is one a results list can have."""
    limit = get_settings().serving.max_page * get_settings().serving.page_size
    if raw and raw.isascii() and raw.isdigit() and len(raw) <= 4 and 1 <= int(raw) <= limit:
        return int(raw)
    return None


_RATE_SQL = """
INSERT INTO insights_clickrate (client, minute, count) VALUES (%s, date_trunc('minute', statement_timestamp()), 1)
ON CONFLICT (client) DO UPDATE SET
    count = CASE WHEN insights_clickrate.minute = EXCLUDED.minute THEN insights_clickrate.count + 1 ELSE 1 END,
    minute = EXCLUDED.minute
RETURNING count
"""


def within_rate(client_address: str) -> bool:
    """True while this address has recorded fewer than CLICK_RATE_PER_MINUTE clicks this minute
    (PostgreSQL's), counted once for every process. When PostgreSQL cannot count, the click is
    let through (the store below fails alike and says so): statistics never block a reader."""
    digest = hashlib.sha256(f"{settings.SECRET_KEY}\x00{client_address}".encode()).hexdigest()[:24]
    try:
        with connection.cursor() as cursor:
            cursor.execute(_RATE_SQL, [digest])
            count = cursor.fetchone()[0]
            if random.random() < 0.01:  # about once per hundred clicks: forget clients gone quiet
                cursor.execute("DELETE FROM insights_clickrate WHERE minute < statement_timestamp() - interval '10 minutes'")
    except DatabaseError:
        log.warning("search log: a click could not be counted", exc_info=True)
        return True
    return count <= conf.get().click_rate_per_minute


def store(token: str, search: str, pos: int, url: str) -> bool:
    """Records the click (of the search `search` counted by the row `token`) once; True when it
    was new. A database failure is logged, never raised: the no-JavaScript redirect must lead the
    reader on whatever happens to the statistics."""
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO insights_searchclick (token, search, position, url) VALUES (%s, %s, %s, %s) ON CONFLICT (token, search, position) DO NOTHING",
                [token, search, pos, url],
            )
            return cursor.rowcount == 1
    except DatabaseError:
        log.warning("search log: a click could not be recorded", exc_info=True)
        return False
