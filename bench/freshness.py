"""Freshness per write path (issues 39, 49): from a write's statement to searchable.

    DATABASE_URL=... SEARCH_INDEX_PREFIX=... .venv/bin/python bench/freshness.py [--seconds 60]

Needs an indexed corpus (`make run` once). The scheduler is the real command, `manage.py
search_sync --every 60`, in its own process (stopped by its PID at the end), as the compose file
runs it. First it idles for --idle-seconds: its CPU time (/proc) and its PostgreSQL connections
(pg_stat_activity, by application_name) are printed. Then one thread per write path writes to
posts of its own, together --writes-per-second (20 shipped), each write a real change:

- `save`: Post.save() through the ORM (its own sync after the commit applies it);
- `update()`: QuerySet.update(), no signal;
- `raw SQL`: an UPDATE through a cursor;
- `bulk_create`: a new post;
- `tag rename`: the post's tag renamed in every post that carries it (array_replace in one UPDATE).

A write counts as searchable when a non-realtime get of the live index (what a search reads:
refreshed documents only) shows it; a checker thread asks every 20 ms for all writes still
waiting. Figures are from just before the write's statement to the answer that shows it, on this
host's monotonic clock, printed per path as percentiles. Titles and tags are put back and the
new posts deleted at the end (the scheduler applies that too).
"""

import argparse
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
APP = "freshness-scheduler"
PATHS = ("save", "update()", "raw SQL", "bulk_create", "tag rename")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--writes-per-second", type=float, default=20.0, help="all paths together, shared equally")
    parser.add_argument("--every", type=float, default=60.0, help="the scheduler's full round (search_sync --every; shipped 60)")
    parser.add_argument("--idle-seconds", type=float, default=30.0, help="the scheduler idles this long first: its CPU and connections")
    return parser.parse_args()


