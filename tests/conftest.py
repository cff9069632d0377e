"""Fixtures for tests against the real services: the dev scripts' PostgreSQL and Elasticsearch.

Tests use their own index prefix (test-<pid>), so they never touch the dev site's indices, and
delete their indices at the end of the session.

Tests that use the services (the database, Elasticsearch, a live server) are marked `services`
at collection, and only they wait for Elasticsearch: `pytest -m "not services"` runs the pure
tests in seconds with no service running.
"""

import contextlib
import os

import pytest
from django.conf import settings
from django.core.cache import cache
from elasticsearch import NotFoundError

from search import conf, security
from search.client import get_client, reset_client
from search.documents import synonyms_set
from search.nodes import with_credentials
from search.process import reset_process_state
from tests.helpers import SHIPPED_SEARCH_TIMEOUT, TEST_PASSWORD, TEST_PREFIX, TEST_SEARCH_TIMEOUT, TEST_USER, admin

# The Playwright fixtures (browser, page, site) for the browser tests.
pytest_plugins = ["tests.browser_support"]

SERVICE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_setup",
    "live_server",
    "es",
    "es_admin",
    "build_index",
    "es_down",
    "es_black_hole",
    "client",
    "admin_client",
    "site",
    "page",
    "browser",
}


def pytest_collection_modifyitems(items):
    for item in items:
        if item.get_closest_marker("django_db") or SERVICE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.services)


@pytest.fixture(autouse=True)
def _services_for_service_tests(request):
    """Service tests get the session's Elasticsearch check and index prefix; pure tests never wait."""
    if request.node.get_closest_marker("services"):
        request.getfixturevalue("search_test_prefix")
        # Never the site's indices, whatever an earlier test's fixtures did to the settings.
        assert conf.get().index.prefix == TEST_PREFIX, f"tests would use the indices of prefix {conf.get().index.prefix!r}"


@pytest.fixture(scope="session", autouse=True)
def test_indices_never_the_sites():
    """Every test names its indices with TEST_PREFIX, set once before any test runs (no I/O).

    Set here, not lazily by the first service test: pytest-django's live server lays its own
    settings over the real ones for each test and removes them afterwards, and a prefix set while
    that overlay was on went with it. When the first service test of a run was a browser test,
    every later test built, and deleted, the dev site's own `blog-*` indices.

    The same goes for the session's own Elasticsearch user (created by search_test_prefix): the
    nodes of ELASTICSEARCH_URL with its name and password, here and for child processes."""
    settings.SEARCH = {**settings.SEARCH, "INDEX_PREFIX": TEST_PREFIX}
    url = with_credentials(conf.get().elasticsearch.url, TEST_USER, TEST_PASSWORD)
    settings.ELASTICSEARCH = {"TIMEOUT": TEST_SEARCH_TIMEOUT, **settings.ELASTICSEARCH, "URL": url}
    os.environ["ELASTICSEARCH_URL"] = url
    reset_process_state()  # the settings object and everything built from it


@pytest.fixture(scope="session")
def search_test_prefix(test_indices_never_the_sites):
    """The session's prefix, and its user with the site's role for it (made as the superuser)."""
    assert conf.get().index.prefix == TEST_PREFIX, "the test prefix was lost (tests/conftest.py)"
    shown = conf.get().elasticsearch  # its repr never shows the credentials
    try:
        superuser = admin()
        security.grant(superuser, prefixes=[TEST_PREFIX], user=TEST_USER, password=TEST_PASSWORD)
    except Exception as exc:  # noqa: BLE001 - any failure ends the session with the reason
        pytest.exit(f"Elasticsearch at {shown!r} cannot make the tests' user ({exc}): run `make services` (make test does it for you)", returncode=3)
    if not get_client().ping():
        pytest.exit(f"Elasticsearch is not answering at {shown!r}: run `make services` (make test does it for you)", returncode=3)
    yield TEST_PREFIX
    reset_client()
    names = list(superuser.indices.get(index=f"{TEST_PREFIX}-*", allow_no_indices=True, expand_wildcards="all").body)
    if names:  # deletes by name: the node refuses wildcard deletes (action.destructive_requires_name)
        superuser.indices.delete(index=",".join(names))
    with contextlib.suppress(NotFoundError):  # the tests' synonyms set, once no index reads it
        superuser.synonyms.delete_synonym(id=synonyms_set())
    security.revoke(superuser, prefixes=[TEST_PREFIX], user=TEST_USER)
    reset_client()


