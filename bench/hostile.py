"""The worst queries a reader can send within the caps, against normal ones: Elasticsearch time.

    .venv/bin/python bench/hostile.py        (needs the corpus indexed, as `make run` leaves it)

Issue "Never lose a change" asks that the worst query one can build within the caps (length,
words, tokens: SEARCH["MAX_QUERY_*"]) cost at most 5x the Elasticsearch time of a normal one.
Candidates run interleaved after a warm-up, every query cold (no caches); the figure is the median
of Elasticsearch's own `took` summed over a search's round trips, per candidate, and its ratio to
the normal queries' median.
"""

import os
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()


from search import conf  # noqa: E402
from search.querying.service import search  # noqa: E402

NORMAL = [
    "firefix extnsion",
    "django signals",
    "pyhton packaging",
    "datasette plugins",
    "rust async await",
    "sqlite full text search",
    "jekyll theme",
    "postgres json",
    "how to write a firefox extension",
]


def hostile(rng: random.Random) -> dict[str, str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    typo_words = [
        "pyhton",
        "djnago",
        "javscript",
        "databse",
        "broswer",
        "funtion",
        "paramter",
        "verison",
        "templete",
        "serach",
        "sever",
        "simpel",
        "togehter",
        "reqest",
        "responce",
        "langauge",
    ]
    return {
        "12 misspelled words": " ".join(rng.sample(typo_words, 12)),
        "hyphen-joined letters (200 chars)": "-".join(rng.choice(letters) for _ in range(100)),
        "200 CJK characters": "".join(chr(rng.randrange(0x4E00, 0x9FFF)) for _ in range(200)),
        "12 two-letter tokens": " ".join(rng.choice(letters) + rng.choice(letters) for _ in range(12)),
        "12 stop words": " ".join(rng.choice(["the", "a", "of", "to", "in", "is", "it", "and"]) for _ in range(12)),
        "one 200-letter word": "".join(rng.choice(letters) for _ in range(200)),
        "punctuation soup": "".join(rng.choice("!@#$%^&*()[]{}<>?/\\|~`'\";:,.") for _ in range(200)),
    }


def took(query: str) -> int:
    return search(query, use_cache=False).took_ms


def main() -> None:
    conf.override(WORD_CACHE_SECONDS=0)
    rng = random.Random(20261122)
    for q in NORMAL + list(hostile(rng).values()):  # warm-up
        took(q)
    times: dict[str, list[int]] = {"normal queries": []}
    for _ in range(15):
        cases = hostile(rng)
        order = ["normal queries", *cases]
        rng.shuffle(order)
        for name in order:
            if name == "normal queries":
                times[name].extend(took(q) for q in NORMAL)
            else:
                times.setdefault(name, []).append(took(cases[name]))
    base = statistics.median(times["normal queries"]) or 1
    print("| query | median took ms | vs normal |\n| --- | --- | --- |")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"| {name} | {median:.1f} | {median / base:.2f}x |")


if __name__ == "__main__":
    main()
