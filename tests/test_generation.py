"""The index generation learnt by LISTEN/NOTIFY (search/generation.py), on the real PostgreSQL:
a committed bump reaches every listening process, a rolled-back one none; a broken or silent
listener costs at most GENERATION_RECHECK_SECONDS before the row is read again; a search inside
a transaction sees its own uncommitted bump."""

import select
import threading

import psycopg2
import pytest
from django.db import connection, transaction

from search import conf, generation
from search.generation import Listener

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def listeners():
    """Listeners made by a test, closed after it (an open one would keep the test database busy)."""
    made = []

    def make(clock=None):
        made.append(Listener(clock=clock or Clock()))
        return made[-1]

    yield make
    for listener in made:
        listener.close()


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def other():
    """Another process's connection: its commits are what a listener must hear about."""
    params = connection.get_connection_params()
    conn = psycopg2.connect(**params)
    conn.autocommit = True
    yield conn
    conn.close()


def bump_elsewhere(conn) -> int:
    with conn.cursor() as cursor:
        cursor.execute(
            "INSERT INTO search_indexgeneration (id, value) VALUES (1, 1) "
            "ON CONFLICT (id) DO UPDATE SET value = search_indexgeneration.value + 1 RETURNING value"
        )
        return cursor.fetchone()[0]


def arrived(listener: Listener, timeout: float = 5.0) -> None:
    """Wait until the listening socket has data (the notification reached this host)."""
    assert select.select([listener.conn], [], [], timeout)[0], "no notification within the timeout"


def test_a_bump_committed_elsewhere_is_heard_without_reading_the_row(other, listeners, django_assert_num_queries):
    listener = listeners()
    start = listener.value()
    value = bump_elsewhere(other)
    assert value == start + 1
    arrived(listener)
    with django_assert_num_queries(0):
        assert listener.value() == value


def test_a_rolled_back_bump_is_heard_by_nobody(other, listeners):
    listener = listeners()
    start = listener.value()
    other.autocommit = False
    bump_elsewhere(other)
    other.rollback()
    assert not select.select([listener.conn], [], [], 0.3)[0]
    assert listener.value() == start


def test_a_broken_listener_falls_back_to_reading_the_row_then_reconnects(other, listeners, settings):
    clock = Clock()
    listener = listeners(clock)
    listener.value()
    with other.cursor() as cursor:  # PostgreSQL drops the listening connection
        cursor.execute("SELECT pg_terminate_backend(%s)", [listener.conn.get_backend_pid()])
    # pg_terminate_backend only signals the backend: the drop reaches this host a moment later
    # (on a busy machine, after the next statement). What is tested is the listener once it has.
    arrived(listener)
    value = bump_elsewhere(other)
    assert listener.value() is None  # broken: the caller reads the row
    assert listener.value() is None  # and keeps reading it until the recheck interval passed
    clock.now += conf.get().serving.generation_recheck_seconds
    assert listener.value() == value  # listening again


def test_a_silent_listener_is_caught_by_the_periodic_recheck(other, listeners, settings):
    clock = Clock()
    listener = listeners(clock)
    listener.value()
    with listener.conn.cursor() as cursor:  # it stops hearing without any error
        cursor.execute(f"UNLISTEN {generation.CHANNEL}")
    value = bump_elsewhere(other)
    assert listener.value() == value - 1  # stale, but only until ...
    clock.now += conf.get().serving.generation_recheck_seconds
    assert listener.value() == value  # ... the row is read again


def test_this_process_takes_its_own_committed_bump_at_once():
    generation.listener.close()
    before = generation.latest()
    generation.bump()  # autocommit: committed when it returns
    assert generation.latest() == generation.current() > before


def test_inside_a_transaction_a_search_sees_its_own_uncommitted_bump():
    before = generation.latest()
    with transaction.atomic():
        generation.bump()
        inside = generation.latest()
        assert inside > before
        transaction.set_rollback(True)
    assert generation.latest() == before
    generation.bump()  # a rolled-back value is never used again: nothing cached under it can match
    assert generation.latest() not in (before, inside)


def test_a_notification_arriving_during_the_periodic_reread_is_kept(other, listeners, settings):
    """A bump committed while the listener re-reads the row (after the read's snapshot) is
    notified at the end of that read: it must not be thrown away with the read's result."""
    bump_elsewhere(other)  # the row exists (transactional tests start from empty tables)
    clock = Clock()
    listener = listeners(clock)
    listener.value()
    listener.reread_sql = "SELECT (SELECT value FROM search_indexgeneration WHERE id = %s) FROM pg_sleep(0.5)"  # slow
    clock.now += conf.get().serving.generation_recheck_seconds
    bumper = threading.Timer(0.2, bump_elsewhere, args=(other,))  # commits 0.2 s into it
    bumper.start()
    value = listener.value()
    bumper.join()
    assert value == generation.current()  # not the value the read's snapshot saw


def test_a_warning_before_the_server_goes_away_counts_as_broken(listeners):
    listener = listeners()
    listener.value()
    listener.conn.notices.append("WARNING:  terminating connection due to immediate shutdown command\n")
    assert listener.value() is None  # reads the row instead of trusting a dying connection


def test_listening_can_be_switched_off(settings, django_assert_num_queries):
    settings.SEARCH = {**settings.SEARCH, "GENERATION_LISTEN": False}
    with django_assert_num_queries(1):
        generation.latest()


# ---------------------------------------------------------------- the host's board (search/generation_board.py)


@pytest.fixture
def board(tmp_path, monkeypatch):
    from search import generation_board

    monkeypatch.setattr(generation_board.tempfile, "tempdir", str(tmp_path))
    clock = [10**12]
    monkeypatch.setattr(generation_board.time, "monotonic_ns", lambda: clock[0])
    writer, reader = generation_board.Board(), generation_board.Board()
    yield writer, reader, clock
    writer.close()
    reader.close()


def test_board_tells_another_reader_at_once_and_keeps_the_highest(board):
    writer, reader, _ = board
    assert reader.recent() is None  # nothing posted yet
    writer.publish(7)
    assert reader.recent() == 7
    writer.publish(5)  # a slower writer's older bump never replaces a newer one
    assert reader.recent() == 7


def test_board_forgets_a_value_once_the_listener_has_re_read_the_row(board):
    """After a database restore the row may go back below a posted value: the board speaks only
    within the listener's re-read period, after which the row (read by then) is the truth."""
    writer, reader, clock = board
    writer.publish(9)
    clock[0] += int(conf.get().serving.generation_recheck_seconds * 1e9) + 1
    assert reader.recent() is None
    writer.publish(4)  # a stale value no longer holds a restored database's lower one back
    assert reader.recent() == 4


def test_board_ignores_bytes_it_did_not_write(board):
    writer, reader, _ = board
    writer.publish(3)
    with open(writer.path(), "r+b") as f:
        f.write(b"\x01" * 8)  # a torn or foreign write
    assert reader.recent() is None


def test_board_ignores_a_value_from_before_a_reboot(board):
    """The monotonic clock restarts at boot: a value stored "in the future" is old, not fresh."""
    writer, reader, clock = board
    writer.publish(9)
    clock[0] -= 10**9  # now earlier than the value's time
    assert reader.recent() is None
    writer.publish(4)  # and never holds a lower, real value back
    assert reader.recent() == 4


def test_board_refuses_a_directory_others_may_write(board):
    import os

    writer, reader, _ = board
    os.mkdir(writer.directory(), 0o777)
    os.chmod(writer.directory(), 0o777)
    writer.publish(5)  # refused, logged: the notification alone tells the others
    assert reader.recent() is None and writer.map is None
