"""The typed settings object (search/conf.py): one value per tunable, checked at start-up, documented.
No service needed."""

import dataclasses
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from search import conf
from search.querying import suggestions

ROOT = Path(__file__).resolve().parent.parent


def test_overrides_become_typed_attributes():
    built = conf.build({"PAGE_SIZE": 20, "INDEX_PREFIX": "other", "OUTBOX_RETRY_SECONDS": 3, "TYPO_COSTS": {"first_letter": 0.25}, "SUGGESTER": {"size": 5}})
    assert built.serving.page_size == 20 and built.index.prefix == "other"
    assert built.sync.outbox_retry_seconds == 3.0 and isinstance(built.sync.outbox_retry_seconds, float)
    assert built.ranking.typo_costs.first_letter == 0.25 and built.ranking.typo_costs.substitute == 1.0
    assert built.ranking.suggester.as_dict()["size"] == 5 and built.ranking.suggester.max_edits == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.serving.page_size = 3  # read once, never changed behind a reader's back


def test_a_misspelled_or_mistyped_key_is_named():
    bad = {
        "PAGE_SIZ": 20,
        "CACHE_SECONDS": "300",
        "DEBUG_TABLE": "everyone",
        "BASELINE_VIEWS": 1,
        "TIERS": {**conf.TIERS, "title.fuzzy": 3},
        "TYPO_COSTS": {"first_leter": 0.2},
    }
    with pytest.raises(ImproperlyConfigured) as raised:
        conf.build(bad)
    message = str(raised.value)
    for expected in (
        "unknown key 'PAGE_SIZ' (misspelled?)",
        "CACHE_SECONDS must be int, not '300'",
        "DEBUG_TABLE must be one of",
        "BASELINE_VIEWS must be bool, not 1",
        "unknown tier 'title.fuzzy' in TIERS",
        "TYPO_COSTS has unknown names ['first_leter']",
    ):
        assert expected in message


def test_every_tunable_has_one_value_the_one_the_site_runs():
    """The pure code's defaults are the settings' defaults (once a typo model was tested at a
    first-letter cost of 0.3 while the site ran 0.1)."""
    assert suggestions.COSTS == conf.get().ranking.typo_costs == conf.TypoCosts()
    assert conf.build({}) == conf.SearchSettings()


def test_the_environment_sets_only_what_it_names():
    assert conf.overrides_from_environment({}, debug=False) == {}
    assert conf.overrides_from_environment({}, debug=True) == {"DEBUG_TABLE": "all"}
    found = conf.overrides_from_environment(
        {"SEARCH_INDEX_PREFIX": "x", "SEARCH_CACHE_SECONDS": "0", "SEARCH_GENERATION_LISTEN": "off", "UNRELATED": "1"}, debug=False
    )
    assert found == {"INDEX_PREFIX": "x", "CACHE_SECONDS": 0, "GENERATION_LISTEN": False}


def test_the_connection_and_the_search_log_are_typed_too():
    """ELASTICSEARCH holds overrides of its own group, checked like SEARCH's; the blog's search log
    types INSIGHTS the same way, in its own app (insights/conf.py)."""
    from insights import conf as insights_conf

    built = conf.build({}, elasticsearch={"URL": "http://a:9200,http://b:9200", "TIMEOUT": 2, "RETRY_ON_STATUS": [502]})
    assert built.elasticsearch.url == "http://a:9200,http://b:9200" and built.elasticsearch.timeout == 2.0
    assert built.elasticsearch.retry_on_status == (502,) and built.elasticsearch.max_retries == -1
    logged = insights_conf.build({"ENABLED": False})
    assert logged.enabled is False and logged.retention_days == 90
    with pytest.raises(ImproperlyConfigured) as raised:
        conf.build({"TIMEOUT": 2.0}, elasticsearch={"TIMOUT": 2.0})
    message = str(raised.value)
    assert "settings.SEARCH: unknown key 'TIMEOUT'" in message  # a connection key in the wrong dict
    assert "settings.ELASTICSEARCH: unknown key 'TIMOUT'" in message
    with pytest.raises(ImproperlyConfigured, match="settings.INSIGHTS: ENABLED must be bool, not 'no'"):
        insights_conf.build({"ENABLED": "no"})
    with pytest.raises(ImproperlyConfigured) as raised:
        conf.build({"BLOCKED_RETRY_DELAYS": ("1",)}, elasticsearch={"RETRY_ON_STATUS": ["503"], "MAX_RETRIES": -5})
    message = str(raised.value)
    assert "RETRY_ON_STATUS must be a list of int, not ['503']" in message  # would never match a status
    assert "BLOCKED_RETRY_DELAYS must be a list of float" in message and "MAX_RETRIES must be at least -1, not -5" in message
    environ = {"ELASTICSEARCH_URL": "http://es:9200", "ELASTICSEARCH_MAX_RETRIES": "0", "INSIGHTS_ENABLED": "0", "SEARCH_PAGE_FACETS": "0"}
    assert conf.overrides_from_environment(environ, source="ELASTICSEARCH") == {"URL": "http://es:9200", "MAX_RETRIES": 0}
    assert insights_conf.from_environment(environ) == {"ENABLED": False}
    assert conf.overrides_from_environment(environ) == {"PAGE_FACETS": False}


def test_setting_changed_rebuilds_the_object(settings):
    settings.SEARCH = {**settings.SEARCH, "PAGE_SIZE": 7}
    assert conf.get().serving.page_size == 7
    settings.ELASTICSEARCH = {**settings.ELASTICSEARCH, "TIMEOUT": 4.5}
    settings.INSIGHTS = {**settings.INSIGHTS, "REPORT_ROWS": 3}
    from insights import conf as insights_conf

    assert conf.get().elasticsearch.timeout == 4.5 and insights_conf.get().report_rows == 3


def test_a_new_connection_setting_makes_a_new_client(settings):
    from search.client import get_client

    before = get_client()
    settings.ELASTICSEARCH = {**settings.ELASTICSEARCH, "TIMEOUT": 4.5}
    assert get_client() is not before  # no network I/O: the client connects lazily


def test_the_documented_table_is_the_object():
    """docs/configuration.md holds the table rendered from the classes: regenerate it with
    `python -m search.conf > ...` (see the file) when a tunable changes."""
    text = (ROOT / "docs" / "configuration.md").read_text()
    assert conf.documented_table() in text


def test_the_connection_settings_never_show_credentials():
    """Error pages and reports show a frame's locals: the settings object is one of them."""
    shown = repr(conf.build({}, elasticsearch={"URL": "http://elastic:hunter2@es:9200"}).elasticsearch)
    assert "hunter2" not in shown and "http://es:9200" in shown and "timeout=1.0" in shown


def test_override_sends_each_key_to_its_setting(settings):
    settings.SEARCH, settings.ELASTICSEARCH = {}, {}
    from search.client import get_client

    before = get_client()
    built = conf.override(PAGE_SIZE=4, TIMEOUT=2.5)
    assert (built.serving.page_size, built.elasticsearch.timeout) == (4, 2.5)
    assert (settings.SEARCH, settings.ELASTICSEARCH) == ({"PAGE_SIZE": 4}, {"TIMEOUT": 2.5})
    assert get_client() is not before  # the connection setting reached the client


def test_the_tests_of_the_timeout_use_the_shipped_one():
    from tests.helpers import SHIPPED_SEARCH_TIMEOUT

    assert conf.ElasticsearchSettings().timeout == SHIPPED_SEARCH_TIMEOUT
