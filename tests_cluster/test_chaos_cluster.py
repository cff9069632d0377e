"""Issue 25's chaos run on the three-node cluster: the writers, poison rows of every kind, the
read-only block and two `reindex` runs of tests/test_chaos.py, with a node killed (SIGKILL, by
its PID) instead of the one dev node stopped. Two nodes stay healthy, so here no search may fail
at all, and afterwards PostgreSQL and the index agree (0 missing, 0 extra, 0 stale).

Bounded: CHAOS_SECONDS of writing per seed (default 12), CLUSTER_CHAOS_SEEDS (default 1)."""

import os
import signal
import time

import pytest

from search.aliases import alias_name
from search.client import reset_client
from tests.chaos_support import CHAOS_SETTINGS, SECONDS, admin, patient_reader, run_chaos
from tests_cluster.conftest import cluster
from tests_cluster.workload import SEARCH_TIMEOUT, node_of_primary

SEEDS = [int(s) for s in os.environ.get("CLUSTER_CHAOS_SEEDS", "1").split(",")]


def node_killed_and_started(hold) -> tuple[float, float, float]:
    """The node holding the posts' primary is killed (writes must fail over too), the cluster runs
    on two nodes until the reader has searched a few times (`hold`: a slow machine lengthens the
    fault rather than failing the test), then the node is started and the cluster is green again.
    No failed search is allowed: the window returned ends before the kill."""
    victim = node_of_primary(admin(), alias_name("posts"))
    killed = time.monotonic()
    os.kill(int(cluster("pid", str(victim))), signal.SIGKILL)
    time.sleep(max(3.0, SECONDS * 0.2))  # writes and searches go on with a node missing
    hold(killed)
    restarting = time.monotonic()  # the fault's end for "searched during the fault": the node was dead until now
    cluster("start-node", str(victim))  # back, replicas recovered, green
    return killed, restarting, killed - 1.0


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.django_db(transaction=True)
def test_chaos_with_a_node_killed_fails_no_search(seed, build_index, capsys, poison, settings):
    # The in-process reader gets the cluster tests' request timeout and budget (workload.py
    # says why: this shared machine, three JVMs), and a client built with them.
    settings.SEARCH = {**settings.SEARCH, **CHAOS_SETTINGS}
    patient_reader(settings, float(SEARCH_TIMEOUT))
    try:
        run_chaos(seed, build_index, capsys, node_killed_and_started)
    finally:
        reset_client()
