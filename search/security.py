"""Least privilege in Elasticsearch: the role the site connects with, and granting it (pure data
and two calls; `manage.py search_security` runs them with the superuser's credentials).

Everything search does, a reader's search, the syncs after commits, `search_sync`, `reindex`,
`search_check`, the dictionary, the synonyms and /healthz, goes through the one user
ELASTICSEARCH_URL names. Its role reaches the prefix's aliases and the indices behind them, and
of the cluster only what those calls need, so a leaked site password cannot read, write or
delete another application's index, change cluster settings or create users. The superuser's
password is used only to write this role and user, never by the running site.

The calls and what grants them (docs/operations.md#security lists them too):

- `read` on the prefix's indices: searches and their aggregations (the dictionary's terms),
  `mget`, `mtermvectors`, scroll (search_check, the audit, reconciling after a rebuild).
- `write`: bulk index and delete (the outbox, rebuilds, repairs).
- `manage`: create and delete the timestamped indices, swap the aliases, settings (refresh
  interval), refresh, mappings (`_meta`), `_analyze`, reloading the search analyzers and clearing
  the field data cache after the dictionary is read. Only on the prefix's names.
- cluster `cluster:monitor/health` (/healthz, `reindex` waiting for green) and
  `cluster:monitor/main` (ping): two actions rather than `monitor`, which would show every
  index's settings, mappings and statistics.
- cluster `manage_search_synonyms`: the blog's synonyms set. Elasticsearch 8.19 has no privilege
  per set, so this one reaches every synonyms set of the cluster (not any index's documents).
"""

from dataclasses import replace

from elasticsearch import Elasticsearch

from search import conf
from search.client import make_client
from search.documents import KINDS
from search.nodes import with_credentials

CLUSTER_PRIVILEGES = ("cluster:monitor/health", "cluster:monitor/main", "manage_search_synonyms")
INDEX_PRIVILEGES = ("read", "write", "manage")
MANAGED_BY = "django-typo-search"


def role_name(prefix: str) -> str:
    return f"{prefix}-search"


def index_names(prefix: str) -> list[str]:
    """Each kind's alias and the indices built for it (`<alias>-<timestamp>`), no other name: a
    regular expression, so that prefix `a` never reaches the indices of a site whose prefix is
    `a-posts-x` (a wildcard `a-posts-*` would). Prefixes hold no regex character (search/ownership.py)."""
    return [f"/{prefix}-{kind}(-[0-9]+)?/" for kind in KINDS]


def role(prefix: str, site: str = "") -> dict:
    """The body of PUT _security/role/<role_name(prefix)>; `site` is the user it is made for."""
    return {
        "cluster": list(CLUSTER_PRIVILEGES),
        "indices": [{"names": index_names(prefix), "privileges": list(INDEX_PRIVILEGES), "allow_restricted_indices": False}],
        "metadata": {"managed_by": MANAGED_BY, "index_prefix": prefix, "site": site},
    }


def takeover_problem(name: str, existing: dict | None, holders: list[str], user: str) -> str | None:
    """Why writing the role `name` for `user` would take it from another site, or None (pure).
    `existing` is the role as Elasticsearch holds it (None: there is none), `holders` the users
    that have it. A role records the user it was made for; an older one without that record
    belongs to whoever holds it."""
    if existing is None:
        return None
    owner = (existing.get("metadata") or {}).get("site")
    if owner and owner != user:
        return f"the role {name} belongs to another site (user {owner!r})"
    others = sorted(set(holders) - {user})
    if not owner and others:
        return f"the role {name} is held by another site's user ({', '.join(others)})"
    return None


def takeover_problems(admin, *, prefixes: list[str], user: str) -> list[str]:
    """takeover_problem() of each prefix's role, asked of Elasticsearch with the superuser's client."""
    roles = {role_name(prefix) for prefix in prefixes}
    existing = admin.options(ignore_status=404).security.get_role(name=",".join(sorted(roles))).body
    existing = {name: body for name, body in existing.items() if name in roles}  # a 404 answers {}
    users = admin.security.get_user().body if existing else {}
    problems = []
    for name in sorted(roles):
        holders = [login for login, body in users.items() if name in body.get("roles", [])]
        problem = takeover_problem(name, existing.get(name), holders, user)
        if problem:
            problems.append(problem)
    return problems


def admin_client(user: str, password: str, *, timeout: float = 30.0) -> Elasticsearch:
    """A client for the nodes of ELASTICSEARCH_URL as another user (the superuser), whatever user
    the URL names; its own connections, a timeout for administration rather than readers."""
    options = conf.get().elasticsearch
    return make_client(replace(options, url=with_credentials(options.url, user, password), timeout=timeout))


def grant(admin, *, prefixes: list[str], user: str, password: str) -> list[str]:
    """Create or update a role per prefix and the user with exactly those roles (idempotent: both
    are PUT, the password is set again). `admin` is a client with the superuser's credentials.
    Returns the roles' names."""
    roles = [role_name(prefix) for prefix in prefixes]
    for prefix, name in zip(prefixes, roles, strict=True):
        admin.security.put_role(name=name, **role(prefix, site=user))
    admin.security.put_user(username=user, password=password, roles=roles, metadata={"managed_by": MANAGED_BY})
    return roles


def revoke(admin, *, prefixes: list[str], user: str) -> None:
    """Delete the user and its roles (the tests' own user, at the end of a session)."""
    admin.options(ignore_status=404).security.delete_user(username=user)
    for prefix in prefixes:
        admin.options(ignore_status=404).security.delete_role(name=role_name(prefix))
