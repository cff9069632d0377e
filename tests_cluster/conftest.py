"""Fixtures for the three-node cluster tests (make test-cluster): the normal suite's fixtures, the
cluster's control script, a gunicorn server over the test database, a paced search load and an
author saving posts, all real processes and threads."""

import os
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connection

from bench.servers import free_port, start_gunicorn, stop_process_group
from tests.conftest import build_index, fresh_process_state, poison, search_test_prefix, test_indices_never_the_sites  # noqa: F401 - shared fixtures
from tests.helpers import TEST_PREFIX, admin

ROOT = Path(__file__).resolve().parent.parent
CLUSTER_SCRIPT = ROOT / "devservices" / "cluster.sh"
NODES = 3


def pytest_collection_modifyitems(config, items):
    """These tests kill and restart the cluster's nodes: only against that cluster, never a shared node."""
    if not items:
        return
    health = admin().cluster.health()  # before the session's own user exists
    if health["number_of_nodes"] < NODES:
        pytest.exit(
            f"tests_cluster/ needs the {NODES}-node dev cluster (make test-cluster starts it); "
            f"ELASTICSEARCH_URL answers with {health['number_of_nodes']} node(s)",
            returncode=3,
        )


def cluster(*args: str, timeout: float = 300) -> str:
    """Run devservices/cluster.sh; its output is returned (and shown on failure)."""
    result = subprocess.run(["bash", str(CLUSTER_SCRIPT), *args], capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"cluster.sh {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout.strip()


def database_url() -> str:
    s = connection.settings_dict
    return f"postgres://{s['USER']}@{s['HOST']}:{s['PORT']}/{s['NAME']}"


def app_env(**extra) -> dict:
    """Environment of a production-like app process on the test database and index prefix."""
    return {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "cluster-test-secret-key-not-for-production-0123456789",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        "LOG_LEVEL": "WARNING",
        "DATABASE_URL": database_url(),
        "SEARCH_INDEX_PREFIX": TEST_PREFIX,
        **extra,
    }


@pytest.fixture
def web_server(tmp_path):
    """Start gunicorn servers (real processes) on free loopback ports; returns their base URLs.
    Their logs are kept in the test's tmp_path."""
    started = []

    def start(**extra) -> str:
        port = free_port()
        started.append(start_gunicorn(port, app_env(**extra), workers=2, threads=4, wait=60, log_path=tmp_path / f"gunicorn-{port}.log"))
        return f"http://127.0.0.1:{port}"

    yield start
    for proc in started:
        stop_process_group(proc)


@pytest.fixture(autouse=True)
def _test_prefix(search_test_prefix):  # noqa: F811
    """Every cluster test uses the services: the test index prefix, never the dev site's indices."""


@pytest.fixture
def es():
    """The tests' own client for looking at and steering the cluster (indices, shards, allocation):
    the superuser on the app's nodes, with a long timeout (the site's role may not move shards). Production's 1 s is for readers' searches;
    on this shared machine a cluster-settings update beside the load benchmark took longer, and
    the test then failed on its own bookkeeping, not on anything a reader would see."""
    return admin().options(request_timeout=60)


@contextmanager
def running(args: list[str], env: dict):
    """A child process (stdout and stderr piped together, text), killed if it is still running
    when the block ends: a failed test must not leave a `reindex` holding the rebuild's lock for
    the next tests."""
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


@pytest.fixture(autouse=True)
def cluster_green():
    """Every test starts and ends on a green cluster with all its nodes, and leaves replica
    allocation on (a test that paused it and failed must not starve the next ones)."""
    superuser = admin().options(request_timeout=200)
    health = superuser.cluster.health(wait_for_status="green", wait_for_nodes=NODES, timeout="180s")
    assert not health["timed_out"], health
    yield
    superuser.cluster.put_settings(persistent={"cluster.routing.allocation.enable": None})
