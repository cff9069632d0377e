"""Freshness under write load (issue 39): from a change's statement in PostgreSQL to searchable.

    DATABASE_URL=... SEARCH_INDEX_PREFIX=... .venv/bin/python bench/freshness.py [--seconds 60]

Needs an indexed corpus (`make run` once). For --seconds, --writers threads each save a random
published post through the ORM (its title gets a counter: a real change, a real document), as
the admin and the site do: the save's own sync after the commit applies it. One more thread
writes with `QuerySet.update()`, which bypasses signals (as raw SQL and importers do): only
the scheduler applies those, here a thread running what `search_sync --every` runs, every
--every seconds (shipped: 60). --saves-per-second paces the writers (0: a write storm). Every applied change's figure is the one /metrics observes
(search.metrics.fresh, PostgreSQL's clock at both ends); they are collected per path and
printed as percentiles. The posts' titles are put back at the end (saved again: synced too).
"""

import argparse
import os
import random
import statistics
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--writers", type=int, default=4, help="threads saving through the ORM (the save's own sync)")
    parser.add_argument("--saves-per-second", type=float, default=20.0, help="all writers together (0: as fast as they can, a write storm)")
    parser.add_argument("--every", type=float, default=60.0, help="the scheduler's period (search_sync --every; shipped 60)")
    parser.add_argument("--bypass-per-second", type=float, default=2.0, help="QuerySet.update() writes a second (no signal: the scheduler's)")
    return parser.parse_args()


def collect(ages: dict, lock: threading.Lock):
    """search.metrics.fresh, also keeping each figure by the thread (the path) that applied it."""
    from search import metrics

    real = metrics.fresh

    def fresh(values):
        with lock:
            ages[threading.current_thread().name.split("-")[0]].extend(values)
        real(values)

    metrics.fresh = fresh


def saver(ids: list[int], stop: threading.Event, counts: dict, pause: float):
    from django.db import close_old_connections

    from blog.models import Post

    while not stop.wait(pause * random.uniform(0.5, 1.5)):
        post = Post.objects.get(pk=random.choice(ids))
        post.title = f"{post.title.split(' #')[0]} #{counts['saves']}"
        post.save()  # autocommit: the save's sync runs after the commit, in this thread
        counts["saves"] += 1
    close_old_connections()


def bypasser(ids: list[int], stop: threading.Event, rate: float, counts: dict):
    from django.db import close_old_connections
    from django.db.models import F

    from blog.models import Post

    while not stop.wait(1 / rate):
        Post.objects.filter(pk=random.choice(ids)).update(title=F("title"))  # no signal: waits for the scheduler
        counts["bypassed"] += 1
    close_old_connections()


def scheduler(stop: threading.Event, every: float):
    from django.db import close_old_connections

    from search import conf
    from search.client import bulk_client
    from search.sync import outbox

    while not stop.wait(every):
        outbox.drain_all(batch=conf.get().sync.pending_drain_batch, client=bulk_client())
    outbox.drain_all(batch=conf.get().sync.pending_drain_batch, client=bulk_client())  # the rest, as the next round would
    close_old_connections()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(ages: dict, counts: dict, args) -> None:
    writes = f"{args.writers} ORM writers ({counts['saves']} saves, {args.saves_per_second:g}/s asked), {counts['bypassed']} QuerySet.update() writes"
    print(f"\n{args.seconds:g} s, {writes}, scheduler every {args.every:g} s")
    print("| path | changes | p50 s | p95 s | p99 s | max s |")
    print("| --- | --- | --- | --- | --- | --- |")
    names = {"saver": "a save (its own sync after the commit)", "scheduler": "applied by the scheduler (bypassed signals, or left by a save)"}
    for path, values in sorted(ages.items()):
        if values:
            row = [statistics.median(values), percentile(values, 0.95), percentile(values, 0.99), max(values)]
            print(f"| {names.get(path, path)} | {len(values)} | " + " | ".join(f"{v:.3f}" for v in row) + " |")


def main():
    args = parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from blog.models import Post

    ages, lock, counts, stop = defaultdict(list), threading.Lock(), defaultdict(int), threading.Event()
    collect(ages, lock)
    ids = list(Post.objects.filter(published=True).values_list("pk", flat=True)[:2000])
    titles = dict(Post.objects.filter(pk__in=ids).values_list("pk", "title"))
    pause = args.writers / args.saves_per_second if args.saves_per_second else 0.0
    threads = [threading.Thread(target=saver, args=(ids, stop, counts, pause), name=f"saver-{n}") for n in range(args.writers)]
    threads.append(threading.Thread(target=bypasser, args=(ids, stop, args.bypass_per_second, counts), name="bypasser"))
    threads.append(threading.Thread(target=scheduler, args=(stop, args.every), name="scheduler"))
    for thread in threads:
        thread.start()
    time.sleep(args.seconds)
    stop.set()
    for thread in threads:
        thread.join()
    report(ages, counts, args)
    for post in Post.objects.filter(pk__in=ids).exclude(title__in=titles.values()):
        post.title = titles[post.pk]
        post.save()


if __name__ == "__main__":
    main()
