"""The notebook's tests use search's test helper (docs/adopting.md, step 10): indices of their own
and, with ELASTIC_PASSWORD, an Elasticsearch user of their own with the role `search_security`
gives a site; all deleted at the end."""

import pytest

from search.testing import fresh_state, search_indices


@pytest.fixture(scope="session", autouse=True)
def notebook_indices():
    with search_indices() as prefix:
        yield prefix


@pytest.fixture(autouse=True)
def fresh_process_state():
    fresh_state()
    yield
    fresh_state()
