"""The nodes of `ELASTICSEARCH_URL` (one URL or several, comma-separated), how one is shown and the
credentials they carry (pure, no I/O).

Apart from the client (search/client.py) because the settings need it too: the connection's
settings object never shows the credentials a node URL may carry (search/conf.py,
ElasticsearchSettings.__repr__), and the client is built from those settings, so neither may import
the other for it.
"""

from urllib.parse import quote, unquote, urlsplit, urlunsplit


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


def credentials(url: str) -> tuple[str, str] | None:
    """(user, password) of the first node that carries them, or None (percent-escapes decoded)."""
    for part in node_urls(url):
        parts = urlsplit(part)
        if parts.username is not None:
            return unquote(parts.username), unquote(parts.password or "")
    return None


def with_credentials(url: str, user: str, password: str) -> str:
    """The same nodes, each with this user name and password instead of any it carried."""
    userinfo = f"{quote(user, safe='')}:{quote(password, safe='')}@"
    shown = []
    for part in node_urls(url):
        parts = urlsplit(part)
        host = parts.hostname or ""
        if parts.port:
            host = f"{host}:{parts.port}"
        shown.append(urlunsplit((parts.scheme, userinfo + host, parts.path, parts.query, "")))
    return ",".join(shown)
