"""bench/freshqueries.py: the load benchmark's pools of fresh queries (pure)."""

import pytest

from bench import freshqueries
from bench.freshqueries import CORRECT, KEYSTROKE, pool, slices

POSTS = [
    {"title": "Firefox extension basics", "body_text": "How to write a Firefox extension."},
    {"title": "Rust release notes", "body_text": "Rust ships a release every six weeks."},
]


def test_a_keystroke_pool_larger_than_the_titles_allow_is_returned_short_and_distinct(monkeypatch):
    monkeypatch.setattr(freshqueries, "GIVE_UP", 2_000)
    queries = pool(None, kind=KEYSTROKE, size=10**6, posts=POSTS)
    assert 0 < len(queries) < 100  # every state of these two titles, not a draw forever
    assert len(set(queries)) == len(queries)
    assert "firefox ext" in queries and "rust rel" in queries
    assert all(len(q.split()[-1]) >= 3 for q in queries)


def test_pools_are_seeded_and_sliced_apart():
    one = pool(None, kind=CORRECT, size=20, posts=POSTS, seed=1)
    assert one == pool(None, kind=CORRECT, size=20, posts=POSTS, seed=1)
    parts = slices(one, 4)
    assert len(parts) == 4 and not set(parts[0]) & set(parts[1])
    with pytest.raises(ValueError):
        slices(one[:2], 4)
