"""The blog's public pages: only published posts and approved comments, search box everywhere."""

import pytest
from django.urls import reverse

from tests.factories import make_comment, make_post

pytestmark = pytest.mark.django_db


def test_home_lists_visible_posts_only(client):
    make_post("Visible post")
    make_post("Draft post", published=False)
    make_post("Future post", days_ago=-3)
    html = client.get("/").content.decode()
    assert "Visible post" in html
    assert "Draft post" not in html and "Future post" not in html
    assert 'name="q"' in html and 'role="search"' in html


def test_home_is_paginated(client):
    for i in range(25):
        make_post(f"Post number {i}", days_ago=i + 1)
    first = client.get("/").content.decode()
    second = client.get("/?page=2").content.decode()
    assert "Post number 0" in first and "Post number 24" not in first
    assert "Post number 24" in second
    assert client.get("/?page=banana").status_code == 200  # falls back to page 1


def test_post_page_shows_approved_comments_with_anchors(client):
    post = make_post("A post with comments", "Some body text")
    good = make_comment(post, "A thoughtful comment")
    reply = make_comment(post, "A reply to it", parent=good)
    make_comment(post, "Spam spam spam", approved=False)
    response = client.get(post.get_absolute_url())
    html = response.content.decode()
    assert response.status_code == 200
    assert f'id="comment-{good.pk}"' in html and f'id="comment-{reply.pk}"' in html
    assert "A thoughtful comment" in html and "Spam spam spam" not in html
    assert html.index("A thoughtful comment") < html.index("A reply to it")
    assert "depth-1" in html
    assert 'name="q"' in html


@pytest.mark.parametrize("kwargs", [{"published": False}, {"days_ago": -2}])
def test_hidden_posts_are_404(client, kwargs):
    post = make_post("Hidden", **kwargs)
    assert client.get(post.get_absolute_url()).status_code == 404


def test_search_page_has_the_search_box(client):
    html = client.get(reverse("search:results")).content.decode()
    assert 'name="q"' in html


def test_admin_requires_login(client):
    response = client.get("/admin/blog/comment/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_admin_approve_action(admin_client):
    post = make_post("Moderated")
    comment = make_comment(post, "Please approve me", approved=False)
    response = admin_client.post("/admin/blog/comment/", {"action": "approve", "_selected_action": [comment.pk]})
    assert response.status_code == 302
    comment.refresh_from_db()
    assert comment.approved


def test_post_url_matches_reverse_for_unicode_slugs():
    from django.urls import reverse

    from blog.models import post_url

    for slug in ("plain-slug", "café-crème", "日本語", "a_b-9"):
        assert post_url(slug) == reverse("blog:post", kwargs={"slug": slug})


def test_csrf_protection_is_on(admin_user):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = client.post("/admin/login/", {"username": "admin", "password": "password"})
    assert response.status_code == 403  # no CSRF token
    client.force_login(admin_user)
    post = make_post("Not to be unpublished by a forged request")
    response = client.post("/admin/blog/post/", {"action": "unpublish", "_selected_action": [post.pk]})
    assert response.status_code == 403
    post.refresh_from_db()
    assert post.published


def test_404_page_in_production(client, settings):
    settings.DEBUG = False
    response = client.get("/post/does-not-exist/")
    assert response.status_code == 404
    assert "Page not found" in response.content.decode() and 'name="q"' in response.content.decode()


def test_every_page_has_the_search_apps_box_and_script(client):
    """The site's base template includes search/box.html: the form and the app's own script."""
    from django.contrib.staticfiles import finders

    html = client.get("/").content.decode()
    assert 'action="/search/"' in html and 'data-api="/api/search/"' in html
    assert 'src="/static/search/instant-search.js"' in html
    assert finders.find("search/instant-search.js").endswith("search/static/search/instant-search.js")


def test_search_pages_extend_the_base_template_a_site_names(client, settings, tmp_path, es_down):
    """serving.base_template and serving.home_url: the search pages use the site's own layout and
    home; a site's template of the same name replaces the app's, as Django's loaders allow."""
    (tmp_path / "site_base.html").write_text(
        '<!doctype html><html lang="en"><title>{% block title %}{% endblock %}</title><p id="another-site">Another site</p>'
        '{% include "search/box.html" %}<main>{% block content %}{% endblock %}</main></html>'
    )
    (tmp_path / "search").mkdir()
    (tmp_path / "search" / "unavailable.html").write_text(
        '{% extends base_template %}{% block content %}<h1>Our own outage page</h1><a href="{{ home_url }}">home</a>{% endblock %}'
    )
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [tmp_path, *settings.TEMPLATES[0]["DIRS"]]}]
    settings.SEARCH = {**settings.SEARCH, "BASE_TEMPLATE": "site_base.html", "HOME_URL": "/elsewhere/"}

    response = client.get("/search/?q=firefox&page=0")  # the app's results page (a bad page: 400)
    html = response.content.decode()
    assert response.status_code == 400 and 'id="another-site"' in html and 'role="search"' in html
    assert 'class="site-name"' not in html  # not the blog's base.html

    response = client.get("/search/?q=firefox")  # Elasticsearch down: the site's own 503 page
    html = response.content.decode()
    assert response.status_code == 503 and "Our own outage page" in html and 'href="/elsewhere/"' in html and 'id="another-site"' in html


def test_opensearch_home_is_the_setting(client, settings):
    settings.SEARCH = {**settings.SEARCH, "HOME_URL": "/elsewhere/"}
    assert "<moz:SearchForm>http://testserver/elsewhere/</moz:SearchForm>" in client.get("/opensearch.xml").content.decode()
    settings.SEARCH = {**settings.SEARCH, "HOME_URL": "blog:home"}  # a URL name is reversed
    assert "<moz:SearchForm>http://testserver/</moz:SearchForm>" in client.get("/opensearch.xml").content.decode()
