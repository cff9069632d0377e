"""`search_sync --every N` survives any exception in a round (found by the fault harness, issue 25)."""

import io

import pytest
from django.core.management import call_command


class StopLoop(BaseException):
    pass


def test_search_sync_every_survives_any_exception_in_a_round(monkeypatch):
    from search.management.commands import search_sync

    rounds, sleeps = [], []

    def apply(self):
        rounds.append(1)
        if len(rounds) == 1:
            raise ValueError("year 10000 is out of range")  # anything, not only CommandError
        self.stdout.write("applied")

    def sleep(seconds):
        sleeps.append(seconds)
        if len(sleeps) == 2:
            raise StopLoop

    monkeypatch.setattr(search_sync.Command, "apply", apply)
    monkeypatch.setattr(search_sync.time, "sleep", sleep)
    monkeypatch.setattr(search_sync, "close_old_connections", lambda: None)
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(StopLoop):  # today: the ValueError ends the scheduler
        call_command("search_sync", "--every", "7", stdout=out, stderr=err)
    assert len(rounds) == 2 and sleeps == [7.0, 7.0]
    assert "year 10000 is out of range" in err.getvalue() and "applied" in out.getvalue()
