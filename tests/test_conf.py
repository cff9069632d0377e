"""settings.SEARCH is checked at start-up (search/conf.py): no service needed."""
import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from search import conf


def test_the_shipped_settings_are_right():
    assert conf.problems(settings.SEARCH) == []


def test_a_misspelled_missing_or_mistyped_key_is_named():
    bad = {**settings.SEARCH, "PAGE_SIZ": 20, "CACHE_SECONDS": "300", "DEBUG_TABLE": "everyone", "BASELINE_VIEWS": 1,
           "TIERS": {**settings.SEARCH["TIERS"], "title.fuzzy": 3}}
    del bad["MAX_PAGE"]
    found = conf.problems(bad)
    assert "unknown key 'PAGE_SIZ' (misspelled?)" in found
    assert "missing key 'MAX_PAGE'" in found
    assert "CACHE_SECONDS must be int, not '300'" in found
    assert any(p.startswith("DEBUG_TABLE must be one of") for p in found)
    assert "BASELINE_VIEWS must be bool, not 1" in found
    assert "unknown tier 'title.fuzzy' in TIERS" in found
    with pytest.raises(ImproperlyConfigured, match="PAGE_SIZ"):
        conf.check(bad)
