"""Relevance of this search against the alternatives, on a seeded misspelled-query set from the corpus.

    make relevance            (= .venv/bin/python bench/relevance.py)

Needs the corpus imported and indexed (make run does both; so does this script when the database
is empty). Prints success@1, success@3, MRR (top 10) and zero-result rate per query kind and
overall, for: this search, plain multi_match, multi_match with fuzziness AUTO, and PostgreSQL
full-text search. --tune compares term suggester settings for this search only.
"""
import argparse
import os
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402

from bench.querygen import generate  # noqa: E402
from blog.models import Post  # noqa: E402
from search import baselines  # noqa: E402
from search.rebuild import indices_exist  # noqa: E402
from search.service import search  # noqa: E402


def ours(q: str) -> tuple[list[int], int]:
    r = search(q, use_cache=False)
    return [h.post_id for h in r.hits if h.type == "post"], r.total


SYSTEMS = {
    "this search": ours,
    "multi_match": lambda q: baselines.multi_match(q),
    "fuzziness AUTO": lambda q: baselines.multi_match(q, fuzzy=True),
    "PostgreSQL FTS": baselines.postgres_fts,
}


def evaluate(queries, systems, *, ranks=None) -> dict:
    """scores[system][kind] = [s@1, s@3, rr, zero] summed, plus counts. Fills ranks[(system, text)]."""
    scores = {name: defaultdict(lambda: [0.0, 0.0, 0.0, 0.0, 0]) for name in systems}
    for q in queries:
        for name, fn in systems.items():
            ids, total = fn(q.text)
            rank = next((i + 1 for i, pid in enumerate(ids[:10]) if pid in q.expected), None)
            if ranks is not None:
                ranks[(name, q.text)] = rank
            for kind in (q.kind, "ALL", "ALL typos" if q.kind != "control" else None):
                if kind is None:
                    continue
                row = scores[name][kind]
                row[0] += rank == 1
                row[1] += rank is not None and rank <= 3
                row[2] += 1 / rank if rank else 0
                row[3] += total == 0
                row[4] += 1
    return scores


def table(scores, kinds) -> str:
    names = list(scores)
    lines = ["| kind | n | " + " | ".join(f"{n} s@1 / s@3 / MRR / zero" for n in names) + " |",
             "| --- | --- | " + " | ".join("---" for _ in names) + " |"]
    for kind in kinds:
        n = scores[names[0]][kind][4]
        if not n:
            continue
        cells = []
        for name in names:
            s1, s3, rr, zero, count = scores[name][kind]
            cells.append(f"{s1 / count:.2f} / {s3 / count:.2f} / {rr / count:.2f} / {zero / count:.2f}")
        lines.append(f"| {kind} | {n} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def ensure_data(corpus: Path) -> None:
    if not Post.objects.exists():
        call_command("import_corpus", str(corpus), "--no-progress")
    if not indices_exist():
        call_command("reindex", "--no-progress")


def tune(queries) -> None:
    base = dict(settings.SEARCH["SUGGESTER"])
    grid = {
        "suggest_mode": ["missing", "popular", "always"],
        "prefix_length": [0, 1],
        "max_edits": [1, 2],
        "min_word_length": [3, 4],
        "sort": ["score", "frequency"],
    }
    print("| suggester options | typos s@1 | control s@1 | ALL MRR |")
    print("| --- | --- | --- | --- |")
    for key, values in grid.items():
        for value in values:
            settings.SEARCH["SUGGESTER"] = {**base, key: value}
            s = evaluate(queries, {"this search": ours})["this search"]
            typos, control, every = s["ALL typos"], s["control"], s["ALL"]
            print(f"| {key}={value} | {typos[0] / typos[4]:.3f} | {control[0] / control[4]:.3f} | {every[2] / every[4]:.3f} |", flush=True)
    settings.SEARCH["SUGGESTER"] = base


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--per-kind", type=int, default=60)
    parser.add_argument("--seed", type=int, default=20261121)
    parser.add_argument("--tune", action="store_true", help="compare term suggester options (this search only)")
    parser.add_argument("--show", type=int, default=0, help="print N sample queries per kind")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override a SEARCH setting for this run, e.g. --set MAX_ALTERNATIVES=3")
    args = parser.parse_args()
    if not (args.corpus / "posts.ndjson").exists():
        sys.exit(f"no corpus at {args.corpus}: pass --corpus DIR")
    for item in args.set:
        key, _, value = item.partition("=")
        settings.SEARCH[key] = type(settings.SEARCH[key])(value)
        print(f"SEARCH[{key!r}] = {settings.SEARCH[key]!r}")
    settings.SEARCH["WORD_CACHE_SECONDS"] = 0  # every query measured cold, whatever ran before
    ensure_data(args.corpus)
    queries = generate(args.corpus, seed=args.seed, per_kind=args.per_kind)
    kinds = list(dict.fromkeys(q.kind for q in queries)) + ["ALL typos", "ALL"]
    print(f"{len(queries)} queries (seed {args.seed}, {args.per_kind} per kind) from {args.corpus}")
    if args.show:
        for kind in kinds[:-2]:
            sample = [q for q in queries if q.kind == kind][: args.show]
            print(f"  {kind}: " + "; ".join(f"{q.text!r} ({q.correct})" for q in sample))
    if args.tune:
        tune(queries)
        return
    ranks: dict = {}
    print(table(evaluate(queries, SYSTEMS, ranks=ranks), kinds))
    worse = [q for q in queries if q.kind == "control"
             and (ranks[("this search", q.text)] or 99) > (ranks[("multi_match", q.text)] or 99)]
    print(f"\ncorrectly spelled queries ranked worse than plain multi_match: {len(worse)} of "
          f"{sum(q.kind == 'control' for q in queries)}" + "".join(
              f"\n  {q.text!r}: {ranks[('this search', q.text)]} vs {ranks[('multi_match', q.text)]}" for q in worse))


if __name__ == "__main__":
    main()
