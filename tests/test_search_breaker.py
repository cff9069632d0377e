"""The search breaker weighs a failure rate over a window, then lets one probe decide (fake clock;
found by the fault harness, issue 25)."""


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def rate_breaker(clock, **changes):
    from search.breaker import RateBreaker, RateLimits

    limits = RateLimits(**{"window_seconds": 10.0, "min_calls": 20, "failure_ratio": 0.5, "open_seconds": 3.0, **changes})
    return RateBreaker(lambda: limits, clock=clock)


def test_one_failure_in_twenty_keeps_the_breaker_closed():
    clock = FakeClock()
    breaker = rate_breaker(clock)
    for n in range(20):
        breaker.record(n != 0)
        clock.now += 0.1
    assert breaker.allows()


def test_half_of_the_recent_searches_failing_opens_it_then_one_probe_decides():
    clock = FakeClock()
    breaker = rate_breaker(clock)
    for n in range(19):
        breaker.record(n % 2 == 0)  # 9 failures in 19: not yet
    assert breaker.allows()
    breaker.record(False)  # 10 of 20
    assert not breaker.allows()
    clock.now += 3.0
    assert breaker.allows() and not breaker.allows()  # half-open: one probe at a time
    breaker.record(False)  # the probe failed: open again
    assert not breaker.allows()
    clock.now += 3.0
    assert breaker.allows()
    breaker.record(True)  # the probe succeeded: closed, every search goes through
    assert all(breaker.allows() for _ in range(5))


def test_failures_older_than_the_window_are_forgotten_and_a_silent_probe_frees_its_slot():
    clock = FakeClock()
    breaker = rate_breaker(clock, min_calls=4)
    for _ in range(3):
        breaker.record(False)
    clock.now += 11  # out of the window
    breaker.record(False)
    assert breaker.allows()  # 1 recent call, below min_calls
    for _ in range(3):
        breaker.record(False)
    assert not breaker.allows()
    clock.now += 3.0
    assert breaker.allows()  # the probe, which never reports (its caller hit a bug)
    clock.now += 3.0
    assert breaker.allows()  # another probe may go
