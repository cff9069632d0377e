"""Fail closed: production is the default, the compose file's own environment passes
`check --deploy`, liveness does not depend on Elasticsearch, and no error page shows a credential."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import RequestFactory
from django.views.debug import technical_500_response

ROOT = Path(__file__).resolve().parent.parent


def compose_environment(service: str) -> dict:
    """The `environment:` mapping of a docker-compose.yml service, ${VAR:-default} resolved to
    its default and ${VAR:?...} (a required value) to a test value."""
    lines = (ROOT / "docker-compose.yml").read_text().splitlines()
    start = lines.index(f"  {service}:")
    env, inside = {}, False
    for line in lines[start + 1 :]:
        if re.match(r"^  \S", line):
            break
        if line.strip() == "environment:":
            inside = True
            continue
        if inside:
            match = re.match(r"^      ([A-Z_]+): (.*)$", line)
            if match:
                env[match[1]] = match[2].strip().strip('"')
            elif not line.strip().startswith("#"):
                inside = False

    def resolve(value: str) -> str:
        value = re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", value)
        return re.sub(r"\$\{[A-Z_]+:\?[^}]*\}", "compose-test-secret-key-" + "x" * 40, value)

    return {k: resolve(v) for k, v in env.items()}


def test_debug_is_off_unless_asked_for():
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")}
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-v", "0", "-c", "from django.conf import settings; print(settings.DEBUG)"],
        cwd=ROOT,
        env={**env, "SECRET_KEY": "k" * 50, "ALLOWED_HOSTS": "example.org", "ENV_FILE": ""},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.stdout.strip().splitlines()[-1] == "False", result.stderr
    assert "ENV " in (ROOT / "Dockerfile").read_text() and "DEBUG=0" in (ROOT / "Dockerfile").read_text()


def test_dockerfile_runs_gthread_workers_like_the_benchmark():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert '"--worker-class", "gthread"' in dockerfile and '"--threads"' in dockerfile


def test_compose_web_environment_passes_check_deploy():
    env = compose_environment("web")
    assert env["DEBUG"] == "0"
    base = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECURE_SSL_REDIRECT", "SECURE_COOKIES")}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_compose_web_healthcheck_uses_liveness():
    compose = (ROOT / "docker-compose.yml").read_text()
    web = compose[compose.index("  web:") : compose.index("  scheduler:")]
    assert "/healthz/live" in web


@pytest.mark.django_db
def test_liveness_does_not_depend_on_elasticsearch(client, es_down):
    assert client.get("/healthz").status_code == 503
    response = client.get("/healthz/live")
    assert response.status_code == 200 and response.json() == {"healthy": True, "postgresql": {"ok": True}}


ES_URL = "https://elastic:es-pass-123@search.example:9200"
DB_URL = "postgres://blog:db-pass-456@db.example:5432/blog"
REDIS_URL = "redis://:redis-pass-789@cache.example:6379/0"
SECRETS = ("es-pass-123", "db-pass-456", "redis-pass-789")


def test_error_page_never_shows_credentials(settings):
    settings.DEBUG = True
    settings.ELASTICSEARCH = {**settings.ELASTICSEARCH, "URL": ES_URL}
    settings.DATABASE_URL, settings.REDIS_URL = DB_URL, REDIS_URL
    request = RequestFactory().get("/boom")
    request.META["DATABASE_URL"] = DB_URL  # runserver puts the process environment there
    connection_string = DB_URL  # a local variable of the failing frame
    try:
        raise RuntimeError(f"could not connect to {connection_string.split('@')[1]}")
    except RuntimeError:
        response = technical_500_response(request, *sys.exc_info())
    page = response.content.decode()
    assert not [secret for secret in SECRETS if secret in page]
    assert "search.example" in page and "db.example" in page  # the rest of each URL stays


def test_compose_turns_security_on_and_keeps_the_superusers_password_from_the_site():
    """Issue 38.4: security on in every Elasticsearch service; the superuser's password only in
    the one-off step that creates the site's role and user (tests/test_security.py)."""
    from search.nodes import credentials, node_urls

    compose = (ROOT / "docker-compose.yml").read_text()
    assert "xpack.security.enabled=false" not in compose and compose.count("xpack.security.enabled=true") == 4
    for service in ("web", "scheduler", "web-cluster", "scheduler-cluster"):
        env = compose_environment(service)
        assert "ELASTIC_PASSWORD" not in env, service
        assert all(credentials(node) and credentials(node)[0] == "blogsearch" for node in node_urls(env["ELASTICSEARCH_URL"])), service
    for service in ("search-security", "search-security-cluster"):
        assert compose_environment(service)["ELASTIC_PASSWORD"]
        assert '["python", "manage.py", "search_security"]' in compose[compose.index(f"  {service}:") :]
