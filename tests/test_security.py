"""Least privilege in Elasticsearch (issue 38.4): the node refuses a request without credentials,
and the site's user, whose role `manage.py search_security` writes, reaches its own indices and
nothing else. The rest of the suite runs as such a user (tests/conftest.py), which shows the role
is enough for everything the product does."""

import io
import os
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest
from django.core.management import CommandError, call_command
from elasticsearch import AuthenticationException, AuthorizationException, Elasticsearch

from search import conf, security
from search.aliases import alias_name
from search.nodes import credentials, node_urls, safe_url, with_credentials
from tests.factories import make_post
from tests.helpers import TEST_PASSWORD, TEST_PREFIX, TEST_USER


def test_the_role_names_only_the_prefixs_aliases_and_their_indices():
    body = security.role("blog", site="blogsearch")
    (grant,) = body["indices"]
    assert grant["names"] == ["/blog-posts(-[0-9]+)?/", "/blog-comments(-[0-9]+)?/"]
    assert body["metadata"]["site"] == "blogsearch"
    assert not grant["allow_restricted_indices"]
    assert set(grant["privileges"]) == {"read", "write", "manage"}
    # No cluster-wide administration, not even `monitor` (every index's settings and mappings).
    assert not {"all", "manage", "monitor", "manage_security"} & set(body["cluster"])


def test_urls_carry_credentials_and_never_show_them():
    url = with_credentials("http://a:9200, https://old:secret@b:9201/", "site", "p@ss:w/rd")
    assert credentials(url) == ("site", "p@ss:w/rd")
    assert safe_url(url) == "http://a:9200,https://b:9201/" and "secret" not in url
    assert credentials("http://a:9200") is None


@pytest.mark.services
def test_a_request_without_credentials_is_refused(search_test_prefix):
    base = safe_url(node_urls(conf.get().elasticsearch.url)[0]).rstrip("/")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{base}/{alias_name('posts')}/_search", timeout=10)
    assert refused.value.code == 401
    anonymous = Elasticsearch(safe_url(conf.get().elasticsearch.url).split(","), request_timeout=10)
    with pytest.raises(AuthenticationException):
        anonymous.cluster.health()
    wrong = Elasticsearch(with_credentials(conf.get().elasticsearch.url, TEST_USER, "not-the-password").split(","), request_timeout=10)
    with pytest.raises(AuthenticationException):
        wrong.search(index=alias_name("posts"))


def test_the_sites_user_works_on_its_indices_and_cannot_touch_another(es, es_admin, build_index):
    make_post("Firefox extension")
    build_index()
    assert es.search(index=alias_name("posts"), query={"match": {"title": "firefox"}})["hits"]["total"]["value"] == 1
    other = f"{TEST_PREFIX}-other"  # the session's name space, yet none of the site's names
    es_admin.index(index=other, id="1", document={"title": "someone else's"}, refresh=True)
    try:
        forbidden = [
            lambda: es.search(index=other),
            lambda: es.get(index=other, id="1"),
            lambda: es.index(index=other, id="2", document={"title": "mine now"}),
            lambda: es.delete(index=other, id="1"),
            lambda: es.indices.delete(index=other),
            lambda: es.indices.put_settings(index=other, settings={"index.blocks.write": True}),
            lambda: es.indices.update_aliases(actions=[{"add": {"index": other, "alias": alias_name("posts")}}]),
            lambda: es.indices.create(index=f"{TEST_PREFIX}-another"),
            lambda: es.cluster.put_settings(persistent={"cluster.routing.allocation.enable": "none"}),
            lambda: es.nodes.stats(),
            lambda: es.security.put_user(username=f"{TEST_USER}-mine", password="x" * 12, roles=["superuser"]),
        ]
        for call in forbidden:
            with pytest.raises(AuthorizationException):
                call()
        # A search over everything finds only the site's own documents.
        hits = es.search(index="*", query={"match_all": {}})["hits"]["hits"]
        assert hits and {h["_index"].rsplit("-", 1)[0] for h in hits} <= {alias_name("posts"), alias_name("comments")}
        assert es_admin.get(index=other, id="1")["_source"] == {"title": "someone else's"}
    finally:
        es_admin.indices.delete(index=other)


@pytest.mark.services
def test_the_command_creates_the_sites_role_and_user_idempotently(settings, es_admin, monkeypatch, search_test_prefix):
    user, password, prefix = f"{TEST_USER}-cmd", "a-site-password-0123", f"{TEST_PREFIX}-cmd"
    settings.ELASTICSEARCH = {**settings.ELASTICSEARCH, "URL": with_credentials(conf.get().elasticsearch.url, user, password)}
    monkeypatch.setenv("ELASTIC_PASSWORD", _admin_password())
    out = io.StringIO()
    try:
        for _ in range(2):
            call_command("search_security", "--prefix", prefix, stdout=out)
        as_site = Elasticsearch(node_urls(conf.get().elasticsearch.url), request_timeout=10)
        assert as_site.security.authenticate()["roles"] == [security.role_name(prefix)]
        assert as_site.cluster.health()["status"] in ("green", "yellow")
        assert password not in out.getvalue() and _admin_password() not in out.getvalue()
        # The session's role is another user's: taken only when asked (that user was this site's).
        with pytest.raises(CommandError, match="belongs to another site"):
            call_command("search_security", stdout=out)
    finally:
        es_admin.options(ignore_status=404).security.delete_user(username=user)
        es_admin.options(ignore_status=404).security.delete_role(name=security.role_name(prefix))
    assert es_admin.security.get_role(name=security.role_name(TEST_PREFIX))  # the session's role stays


@pytest.mark.services
def test_the_command_refuses_a_url_without_the_sites_user(settings, monkeypatch, search_test_prefix):
    monkeypatch.setenv("ELASTIC_PASSWORD", _admin_password())
    settings.ELASTICSEARCH = {**settings.ELASTICSEARCH, "URL": safe_url(conf.get().elasticsearch.url)}
    with pytest.raises(CommandError, match="names no user"):
        call_command("search_security")
    settings.ELASTICSEARCH = {**settings.ELASTICSEARCH, "URL": with_credentials(conf.get().elasticsearch.url, "elastic", TEST_PASSWORD)}
    with pytest.raises(CommandError, match="superuser"):
        call_command("search_security")
    monkeypatch.delenv("ELASTIC_PASSWORD")
    with pytest.raises(CommandError, match="ELASTIC_PASSWORD"):
        call_command("search_security")


def _admin_password() -> str:
    return os.environ["ELASTIC_PASSWORD"]


def test_the_url_shown_keeps_only_scheme_host_and_port():
    assert urlsplit(safe_url(with_credentials("http://h:1", "u", "p"))).netloc == "h:1"
