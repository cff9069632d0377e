"""The benchmark-only views (bench/views.py) are not part of the product: not mounted unless
SEARCH["BASELINE_VIEWS"] is on, and when called they answer like our API."""

import json

import pytest
from django.test import RequestFactory

from bench import views
from search import conf
from tests.factories import make_post

pytestmark = pytest.mark.django_db


def test_not_mounted_by_default(client, settings):
    assert conf.get().serving.baseline_views is False
    for path in ("/api/baseline/multi_match/?q=firefox", "/api/baseline/hello/"):
        assert client.get(path).status_code == 404


@pytest.mark.parametrize("name", ["multi_match", "fuzzy", "postgres"])
def test_baselines_answer_like_our_api(build_index, name):
    make_post("Firefox keyboard shortcuts", "Firefox has shortcuts.")
    build_index()
    query = "firefix" if name == "fuzzy" else "firefox"
    data = json.loads(views.baseline(RequestFactory().get("/", {"q": query}), name).content)
    assert data["total"] == 1 and data["results"][0]["title"] == "Firefox keyboard shortcuts"
    assert json.loads(views.hello(RequestFactory().get("/")).content) == {"hello": "world"}
