"""Chaos: concurrent writers of every kind while `reindex` runs twice, the live indices are
blocked read-only for a moment and the real Elasticsearch node is stopped and started once. Among
the writes, poison rows of every kind: a date no driver can read, an id past 2^31, a document the
mapping refuses. Writes no row trigger sees (a replica-role edit, a TRUNCATE of the comments) and
the owner's synonym rules added and deleted through the fault. A reader searches all along.
Afterwards:

- the poison that can never be indexed (unreadable rows, refused documents) is dead-lettered and
  held up nothing: once an admin deletes it, `search_sync` and `search_check` find PostgreSQL and
  the index identical (0 missing, 0 extra, 0 stale), long ids included, the audit finds every
  document's content equal to its row's, and the synonyms set holds PostgreSQL's rules;
- no search failed but while the node was down (and the breaker's pause after it). On the
  three-node cluster (tests_cluster/test_chaos_cluster.py) a node is killed instead, and no search
  may fail at all.

Bounded: CHAOS_SECONDS (default 12) of writing per seed, CHAOS_SEEDS (default 1,2,3).
"""

import os

import pytest

from search.client import reset_client
from tests.chaos_support import CHAOS_SETTINGS, node_stopped_and_started, patient_reader, run_chaos

SEEDS = [int(s) for s in os.environ.get("CHAOS_SEEDS", "1,2,3").split(",")]


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.django_db(transaction=True)
def test_chaos(seed, build_index, capsys, poison, settings):
    settings.SEARCH = {**settings.SEARCH, **CHAOS_SETTINGS}
    patient_reader(settings)  # slowness on a loaded machine is not a failure (chaos_support says why)
    try:
        run_chaos(seed, build_index, capsys, node_stopped_and_started)
    finally:
        reset_client()
