"""The notebook's tests use their own index prefix and Elasticsearch user (with the role
`manage.py search_security` gives a site of that prefix, made as the superuser, ELASTIC_PASSWORD),
and delete both and their indices at the end."""

import contextlib
import os
import secrets

import pytest
from django.conf import settings
from django.core.cache import cache
from elasticsearch import NotFoundError

from search import conf, security
from search.client import reset_client
from search.documents import synonyms_set
from search.nodes import with_credentials
from search.process import reset_process_state

PREFIX = f"test-notebook-{os.getpid()}"
PASSWORD = secrets.token_urlsafe(24)


@pytest.fixture(scope="session", autouse=True)
def notebook_indices():
    settings.SEARCH = {**settings.SEARCH, "INDEX_PREFIX": PREFIX}
    reset_process_state()
    superuser = security.admin_client(os.environ.get("ELASTIC_USER", "elastic"), os.environ["ELASTIC_PASSWORD"])
    security.grant(superuser, prefixes=[PREFIX], user=PREFIX, password=PASSWORD)
    settings.ELASTICSEARCH = {**settings.ELASTICSEARCH, "URL": with_credentials(conf.get().elasticsearch.url, PREFIX, PASSWORD)}
    reset_process_state()
    yield PREFIX
    reset_client()
    names = list(superuser.indices.get(index=f"{PREFIX}-*", allow_no_indices=True, expand_wildcards="all").body)
    if names:
        superuser.indices.delete(index=",".join(names))
    with contextlib.suppress(NotFoundError):
        superuser.synonyms.delete_synonym(id=synonyms_set())
    security.revoke(superuser, prefixes=[PREFIX], user=PREFIX)
    reset_client()


@pytest.fixture(autouse=True)
def fresh_process_state():
    cache.clear()
    reset_process_state()
    assert conf.get().index.prefix == PREFIX
    yield
    cache.clear()
    reset_process_state()
