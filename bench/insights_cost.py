"""What the search log costs per search, measured in-process where another engineer's load on the
shared machine cannot swamp it (bench/load.py measures the same end to end, over HTTP).

    .venv/bin/python bench/insights_cost.py [--rounds 15]

Needs the corpus indexed (`make run` once). Production-like settings (DEBUG off). Through Django's
full stack (test client, no HTTP), it times cached /api/search/ requests over 150 queries made of
post titles, the log off and on in alternating rounds (CPU time of this process: the request and
record()), then writes the entries the "on" rounds buffered in batches of 500 as the writer
thread does (wall time, so PostgreSQL's own work counts too; the rows are deleted afterwards).
It also times record() alone, 50,000 calls. The cost per search is (the median of the rounds'
paired differences on - off, plus the write) / off.
"""
import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--queries", type=int, default=150)
    args = parser.parse_args()
    os.environ.update(DEBUG="0", SECRET_KEY="bench-only-secret-key-not-for-production-0123456789abcdef",
                      ALLOWED_HOSTS="127.0.0.1", SECURE_SSL_REDIRECT="0", SECURE_COOKIES="0", LOG_LEVEL="WARNING",
                      SEARCH_CACHE_SECONDS="3600")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.cache import cache
    from django.test import Client

    from blog.models import Post
    from insights.buffer import buffer
    from insights.models import SearchLog
    from search.service import search

    # Every answer stays cached (local memory keeps 300 entries by default, and the word cache
    # shares them): before the first cache access, which creates the backend.
    settings.CACHES["default"]["OPTIONS"] = {"MAX_ENTRIES": 100_000}
    conf = settings.INSIGHTS
    conf.update(FLUSH_SECONDS=3600, BATCH_SIZE=10**9, BUFFER_MAX=10**9)  # written by hand below
    titles = list(Post.objects.order_by("id").values_list("title", flat=True)[:args.queries])
    paths = [f"/api/search/?q={' '.join(t.split()[:2])}" for t in titles]
    client = Client(HTTP_HOST="127.0.0.1")
    for path in paths * 2:  # warm: every answer in the result cache
        assert client.get(path).status_code == 200
    assert cache._max_entries == 100_000
    assert all(search(t, page=1).cached for t in (p.split("=", 1)[1] for p in paths)), "not every answer is cached"
    buffer.clear()
    before = SearchLog.objects.order_by("-id").values_list("id", flat=True).first() or 0
    times = {False: [], True: []}
    for r in range(args.rounds):
        for enabled in ((False, True) if r % 2 else (True, False)):  # either order, as often
            conf["ENABLED"] = enabled
            started = time.process_time()
            for path in paths:
                client.get(path)
            times[enabled].append((time.process_time() - started) / len(paths) * 1e6)
    pending, buffer._entries = buffer._entries, []
    started = time.perf_counter()
    for i in range(0, len(pending), 500):
        buffer._entries = pending[i:i + 500]
        buffer.flush()
    write = (time.perf_counter() - started) / len(pending) * 1e6
    deleted, _ = SearchLog.objects.filter(id__gt=before).delete()
    from insights import log
    from search.service import SearchResult

    conf["ENABLED"] = True
    result = SearchResult(query="firefix extnsion", page=1, page_size=10, total=42, showing_for="firefox extension")
    started = time.process_time()
    for _ in range(50_000):
        log.record(result, source="api")
    record_alone = (time.process_time() - started) / 50_000 * 1e6
    buffer.clear()
    off, on = statistics.median(times[False]), statistics.median(times[True])
    paired = statistics.median(b - a for a, b in zip(times[False], times[True], strict=True))
    print(f"cached /api/search/ through Django, {args.rounds} rounds x {len(paths)} queries: log off {off:.0f} us, "
          f"log on {on:.0f} us (medians); paired difference {paired:+.1f} us (median); record() alone "
          f"{record_alone:.1f} us; writing {write:.1f} us per entry in batches of 500 ({deleted} rows written and deleted)")
    cost = paired + write
    print(f"search log cost: {cost:.1f} us per search = {100 * cost / off:.1f}% of a cached request "
          f"(record() alone + write: {100 * (record_alone + write) / off:.1f}%)")


if __name__ == "__main__":
    main()
