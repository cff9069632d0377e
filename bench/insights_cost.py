"""What the search log costs per search in CPU time, measured in-process so that other load on the
shared machine barely moves it (bench/load.py measures requests/s over HTTP, which other jobs on
the machine move by more than the log costs).

    .venv/bin/python bench/insights_cost.py [--rate 900] [--seconds 8] [--rounds 4]

Needs the corpus indexed (`make run` once); production-like settings (DEBUG off). It runs the
query mix of bench/load.py through search() until every answer is cached, then plays the part
of one busy gunicorn worker: it calls the real insights.log.record() with those cached results
at --rate searches/s (the load benchmark's ~2,700 cached searches/s over 3 workers is ~900 each)
for --seconds, and the real writer thread writes them with the production settings (BATCH_SIZE,
FLUSH_SECONDS), then it waits for the last batch. Rounds alternate the log off and on. Counted:

- record(): CPU time of the calls themselves (what a request waits for);
- writer: the rest of the process's CPU time, log on minus off (the writer thread: formatting
  and sending the batches, connecting);
- PostgreSQL: CPU time of the whole local server (postmaster and every child: backends, WAL
  writer, checkpointer, autovacuum), log on minus off.

Rows written are deleted afterwards. PostgreSQL must run on this machine (read from /proc).
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds of the process and its reaped children), or None when it is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2 :].split()  # after "pid (comm) "; fields[0] is the state
    return int(fields[1]), sum(int(f) for f in fields[11:15]) / TICK  # utime stime cutime cstime


def tree_cpu(root: int) -> float:
    """CPU seconds of `root` and every live descendant (each with its reaped children)."""
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (s := _stat(int(entry))) is not None:
            stats[int(entry)] = s
    members, grew = {root}, True
    while grew:
        more = {pid for pid, (ppid, _) in stats.items() if ppid in members} - members
        members |= more
        grew = bool(more)
    return sum(stats[pid][1] for pid in members if pid in stats)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--rate", type=int, default=900, help="searches per second (one worker's share)")
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--rounds", type=int, default=4, help="pairs of runs, log off and on")
    parser.add_argument("--queries", type=int, default=15, help="queries per kind in the mix")
    args = parser.parse_args()
    os.environ.update(
        DEBUG="0",
        SECRET_KEY="bench-only-secret-key-not-for-production-0123456789abcdef",
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        SECURE_COOKIES="0",
        LOG_LEVEL="WARNING",
        SEARCH_CACHE_SECONDS="3600",
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    from bench.querygen import LOAD_KINDS, generate
    from insights import conf, log
    from insights.models import SearchLog
    from search.querying.service import search

    texts = [q.text for q in generate(args.corpus, per_kind=args.queries, kinds=LOAD_KINDS)]
    for text in texts:
        search(text, page=1)
    results = [search(text, page=1) for text in texts]
    results = [r for r in results if r.query]
    assert all(r.cached for r in results), "not every answer is cached"
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        postmaster = _stat(cursor.fetchone()[0])[0]
    connection.close()  # this thread's connection stays out of the way
    before = SearchLog.objects.order_by("-id").values_list("id", flat=True).first() or 0
    connection.close()
    total = int(args.rate * args.seconds)
    settle = conf.get().flush_seconds + 2.0

    def run(enabled: bool) -> dict:
        settings.INSIGHTS = {**settings.INSIGHTS, "ENABLED": enabled}
        conf.reload()
        cpu0, db0, in_record = time.process_time(), tree_cpu(postmaster), 0.0
        started = time.monotonic()
        for i in range(0, total, 100):  # in steps of 100 searches, paced to the rate
            t0 = time.thread_time()
            for j in range(i, min(i + 100, total)):
                log.record(results[j % len(results)], source="api")
            in_record += time.thread_time() - t0
            ahead = started + (i + 100) / args.rate - time.monotonic()
            if ahead > 0:
                time.sleep(ahead)
        time.sleep(settle)  # the writer's last batch, and PostgreSQL's work on it
        return {"record": in_record / total * 1e6, "process": (time.process_time() - cpu0) / total * 1e6, "db": (tree_cpu(postmaster) - db0) / total * 1e6}

    run(True)  # warm-up: the writer thread started, its first connection made
    pairs = []
    for r in range(args.rounds):
        order = (False, True) if r % 2 == 0 else (True, False)
        got = {enabled: run(enabled) for enabled in order}
        pairs.append(got)
        off, on = got[False], got[True]
        print(
            f"round {r + 1}: record() {on['record']:.2f} us; writer {on['process'] - on['record'] - off['process']:+.2f} "
            f"us; PostgreSQL {on['db'] - off['db']:+.2f} us per search",
            flush=True,
        )
    rows = SearchLog.objects.filter(id__gt=before).count()
    deleted, _ = SearchLog.objects.filter(id__gt=before).delete()
    searches = total * (args.rounds + 1)

    def median(fn) -> float:
        return statistics.median(fn(p[False], p[True]) for p in pairs)

    record = median(lambda off, on: on["record"])
    writer = median(lambda off, on: on["process"] - on["record"] - off["process"])
    db = median(lambda off, on: on["db"] - off["db"])
    whole = median(lambda off, on: on["process"] - off["process"] + on["db"] - off["db"])
    print(
        f"\n{len(results)} cached answers recorded at {args.rate}/s for {args.seconds:g}s per run, {args.rounds} rounds; "
        f"{rows} rows for {searches} searches ({rows / searches:.3f} per search, {deleted} deleted)"
    )
    print(f"search log CPU cost: {whole:.1f} us per search (medians: record() {record:.1f}, writer thread {writer:.1f}, PostgreSQL {db:.1f})")


if __name__ == "__main__":
    main()
