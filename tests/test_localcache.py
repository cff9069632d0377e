"""The local-memory cache bounded in bytes (search/localcache.py): pure, no service."""

import itertools

import pytest

from search.localcache import LocMemCache, entry_size

_names = itertools.count()


def cache(max_bytes: int, max_entries: int = 1000) -> LocMemCache:
    return LocMemCache(f"test-localcache-{next(_names)}", {"OPTIONS": {"MAX_BYTES": max_bytes, "MAX_ENTRIES": max_entries}})


def size_of(c: LocMemCache, key: str) -> int:
    made = c.make_and_validate_key(key)
    return entry_size(made, c._cache[made])


def test_counts_what_it_holds_and_forgets_what_goes():
    c = cache(10**6)
    c.set("a", "x" * 1000)
    c.set("b", "y" * 500)
    assert c.bytes_held == size_of(c, "a") + size_of(c, "b")
    c.set("a", "x" * 10)  # replaced: counted once, at its new size
    assert c.bytes_held == size_of(c, "a") + size_of(c, "b")
    c.delete("b")
    assert c.bytes_held == size_of(c, "a")
    c.clear()
    assert c.bytes_held == 0


def test_past_the_budget_the_least_recently_used_go_first():
    c = cache(10_000)
    for key in "abcd":
        c.set(key, "v" * 2000)
    assert c.get("a") is not None  # a is now the most recently used
    c.set("e", "v" * 2000)  # 5 x ~2.2 KB > 10 KB: b, the least recently used, goes
    assert [k for k in "abcde" if c.get(k) is not None] == ["a", "c", "d", "e"]
    assert c.bytes_held <= 10_000


def test_a_value_larger_than_the_budget_is_not_stored():
    c = cache(5_000)
    c.set("small", "v")
    c.set("huge", "v" * 6000)
    assert c.get("huge") is None and c.get("small") == "v"


def test_expired_and_culled_entries_are_uncounted():
    c = cache(10**6, max_entries=3)
    c.set("old", "v" * 100, timeout=-1)  # expired at once
    assert c.get("old") is None and c.bytes_held == 0
    for key in "abcd":  # the fourth culls a third of the entries, by count
        c.set(key, "v" * 100)
    held = [k for k in "abcd" if c.get(k) is not None]
    assert len(held) < 4 and c.bytes_held == sum(size_of(c, k) for k in held)


def test_incr_counts_the_new_value_and_keeps_the_expiry():
    c = cache(10**6)
    c.set("n", 1, timeout=100)
    expiry = c._expire_info[c.make_and_validate_key("n")]
    assert c.incr("n", 2**70) == 1 + 2**70
    assert c.bytes_held == size_of(c, "n") and c._expire_info[c.make_and_validate_key("n")] == expiry
    with pytest.raises(ValueError):
        c.incr("missing")


def test_threads_share_one_count():
    """Django makes one instance per thread over the same entries: the count is shared too."""
    name = f"test-localcache-{next(_names)}"
    one, two = (LocMemCache(name, {"OPTIONS": {"MAX_BYTES": 10**6}}) for _ in range(2))
    one.set("a", "v" * 100)
    assert two.bytes_held == one.bytes_held > 0


def test_without_max_bytes_it_is_djangos():
    c = LocMemCache(f"test-localcache-{next(_names)}", {"OPTIONS": {"MAX_ENTRIES": 1000}})
    for i in range(100):
        c.set(str(i), "v" * 10_000)
    assert all(c.get(str(i)) for i in range(100))
