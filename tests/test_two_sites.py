"""Two sites on one Elasticsearch (issue 51): each with its own index prefix and user, neither
can read, write or take over the other's indices, aliases or role. The session's site (prefix
TEST_PREFIX) is site A; site B's prefix starts with A's alias, `<A>-posts-b`, the name a
wildcard role of A (`<A>-posts-*`) would have reached."""

import contextlib
import os
import secrets

import pytest
from django.core.management import CommandError, call_command
from elasticsearch import AuthorizationException, NotFoundError

from search import conf, ownership, security
from search.aliases import alias_name, aliased_indices
from search.client import get_client
from search.documents import synonyms_set
from search.nodes import with_credentials
from search.sync.rebuild import rebuild
from tests.factories import make_post
from tests.helpers import TEST_PASSWORD, TEST_PREFIX, TEST_USER

PREFIX_B = f"{TEST_PREFIX}-posts-b"
USER_B, PASSWORD_B = f"{TEST_USER}-b", secrets.token_urlsafe(24)


def test_a_prefix_must_be_named_and_plain():
    assert "not set" in ownership.prefix_problem("")
    assert ownership.prefix_problem("mysite") is None and ownership.prefix_problem("test-12_x") is None
    for bad in ("Blog", "a.b", "-a", "a*", "a/b", "x" * 61):
        assert ownership.prefix_problem(bad), bad


def test_the_roles_names_are_exactly_the_prefixs():
    assert security.index_names("a") == ["/a-posts(-[0-9]+)?/", "/a-comments(-[0-9]+)?/"]


def test_an_index_another_site_built_is_found():
    metas = {"a-posts-1": {"site": "a"}, "a-posts-2": {"site": "b"}, "a-posts-3": {}}
    assert ownership.foreign_indices(metas, "a") == {"a-posts-2": "b"}  # one without a record is anyone's


def test_a_role_is_taken_only_from_nobody():
    mine = {"metadata": {"site": "me"}}
    assert security.takeover_problem("r", None, [], "me") is None
    assert security.takeover_problem("r", mine, ["me", "ops"], "me") is None
    assert "another site (user 'me')" in security.takeover_problem("r", mine, ["me"], "you")
    assert "held by another site's user (me)" in security.takeover_problem("r", {"metadata": {}}, ["me"], "you")
    assert security.takeover_problem("r", {"metadata": {}}, [], "you") is None


@pytest.fixture
def two_sites(settings, es_admin, build_index):
    """Site A's indices (the session's), then site B's, built by B as B; the settings are A's again."""
    make_post("Firefox extension", "Writing one")
    build_index()
    security.grant(es_admin, prefixes=[PREFIX_B], user=USER_B, password=PASSWORD_B)
    site_a = dict(settings.SEARCH), dict(settings.ELASTICSEARCH)
    as_site_b(settings)
    try:
        rebuild()
        client_b = get_client()
        assert aliased_indices(client_b, "posts")
    finally:
        settings.SEARCH, settings.ELASTICSEARCH = site_a
    yield client_b
    names = list(es_admin.indices.get(index=f"{PREFIX_B}-*", allow_no_indices=True, expand_wildcards="all").body)
    if names:
        es_admin.indices.delete(index=",".join(names))
    es_admin.options(ignore_status=404).security.delete_user(username=USER_B)
    es_admin.options(ignore_status=404).security.delete_role(name=security.role_name(PREFIX_B))
    with contextlib.suppress(NotFoundError):
        es_admin.synonyms.delete_synonym(id=f"{PREFIX_B}-synonyms")


def as_site_b(settings, prefix: str = PREFIX_B) -> None:
    settings.SEARCH = {**settings.SEARCH, "INDEX_PREFIX": prefix}
    settings.ELASTICSEARCH = {**settings.ELASTICSEARCH, "URL": with_credentials(conf.get().elasticsearch.url, USER_B, PASSWORD_B)}


def reaches(client, prefix: str, index: str) -> list:
    """What one site may try on the other's names (`index`: the one behind its posts' alias); each must be refused."""
    alias, role = f"{prefix}-posts", security.role_name(prefix)
    return [
        lambda: client.search(index=alias),
        lambda: client.get(index=alias, id="1"),
        lambda: client.index(index=alias, id="99", document={"title": "mine now"}),
        lambda: client.indices.delete(index=index),
        lambda: client.indices.put_settings(index=index, settings={"index.blocks.write": True}),
        lambda: client.indices.get_mapping(index=alias),
        lambda: client.indices.create(index=f"{alias}-20990101000000000000"),
        lambda: client.indices.update_aliases(actions=[{"remove": {"index": index, "alias": alias}}]),
        lambda: client.security.put_role(name=role, cluster=["all"]),
    ]


