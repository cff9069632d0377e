"""The one Elasticsearch connection, made lazily from settings (no network I/O at import time)."""
import threading
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from elasticsearch import Elasticsearch

_lock = threading.Lock()
_client: Elasticsearch | None = None


def get_client() -> Elasticsearch:
    """The shared client. Short timeouts and no retries: a reader's request must not hang on search."""
    global _client
    if _client is None:
        with _lock:
            if _client is None:
                conf = settings.ELASTICSEARCH
                _client = Elasticsearch(
                    conf["URL"],
                    request_timeout=conf["TIMEOUT"],
                    max_retries=conf["MAX_RETRIES"],
                    retry_on_timeout=False,
                )
    return _client


def bulk_client() -> Elasticsearch:
    """The same connection with the longer timeout that bulk loads need."""
    return get_client().options(request_timeout=settings.ELASTICSEARCH["BULK_TIMEOUT"])


def reset_client() -> None:
    """Forget the client so the next get_client() reads the settings again (tests use this).

    The old client is not closed: whoever still holds it may go on using it.
    """
    global _client
    with _lock:
        _client = None


def safe_url(url: str) -> str:
    """A URL with any user name and password removed, for display."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))
