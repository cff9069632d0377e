"""Settings from the environment; production mode is strict."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from blog.models import Comment, Post

ROOT = Path(__file__).resolve().parent.parent
PROD_KEY = "x" * 20 + "-production-secret-key-for-the-check-0123456789"


def manage(*args, **env):
    full_env = {**os.environ, **env}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=full_env, capture_output=True, text=True, timeout=120)


def test_production_refuses_the_default_secret_key():
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, capture_output=True, text=True, env={**env, "DEBUG": "0", "ALLOWED_HOSTS": "example.org"}, timeout=120
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_check_deploy_is_clean_in_production_settings():
    result = manage("check", "--deploy", "--fail-level", "WARNING", DEBUG="0", SECRET_KEY=PROD_KEY, ALLOWED_HOSTS="example.org")
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_bad_boolean_is_a_clear_error():
    result = manage("check", DEBUG="maybe")
    assert result.returncode != 0 and "DEBUG='maybe' is not a boolean" in result.stderr


@pytest.mark.django_db
def test_bundled_demo_data_imports_cleanly(capsys):
    call_command("import_corpus", str(ROOT / "demo_data"), "--no-progress")
    assert Post.objects.count() == 18 and Comment.objects.count() == 7
    assert "0 skipped" in capsys.readouterr().out
