"""Query ids: the server issues one per logged search; the click endpoint accepts nothing else.

An id is `<token>.<search>.<issued>.<signature>`:

- `token`: the random token of the log row that counts the search (stored with the row, quoted
  by its clicks). Identical searches written in the same batch share one row, so they share it.
- `search`: 48 random bits (12 hex digits) told apart per search, so that clicks count clicked
  searches, not rows, and a repeated beacon counts once (clicks store it). Random rather than a
  counter, which would tell a reader how many others made the same search moments before.
- `issued`: the issue time in seconds (hexadecimal).
- `signature`: 128 bits of keyed BLAKE2b (a MAC by design: the key is a parameter of the hash)
  over the rest, keyed from SECRET_KEY.

Checking one needs no database read, so a click is accepted even while its search row still
waits in another worker's buffer, and ids cannot be made up or reused after CLICK_MAX_AGE_SECONDS.
An id is issued on every search, so it must cost very little: keyed BLAKE2b from a pre-keyed
copy is about a third of HMAC-SHA256's time here, and `search` comes from `random` (reseeded in
every forked worker), not from the operating system, since nothing depends on guessing it.
"""

import binascii
import hashlib
import hmac
import random
import secrets
import time

from django.conf import settings

from insights import conf

_SALT = b"insights.query-id"
_URLSAFE = bytes.maketrans(b"+/", b"-_")
_keyed: tuple | None = None  # (SECRET_KEY, a BLAKE2b keyed from it, to copy)


def _hasher():
    global _keyed
    secret = settings.SECRET_KEY
    if _keyed is None or _keyed[0] is not secret:
        key = hashlib.sha256(_SALT + secret.encode()).digest()
        _keyed = (secret, hashlib.blake2b(key=key, digest_size=16))
    return _keyed[1].copy()


def _signature(token: str, search: str, issued: str) -> str:
    mac = _hasher()
    mac.update(f"{token}.{search}.{issued}".encode())
    return binascii.b2a_base64(mac.digest(), newline=False).translate(_URLSAFE)[:22].decode()  # padding dropped


def new_token() -> str:
    """A log row's token: 16 characters, 96 random bits."""
    return secrets.token_urlsafe(12)


def query_id(token: str, now: float | None = None) -> str:
    """A new query id for one search counted by the row with this token."""
    search = format(random.getrandbits(48), "012x")
    issued = format(int(time.time() if now is None else now), "x")
    return f"{token}.{search}.{issued}.{_signature(token, search, issued)}"


def issue(now: float | None = None) -> tuple[str, str]:
    """A new (token, query id) pair, for a row of its own."""
    token = new_token()
    return token, query_id(token, now)


def verify(query_id: str, now: float | None = None) -> tuple[str, str] | None:
    """(token, search) of a query id this server issued less than CLICK_MAX_AGE_SECONDS ago, else None."""
    parts = (query_id or "").split(".")
    if len(parts) != 4 or len(query_id) > 80:
        return None
    token, search, issued, signature = parts
    if len(token) != 16 or len(search) != 12:
        return None
    if not hmac.compare_digest(signature.encode(), _signature(token, search, issued).encode()):
        return None
    try:
        age = (time.time() if now is None else now) - int(issued, 16)
    except ValueError:
        return None
    # A minute of slack for clocks of different machines.
    return (token, search) if -60 <= age <= conf.get().click_max_age_seconds else None
