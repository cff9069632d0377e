"""As-you-type relevance: this search against Elasticsearch's own `bool_prefix`, on seeded cases.

    .venv/bin/python bench/asyoutype.py [--seed N] [--per-kind 50] [--show-misses 30] [--fail-on-regression] [--joined]
    make relevance   (runs it after bench/relevance.py)

Needs the corpus imported and indexed (make run does both). The cases come from bench/typegen.py
(cut-short title runs with and without a typo, single-word prefixes, and complete words that also
start a longer word). A case is found at rank r when the r-th result is a post whose title holds
the complete words as written followed by a word that starts with what was typed of the last one
(a comment first is a miss). Prints success@1, success@5 and MRR per kind and overall, and the
controls' gate: every `typed_whole` case this search ranks worse than `bool_prefix` is listed.

`--joined` keeps only the cut-short kinds' cases whose first expected post has a title word joined
by a dot or a colon ("Node.js", "Wikipedia:Canvassing"), which the standard tokenizer alone kept
whole (search/documents.py; use a large --per-kind: few cases qualify).
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

import re  # noqa: E402

from bench import baselines, overrides  # noqa: E402
from bench.querygen import load_posts  # noqa: E402
from bench.typegen import CONTROL_KINDS, KINDS, generate  # noqa: E402
from search import conf  # noqa: E402
from search.querying.service import search  # noqa: E402


def ours(q: str) -> list[int | None]:
    return [h.post_id if h.type == "post" else None for h in search(q, use_cache=False).hits]


SYSTEMS = {
    "this search": ours,
    "bool_prefix": lambda q: baselines.bool_prefix(q)[0],
    "bool_prefix fuzzy": lambda q: baselines.bool_prefix(q, fuzzy=True)[0],
}


def evaluate(cases, systems) -> tuple[dict, dict]:
    scores = {name: defaultdict(lambda: [0, 0, 0.0, 0]) for name in systems}
    ranks = {}
    for case in cases:
        for name, fn in systems.items():
            ids = fn(case.text)
            rank = next((i + 1 for i, pid in enumerate(ids[:10]) if pid in case.expected), None)
            ranks[(name, case.text)] = rank
            for kind in (case.kind, "ALL"):
                row = scores[name][kind]
                row[0] += rank == 1
                row[1] += rank is not None and rank <= 5
                row[2] += 1 / rank if rank else 0.0
                row[3] += 1
    return scores, ranks


JOINED = re.compile(r"[A-Za-z0-9][.:][A-Za-z]")


def joined_cases(cases, posts: list[dict]) -> list:
    """The cut-short cases (no control, no inner typo) whose first expected post's title has a word
    joined by a dot or a colon."""
    titles = {p["id"]: p["title"] for p in posts}
    kinds = ("cut_run", "cut_typo", "cut_word")
    return [c for c in cases if c.kind in kinds and c.expected and JOINED.search(titles[c.expected[0]])]


def table(scores) -> str:
    names = list(scores)
    lines = ["| kind | n | " + " | ".join(f"{n} s@1 / s@5 / MRR" for n in names) + " |", "| --- | --- | " + " | ".join("---" for _ in names) + " |"]
    for kind in (*KINDS, "ALL"):
        n = scores[names[0]][kind][3]
        if n:
            cells = [f"{s1 / n:.3f} / {s5 / n:.3f} / {rr / n:.3f}" for s1, s5, rr, _ in (scores[name][kind] for name in names)]
            lines.append(f"| {kind} | {n} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--seed", type=int, default=20261125)
    parser.add_argument("--per-kind", type=int, default=50)
    parser.add_argument("--show-misses", type=int, default=30)
    parser.add_argument("--fail-on-regression", action="store_true", help="exit 1 when a control ranks worse than bool_prefix")
    parser.add_argument("--joined", action="store_true", help="only cases of titles with a word joined by a dot or a colon")
    overrides.add_argument(parser)
    args = parser.parse_args()
    overrides.apply(args.set)
    if not (args.corpus / "posts.ndjson").exists():
        sys.exit(f"no corpus at {args.corpus}: pass --corpus DIR")
    conf.override(WORD_CACHE_SECONDS=0)  # every case measured cold
    posts = load_posts(args.corpus)
    cases = generate(posts, seed=args.seed, per_kind=args.per_kind)
    if args.joined:
        cases = joined_cases(cases, posts)
    scores, ranks = evaluate(cases, SYSTEMS)
    print(f"as-you-type cases, seed {args.seed}\n")
    print(table(scores))
    worse = [c for c in cases if c.kind in CONTROL_KINDS and (ranks[("this search", c.text)] or 99) > (ranks[("bool_prefix", c.text)] or 99)]
    print(f"\ncontrols ranked worse than bool_prefix: {len(worse)}" + "".join(f"\n  {c.text!r}" for c in worse))
    misses = [c for c in cases if ranks[("this search", c.text)] != 1]
    print(f"not first ({len(misses)}):" + "".join(f"\n  {c.kind} {c.text!r}: rank {ranks[('this search', c.text)]}" for c in misses[: args.show_misses]))
    if args.fail_on_regression and worse:
        sys.exit(f"{len(worse)} control(s) ranked worse than bool_prefix")


if __name__ == "__main__":
    main()
