"""What the search log costs per search, measured directly (less sensitive to a busy machine than
the requests/s of bench/load.py, which measures the same thing end to end).

    .venv/bin/python bench/insights_cost.py [--searches 20000]

Times record() (build the entry, sign the query id, append to the buffer) and then the batched
INSERTs that write the same entries (wall time, so PostgreSQL's own work is included), and prints
both per search. Rows are written to the configured database and deleted afterwards.
"""
import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--searches", type=int, default=20_000)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings

    from insights import log
    from insights.buffer import buffer
    from insights.models import SearchLog
    from search.service import SearchResult

    conf = settings.INSIGHTS
    conf.update(ENABLED=True, FLUSH_SECONDS=3600, BATCH_SIZE=10**9, BUFFER_MAX=10**9)  # flushed by hand below
    result = SearchResult(query="firefix extnsion", page=1, page_size=10, strategy="match_phrase", total=42,
                          round_trips=2, took_ms=7, elapsed_ms=3.21, showing_for="firefox extension", cached=True)
    before = SearchLog.objects.order_by("-id").values_list("id", flat=True).first() or 0
    started = time.perf_counter()
    for _ in range(args.searches):
        log.record(result, source="api")
    record_s = time.perf_counter() - started
    batch = 500
    pending = buffer._entries
    buffer._entries = []
    started = time.perf_counter()
    for i in range(0, len(pending), batch):
        buffer._entries = pending[i:i + batch]
        buffer.flush()
    write_s = time.perf_counter() - started
    deleted, _ = SearchLog.objects.filter(id__gt=before).delete()
    per_record, per_write = record_s / args.searches * 1e6, write_s / args.searches * 1e6
    print(f"{args.searches} searches: record() {per_record:.1f} us each; written in batches of {batch}: "
          f"{per_write:.1f} us each (Python and PostgreSQL); {per_record + per_write:.1f} us per search in all "
          f"({deleted} rows written and deleted)")


if __name__ == "__main__":
    main()