class Waiting:
    """Writes not yet seen searchable: (kind of check, post id, field, value, started)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.items: list[tuple] = []
        self.seen: dict[str, list[float]] = defaultdict(list)
        self.lost: dict[str, int] = defaultdict(int)

    def add(self, path, pk, field, value, started):
        """A later write of the same post replaces an earlier one still waiting (never shown)."""
        with self.lock:
            self.items = [i for i in self.items if (i[0], i[1]) != (path, pk)]
            self.items.append((path, pk, field, value, started))

    def check(self, es, index):
        with self.lock:
            items = list(self.items)
        if not items:
            return
        docs = es.mget(index=index, ids=sorted({str(i[1]) for i in items}), realtime=False, source=["title", "tags"])["docs"]
        found = {int(d["_id"]): d["_source"] for d in docs if d.get("found")}
        now = time.monotonic()
        done = []
        for item in items:
            path, pk, field, value, started = item
            held = found.get(pk, {}).get(field)
            if held == value or (field == "tags" and isinstance(held, list) and value in held):
                self.seen[path].append(now - started)
                done.append(item)
            elif now - started > 30:
                self.lost[path] += 1
                done.append(item)
        with self.lock:
            self.items = [i for i in self.items if i not in done]


def writer(path: str, ids: list[int], waiting: Waiting, stop: threading.Event, pause: float, made: list[int]):
    from django.db import close_old_connections, connection
    from django.db.models import F, Func, Value
    from django.utils import timezone

    from blog.models import Post

    n, renamed = 0, {}  # renamed: post -> its tag's number now
    while not stop.wait(pause * random.uniform(0.5, 1.5)):
        n += 1
        pk = random.choice(ids)
        title = f"freshness {path} {n} {random.randrange(10**9)}"
        started = time.monotonic()
        if path == "save":
            post = Post.objects.get(pk=pk)
            started = time.monotonic()
            post.title = title
            post.save()
        elif path == "update()":
            Post.objects.filter(pk=pk).update(title=title)
        elif path == "raw SQL":
            with connection.cursor() as cursor:
                cursor.execute("UPDATE blog_post SET title = %s WHERE id = %s", [title, pk])
        elif path == "bulk_create":
            (post,) = Post.objects.bulk_create([Post(title=title, slug=f"freshness-{random.randrange(10**12)}", pub_date=timezone.now())])
            made.append(pk := post.pk)
        else:  # the post's own tag, renamed wherever it is carried
            renamed[pk] = renamed.get(pk, 0) + 1
            old, title = f"freshness-tag-{pk}-{renamed[pk] - 1}", f"freshness-tag-{pk}-{renamed[pk]}"
            Post.objects.filter(tags__contains=[old]).update(tags=Func(F("tags"), Value(old), Value(title), function="array_replace"))
            waiting.add(path, pk, "tags", title, started)
            continue
        waiting.add(path, pk, "title", title, started)
    close_old_connections()


def idle_cost(child: subprocess.Popen, seconds: float) -> str:
    from django.db import connection

    def cpu():
        fields = Path(f"/proc/{child.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    before = cpu()
    time.sleep(seconds)
    used = cpu() - before
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*), count(*) FILTER (WHERE query LIKE 'LISTEN%%') FROM pg_stat_activity WHERE application_name = %s", [APP])
        conns, listening = cursor.fetchone()
    return f"scheduler idle {seconds:g} s: {used:.2f} s CPU ({100 * used / seconds:.2f}%), {conns} PostgreSQL connection(s), {listening} listening"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main():
    args = parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.db.models import F, Func, Value

    from blog.models import Post
    from search.aliases import alias_name
    from search.client import bulk_client

    env = {**os.environ, "PGAPPNAME": APP}
    child = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "search_sync", "--every", str(args.every)], env=env, stdout=subprocess.DEVNULL)
    try:
        time.sleep(3)  # its start-up and first round
        print(idle_cost(child, args.idle_seconds))
        ids = list(Post.objects.filter(published=True, pub_date__lte=django.utils.timezone.now()).values_list("pk", flat=True)[:2000])
        random.shuffle(ids)
        groups = {path: ids[i :: len(PATHS)] for i, path in enumerate(PATHS)}
        titles = dict(Post.objects.filter(pk__in=ids).values_list("pk", "title"))
        for pk in groups["tag rename"]:  # a tag of its own, for the renames
            Post.objects.filter(pk=pk).update(tags=Func(F("tags"), Value(f"freshness-tag-{pk}-0"), function="array_append"))
        time.sleep(2)
        waiting, stop, made = Waiting(), threading.Event(), []
        pause = len(PATHS) / args.writes_per_second
        threads = [threading.Thread(target=writer, args=(path, groups[path], waiting, stop, pause, made), name=path) for path in PATHS]
        for thread in threads:
            thread.start()
        es, index, ends = bulk_client(), alias_name("posts"), time.monotonic() + args.seconds
        while time.monotonic() < ends:
            waiting.check(es, index)
            time.sleep(0.02)
        stop.set()
        for thread in threads:
            thread.join()
        while waiting.items:
            waiting.check(es, index)
            time.sleep(0.02)
        print(f"\n{args.seconds:g} s, {args.writes_per_second:g} writes/s asked over {len(PATHS)} paths, scheduler `search_sync --every {args.every:g}`")
        print("| write path | writes | p50 s | p95 s | p99 s | max s | not seen in 30 s |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for path in PATHS:
            values = waiting.seen[path]
            if values:
                row = [statistics.median(values), percentile(values, 0.95), percentile(values, 0.99), max(values)]
                print(f"| {path} | {len(values)} | " + " | ".join(f"{v:.3f}" for v in row) + f" | {waiting.lost[path]} |")
        for pk, title in titles.items():  # put back: saved, so synced too
            Post.objects.filter(pk=pk).exclude(title=title).update(title=title)
        for pk in groups["tag rename"]:
            post = Post.objects.get(pk=pk)
            Post.objects.filter(pk=pk).update(tags=[t for t in post.tags if not t.startswith("freshness-tag-")])
        Post.objects.filter(pk__in=made).delete()
        time.sleep(2)
    finally:
        child.terminate()
        child.wait(timeout=30)


if __name__ == "__main__":
    main()
