"""Index names: the alias of each kind, the real indices behind it, and whether they are current.

Each kind's documents live in a real index whose name carries a UTC timestamp
(`<prefix>-posts-20261125...`), behind an alias (`<prefix>-posts`) that readers and writers use,
so that `reindex` can build a new index beside the live one and swap the alias atomically.
Both wings and the health check ask these questions, so they live on the shared floor.
"""

from datetime import UTC, datetime

from django.core.exceptions import ImproperlyConfigured
from elasticsearch import NotFoundError

from search import conf
from search.client import get_client
from search.documents import KINDS, schema_id
from search.ownership import prefix_problem
from search.versions import SCHEME


def alias_name(kind: str) -> str:
    prefix = conf.get().index.prefix
    if not prefix:  # `check` says so first (search/checks.py); never the bare `-posts`
        raise ImproperlyConfigured(prefix_problem(prefix))
    return f"{prefix}-{kind}"


def live_aliases() -> str:
    """Every kind's alias, comma-separated: what a search, the dictionary and the synonyms' checks
    address."""
    return ",".join(alias_name(kind) for kind in KINDS)


def new_index_name(kind: str, *, now: datetime | None = None) -> str:
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d%H%M%S%f")
    return f"{alias_name(kind)}-{stamp}"


def index_pattern(kind: str) -> str:
    """Matches every real index ever built for a kind (and nothing of another prefix or kind)."""
    return f"{alias_name(kind)}-2*"


def aliased_indices(client, kind: str) -> list[str]:
    """The real indices behind a kind's alias (empty when the alias does not exist yet)."""
    try:
        return sorted(client.indices.get_alias(name=alias_name(kind)).body)
    except NotFoundError:
        return []


def indices_exist() -> bool:
    client = get_client()
    return all(aliased_indices(client, kind) for kind in KINDS)


def outdated_kinds() -> list[str]:
    """Kinds whose live index was built with another analysis or mapping than this release's
    (search/documents.schema_id), or without PostgreSQL row versions (search/versions.SCHEME):
    they must be rebuilt before searches use the new fields and syncs can trust a 409."""
    client = get_client()
    outdated = []
    for kind in KINDS:
        names = aliased_indices(client, kind)
        mappings = client.indices.get_mapping(index=names).body if names else {}
        metas = [m["mappings"].get("_meta", {}) for m in mappings.values()]
        if any(meta.get("schema") != schema_id(kind) or meta.get("versions") != SCHEME for meta in metas):
            outdated.append(kind)
    return outdated
