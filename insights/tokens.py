"""Query ids: the server issues one per logged search; the click endpoint accepts nothing else.

An id is `<token>.<issued>.<signature>`: a random token (stored with the log row, quoted by its
clicks), the issue time in seconds (hexadecimal), and an HMAC-SHA256 of both keyed from SECRET_KEY.
Checking one needs no database read, so a click is accepted even while its search row still
waits in another worker's buffer, and ids cannot be made up or reused after CLICK_MAX_AGE_SECONDS.
A hand-rolled HMAC rather than django.core.signing because an id is issued on every search and
must cost microseconds (bench/insights_cost.py: about 3 us here, against 18 us with hmac.new and
django.core.signing's machinery around it).
"""
import base64
import hashlib
import hmac
import secrets
import time
from functools import cache

from django.conf import settings

_SALT = b"insights.query-id"


@cache
def _key(secret: str) -> bytes:
    return hashlib.sha256(_SALT + secret.encode()).digest()


def _signature(token: str, issued: str) -> str:
    mac = hmac.digest(_key(settings.SECRET_KEY), f"{token}.{issued}".encode(), "sha256")  # one-shot C path
    return base64.urlsafe_b64encode(mac[:16]).decode()[:22]  # 128 bits, the padding dropped


def issue(now: float | None = None) -> tuple[str, str]:
    """A new (token, query id) pair."""
    token = secrets.token_urlsafe(12)  # 16 characters, 96 random bits
    issued = format(int(time.time() if now is None else now), "x")
    return token, f"{token}.{issued}.{_signature(token, issued)}"


def verify(query_id: str, now: float | None = None) -> str | None:
    """The token of a query id this server issued less than CLICK_MAX_AGE_SECONDS ago, else None."""
    parts = (query_id or "").split(".")
    if len(parts) != 3 or len(query_id) > 64:
        return None
    token, issued, signature = parts
    if len(token) != 16 or not hmac.compare_digest(signature.encode(), _signature(token, issued).encode()):
        return None
    try:
        age = (time.time() if now is None else now) - int(issued, 16)
    except ValueError:
        return None
    # A minute of slack for clocks of different machines.
    return token if -60 <= age <= settings.INSIGHTS["CLICK_MAX_AGE_SECONDS"] else None