@pytest.fixture(autouse=True)
def fresh_process_state():
    """Every test starts as a new process would: no breaker open, no vocabulary or generation of
    another test's database, no LISTEN connection (it would keep the test database busy). The
    modules registered in search.process are imported first, so none is missed."""
    import search.querying.service  # noqa: F401
    import search.sync.outbox  # noqa: F401

    cache.clear()
    reset_process_state()
    yield
    cache.clear()
    reset_process_state()


@pytest.fixture(scope="session", autouse=True)
def insights_buffer_writes_only_when_asked():
    """The search log's writer thread never flushes on its own during tests: a test that wants
    rows in the database calls insights.buffer.buffer.flush() on its own connection (and so its
    own transaction); tests of the thread itself lower these for their duration."""
    from insights import conf as insights_conf

    settings.INSIGHTS = {**settings.INSIGHTS, "FLUSH_SECONDS": 3600, "BATCH_SIZE": 10**9}
    insights_conf.reload()  # a plain assignment sends no setting_changed


@pytest.fixture(autouse=True)
def empty_insights_buffer():
    from insights.buffer import buffer

    buffer.clear()
    yield
    buffer.clear()


@pytest.fixture
def es():
    """The product's client: the session's user, with the site's role."""
    return get_client()


@pytest.fixture
def es_admin():
    """The superuser's client, for what an operator does (tests/helpers.py admin())."""
    return admin()


@pytest.fixture
def build_index(db):
    """Call to (re)build the test indices from what the test put in the database."""
    from search.sync.rebuild import rebuild

    def build(**kwargs):
        return rebuild(**kwargs)

    return build


@pytest.fixture
def poison(monkeypatch):
    """Documents of posts titled "Poison ..." violate the mapping (a date field gets a word)."""
    from search.sync import indexing

    real = indexing.post_to_doc

    def post_to_doc(post):
        doc = real(post)
        if post.title.startswith("Poison"):
            doc["pub_date"] = "not a date"
        return doc

    monkeypatch.setattr(indexing, "post_to_doc", post_to_doc)


@pytest.fixture
def live(build_index, django_capture_on_commit_callbacks):
    """Aliases exist; returns a context manager that runs on_commit hooks like a real commit."""
    build_index()
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def es_down(settings):
    """Point the client at a closed loopback port: Elasticsearch unreachable."""
    original = dict(settings.ELASTICSEARCH)
    settings.ELASTICSEARCH = {**original, "URL": "http://127.0.0.1:9", "TIMEOUT": 0.5}
    reset_client()
    yield
    settings.ELASTICSEARCH = original
    reset_client()


@pytest.fixture
def black_hole():
    """A loopback server that accepts connections and never answers: (port, accepted connections)."""
    import socket
    import threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    held = []
    stop = threading.Event()

    def accept():
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield listener.getsockname()[1], held
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    listener.close()


@pytest.fixture
def es_black_hole(settings, black_hole):
    """Elasticsearch "slow": it accepts connections and never answers."""
    original = dict(settings.ELASTICSEARCH)
    settings.ELASTICSEARCH = {**original, "URL": f"http://127.0.0.1:{black_hole[0]}", "TIMEOUT": SHIPPED_SEARCH_TIMEOUT}
    reset_client()
    yield
    settings.ELASTICSEARCH = original
    reset_client()


@pytest.fixture
def offline(settings, monkeypatch):
    """The search service without its site state: no result cache; the word cache in local
    memory; the generation without PostgreSQL; no dictionary (as before the first `reindex`); no
    synonym rule. For tests that give search() a client of their own (test_service_plan.py)."""
    from search import generation, synonyms, vocabulary

    settings.SEARCH = {**settings.SEARCH, "CACHE_SECONDS": 0, "WORD_CACHE_SECONDS": 60}
    monkeypatch.setattr(generation, "latest", lambda: 7)  # never PostgreSQL (not even the listener)
    monkeypatch.setattr(vocabulary, "current", lambda gen: None)
    monkeypatch.setattr(synonyms, "current", lambda gen: ())
