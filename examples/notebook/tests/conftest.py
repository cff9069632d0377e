"""The notebook's tests use their own index prefix and delete their indices at the end."""

import contextlib
import os

import pytest
from django.conf import settings
from django.core.cache import cache
from elasticsearch import NotFoundError

from search import conf
from search.client import get_client, reset_client
from search.documents import synonyms_set
from search.process import reset_process_state

PREFIX = f"test-notebook-{os.getpid()}"


@pytest.fixture(scope="session", autouse=True)
def notebook_indices():
    settings.SEARCH = {**settings.SEARCH, "INDEX_PREFIX": PREFIX}
    reset_process_state()
    yield PREFIX
    reset_client()
    client = get_client()
    names = list(client.indices.get(index=f"{PREFIX}-*", allow_no_indices=True, expand_wildcards="all").body)
    if names:
        client.indices.delete(index=",".join(names))
    with contextlib.suppress(NotFoundError):
        client.synonyms.delete_synonym(id=synonyms_set())
    reset_client()


@pytest.fixture(autouse=True)
def fresh_process_state():
    cache.clear()
    reset_process_state()
    assert conf.get().index.prefix == PREFIX
    yield
    cache.clear()
    reset_process_state()
