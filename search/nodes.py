"""The nodes of `ELASTICSEARCH_URL` (one URL or several, comma-separated), and how one is shown
(pure, no I/O).

Apart from the client (search/client.py) because the settings need it too: the connection's
settings object never shows the credentials a node URL may carry (search/conf.py,
ElasticsearchSettings.__repr__), and the client is built from those settings, so neither may import
the other for it.
"""

from urllib.parse import urlsplit, urlunsplit


def node_urls(url: str) -> list[str]:
    """The nodes of a comma-separated ELASTICSEARCH_URL."""
    return [part.strip() for part in url.split(",") if part.strip()]


def safe_url(url: str) -> str:
    """A URL (or a comma-separated list of them) with any user name and password removed, for display."""
    shown = []
    for part in node_urls(url):
        parts = urlsplit(part)
        host = parts.hostname or ""
        if parts.port:
            host = f"{host}:{parts.port}"
        shown.append(urlunsplit((parts.scheme, host, parts.path, "", "")))
    return ",".join(shown)
