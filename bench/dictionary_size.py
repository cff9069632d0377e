"""The dictionary a fresh process loads: its words, the bytes the map holds and the process's RSS growth.

    DATABASE_URL=... SEARCH_INDEX_PREFIX=... .venv/bin/python bench/dictionary_size.py [--label 100x]

Django is set up and the generation read first, so the RSS difference is the stored map's read
from PostgreSQL and its load, as a web worker pays it once after start and after each `reindex`
(issue 40's target: under 30 MB per worker at 100x the corpus). bench/scale.sh runs it for 1x and
the grown corpus.
"""

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from search import generation, vocabulary

    gen = generation.current()
    before = rss_kib()
    started = time.perf_counter()
    dictionary = vocabulary.current(gen)
    seconds = time.perf_counter() - started
    if dictionary is None:
        sys.exit(f"{args.label}: no stored dictionary for this prefix (run `manage.py reindex`)")
    grew = rss_kib() - before
    print(f"{args.label}: {len(dictionary):,} words, map {dictionary.nbytes / 1e6:.2f} MB, process RSS +{grew / 1024:.1f} MiB, load {seconds * 1000:.0f} ms")


if __name__ == "__main__":
    main()
