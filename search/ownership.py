"""Which site a prefix's indices belong to, so that one site never takes over another's.

Several sites may share one Elasticsearch cluster, each with its own index prefix and user. A
site's name is the Elasticsearch user it connects as (ELASTICSEARCH_URL), or its PostgreSQL
database when the URL names no user (security off). Every index `reindex` builds records that name
in its mapping's `_meta` (`site`), and `reindex` refuses to replace or delete indices another site
built: the same prefix chosen twice fails loudly instead of swapping another site's aliases.
Indices built before this record existed name no site and are taken over by the first `reindex`.
The role's own record (search/security.py) guards `search_security` the same way.
"""

import re

from django.db import connection

from search import conf
from search.nodes import credentials

# What an index prefix may hold: Elasticsearch's index names are lower-case, and the role's patterns
# (search/security.py) are regular expressions, so no character of theirs.
PREFIX_SHAPE = re.compile(r"[a-z0-9][a-z0-9_-]{0,59}")
SITE_KEY = "site"


class OwnedByAnotherSite(Exception):
    """The prefix's indices were built by another site; nothing was changed."""


def prefix_problem(prefix: str) -> str | None:
    """Why `prefix` cannot name a site's indices, or None (pure)."""
    if not prefix:
        return "SEARCH['INDEX_PREFIX'] is not set: every site names its own indices (the default `blog` of older releases is the blog's)"
    if not PREFIX_SHAPE.fullmatch(prefix):
        return f"SEARCH['INDEX_PREFIX'] {prefix!r} must be lower-case letters, digits, '_' and '-', starting with a letter or digit, at most 60"
    return None


def site_name() -> str:
    """This site's name: the Elasticsearch user of ELASTICSEARCH_URL, else its PostgreSQL database."""
    found = credentials(conf.get().elasticsearch.url)
    if found and found[0]:
        return found[0]
    return f"database {connection.settings_dict['NAME']}"


def foreign_indices(metas: dict[str, dict], site: str) -> dict[str, str]:
    """{index: the site that built it} of the indices whose `_meta` names another site (pure).
    `metas` maps index names to their mapping's `_meta`."""
    return {index: meta[SITE_KEY] for index, meta in sorted(metas.items()) if meta.get(SITE_KEY) and meta[SITE_KEY] != site}


def metas_of(client, pattern: str) -> dict[str, dict]:
    """{index: its mapping's `_meta`} of the indices matching `pattern` (none: empty)."""
    mappings = client.indices.get_mapping(index=pattern, allow_no_indices=True, expand_wildcards="open,closed", ignore_unavailable=True).body
    return {index: body.get("mappings", {}).get("_meta", {}) for index, body in mappings.items()}


def ensure_ours(client, kinds) -> None:
    """Raise OwnedByAnotherSite when an index of these kinds (live or left over) names another site."""
    from search.aliases import alias_name

    site = site_name()
    foreign = {}
    for kind in kinds:
        foreign.update(foreign_indices(metas_of(client, f"{alias_name(kind)},{alias_name(kind)}-2*"), site))
    if foreign:
        index, owner = next(iter(foreign.items()))
        raise OwnedByAnotherSite(
            f"the indices of prefix {conf.get().index.prefix!r} belong to another site ({index} was built by {owner!r}; this site is "
            f"{site!r}): choose another SEARCH['INDEX_PREFIX']. If this site's own user was renamed, `reindex --take-over` claims them."
        )
