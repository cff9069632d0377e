"""The answer memo's bounds (search/answers.py): bytes, lifetime, least recently used first."""

from search.answers import ENTRY_OVERHEAD, AnswerMemo, Served, key

SERVED = Served(query="q", page=1, total=1, strategy="phrase", showing_for="", round_trips=1, took_ms=3)


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def k(query: str, generation: int = 1) -> tuple:
    return key(generation, query, page=1, sort="relevance", filters_key="", detail=False, snippets=True)


def test_an_entry_lives_its_seconds():
    clock = Clock()
    memo = AnswerMemo(clock=clock)
    memo.put(k("a"), b"{}", SERVED, seconds=10, max_bytes=10_000)
    assert memo.get(k("a")) == (b"{}", SERVED)
    clock.now += 9.9
    assert memo.get(k("a")) is not None
    clock.now += 0.2
    assert memo.get(k("a")) is None and not memo.entries and memo.held == 0


def test_another_generation_is_another_entry():
    memo = AnswerMemo()
    memo.put(k("a", 1), b"{}", SERVED, seconds=10, max_bytes=10_000)
    assert memo.get(k("a", 2)) is None and memo.get(k("a", 1)) is not None


def test_the_bytes_bound_drops_the_least_recently_used():
    memo = AnswerMemo()
    body = b"x" * 100
    size = AnswerMemo.size(k("a"), body)
    assert size == 100 + 1 + ENTRY_OVERHEAD
    bound = 3 * size
    for q in "abc":
        memo.put(k(q), body, SERVED, seconds=10, max_bytes=bound)
    assert memo.get(k("a")) is not None  # "a" is now the most recent; "b" the least
    memo.put(k("d"), body, SERVED, seconds=10, max_bytes=bound)
    assert memo.get(k("b")) is None
    assert all(memo.get(k(q)) is not None for q in "acd")
    assert memo.held == bound


def test_a_body_over_the_bound_or_no_lifetime_is_not_kept():
    memo = AnswerMemo()
    memo.put(k("a"), b"x" * 1000, SERVED, seconds=10, max_bytes=500)
    memo.put(k("b"), b"{}", SERVED, seconds=0, max_bytes=10_000)
    assert not memo.entries and memo.held == 0


def test_storing_a_key_again_replaces_it():
    memo = AnswerMemo()
    memo.put(k("a"), b"old", SERVED, seconds=10, max_bytes=10_000)
    memo.put(k("a"), b"newer", SERVED, seconds=10, max_bytes=10_000)
    assert memo.get(k("a"))[0] == b"newer" and memo.held == AnswerMemo.size(k("a"), b"newer")