def test_two_sites_cannot_reach_each_others_indices_aliases_or_role(two_sites, es):
    client_b, client_a = two_sites, es
    mine_b = [name for name in client_b.indices.get_alias(name=f"{PREFIX_B}-posts").body]
    mine_a = aliased_indices(client_a, "posts")
    for client, other, index in ((client_b, TEST_PREFIX, mine_a[0]), (client_a, PREFIX_B, mine_b[0])):
        for call in reaches(client, other, index):
            with pytest.raises(AuthorizationException):
                call()
    # Neither site's alias may be pointed at the other's index.
    with pytest.raises(AuthorizationException):
        client_b.indices.update_aliases(actions=[{"add": {"index": mine_b[0], "alias": alias_name("posts")}}])
    with pytest.raises(AuthorizationException):
        client_a.indices.update_aliases(actions=[{"add": {"index": mine_a[0], "alias": f"{PREFIX_B}-posts"}}])
    # A search over everything finds each site's own documents only.
    for client, prefix in ((client_a, TEST_PREFIX), (client_b, PREFIX_B)):
        hits = client.search(index="*", query={"match_all": {}})["hits"]["hits"]
        assert hits and {h["_index"].rsplit("-", 1)[0] for h in hits} <= {f"{prefix}-posts", f"{prefix}-comments"}


def test_search_security_refuses_another_sites_prefix(two_sites, settings, es_admin, monkeypatch):
    as_site_b(settings)
    monkeypatch.setenv("ELASTIC_PASSWORD", os.environ["ELASTIC_PASSWORD"])
    with pytest.raises(CommandError, match=r"belongs to another site \(user '" + TEST_USER):
        call_command("search_security", "--prefix", TEST_PREFIX)
    role = es_admin.security.get_role(name=security.role_name(TEST_PREFIX))[security.role_name(TEST_PREFIX)]
    assert role["metadata"]["site"] == TEST_USER
    assert USER_B not in es_admin.security.get_user(username=TEST_USER).body  # still A's alone
    assert es_admin.security.get_user(username=USER_B)[USER_B]["roles"] == [security.role_name(PREFIX_B)]
    call_command("search_security")  # its own prefix: written again, idempotent


def test_reindex_refuses_to_take_over_another_sites_aliases(two_sites, settings, es_admin):
    """A user that holds A's role by mistake, whose site names A's prefix, still cannot replace
    A's indices: they record the site that built them."""
    live_a = aliased_indices(es_admin, "posts")
    intruder, password = f"{TEST_USER}-c", secrets.token_urlsafe(24)
    es_admin.security.put_user(username=intruder, password=password, roles=[security.role_name(TEST_PREFIX)])
    try:
        settings.ELASTICSEARCH = {**settings.ELASTICSEARCH, "URL": with_credentials(conf.get().elasticsearch.url, intruder, password)}
        for args in ((), ("--if-missing",)):
            with pytest.raises(CommandError, match=f"belong to another site .*built by '{TEST_USER}'"):
                call_command("reindex", "--no-progress", *args)
        assert aliased_indices(es_admin, "posts") == live_a
    finally:
        es_admin.security.delete_user(username=intruder)
    settings.ELASTICSEARCH = {**settings.ELASTICSEARCH, "URL": with_credentials(conf.get().elasticsearch.url, TEST_USER, TEST_PASSWORD)}
    call_command("reindex", "--no-progress")  # A's own reindex replaces them
    assert aliased_indices(es_admin, "posts") != live_a
    meta = es_admin.indices.get_mapping(index=alias_name("posts")).body
    assert [m["mappings"]["_meta"]["site"] for m in meta.values()] == [TEST_USER]
    assert synonyms_set() == f"{TEST_PREFIX}-synonyms"


def test_check_fails_until_a_site_names_its_prefix(settings):
    from search.checks import elasticsearch_url_names_the_sites_user, index_prefix_is_the_sites

    settings.SEARCH = {**settings.SEARCH, "INDEX_PREFIX": ""}
    (error,) = index_prefix_is_the_sites()
    assert error.id == "search.E009" and "INDEX_PREFIX" in error.msg and "mysite" in error.hint
    settings.SEARCH = {**settings.SEARCH, "INDEX_PREFIX": "mysite"}
    assert index_prefix_is_the_sites() == []
    settings.ELASTICSEARCH = {**settings.ELASTICSEARCH, "URL": "http://127.0.0.1:9200"}
    (warning,) = elasticsearch_url_names_the_sites_user()
    assert warning.id == "search.W002" and "names no user" in warning.msg
