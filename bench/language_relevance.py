"""Relevance on a German or a French blog against Elasticsearch's own searches (issue 53, point 6).

    SEARCH_LANGUAGE=de SEARCH_INDEX_PREFIX=blogde DATABASE_URL=... \\
      .venv/bin/python bench/language_relevance.py --corpus .state/corpus-de --lists .state/lists

The blog must be imported and indexed with that language (the commands that make the corpus, the
lists and the index: docs/benchmarks.md#german-and-french-blogs). The queries are bench/langgen.py's
kinds; the systems: this search, `multi_match` on the words as written, `multi_match` with
`fuzziness: AUTO` and `simple_query_string` (every word required), the last two on the fields
the language's analyzers built. A query is found at rank r when the r-th post is one whose title
holds the intended words (bench/querygen.py's rule). Printed per kind: success@1, success@5 and
the share with no results; for this search also the share shown without "Showing results for"
(no rewrite), which the `inflected`, `question` and `control` kinds must keep near 1.
"""

import argparse
import json
import os
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from bench import baselines, overrides  # noqa: E402
from bench.langgen import KINDS, Generator  # noqa: E402
from search import conf  # noqa: E402
from search.querying.service import search  # noqa: E402

OURS = "this search"
# Where Debian's packages put the lists (libreoffice-common, hunspell-de-de, hunspell-fr-classical),
# under the folder they were unpacked into, or / when they are installed.
AUTOCORRECT, HUNSPELL = Path("usr/lib/libreoffice/share/autocorr"), Path("usr/share/hunspell")
REWRITES: dict[str, bool] = {}  # query text -> whether this search said "Showing results for"


def ours(q: str) -> tuple[list[int | None], int]:
    r = search(q, use_cache=False)
    REWRITES[q] = bool(r.showing_for)
    return [h.post_id if h.type == "post" else None for h in r.hits], r.total


SYSTEMS = {
    OURS: ours,
    "multi_match exact": lambda q: baselines.multi_match(q, exact=True),
    "fuzziness AUTO": lambda q: baselines.multi_match(q, fuzzy=True),
    "simple_query_string": baselines.simple_query_string,
}
# The summary rows: every query with a typo, and by source (keyboard slips, LibreOffice's
# autocorrect list, Hunspell's confusions).
TYPO_SOURCES = ("keyboard", "autocorrect", "confusion")


def rows_of(q) -> list[str]:
    rows = [q.kind, "ALL"]
    if q.source in TYPO_SOURCES:
        rows += ["ALL typos", f"source {q.source}"]
    return rows


def evaluate(queries, systems) -> tuple[dict, dict]:
    """scores[system][row] = [s@1, s@5, zero, no rewrite, n]; ranks[(system, text)]."""
    scores = {name: defaultdict(lambda: [0, 0, 0, 0, 0]) for name in systems}
    ranks = {}
    for q in queries:
        for name, fn in systems.items():
            ids, total = fn(q.text)
            rank = next((i + 1 for i, pid in enumerate(ids[:10]) if pid in q.expected), None)
            ranks[(name, q.text)] = rank
            for row in rows_of(q):
                cell = scores[name][row]
                cell[0] += rank == 1
                cell[1] += rank is not None and rank <= 5
                cell[2] += total == 0
                cell[3] += name == OURS and not REWRITES.get(q.text, False)
                cell[4] += 1
    return scores, ranks


def table(scores, rows) -> str:
    names = list(scores)
    head = " | ".join(f"{n} s@1 / s@5 / zero" + (" / no rewrite" if n == OURS else "") for n in names)
    lines = [f"| kind | n | {head} |", "| --- | --- | " + " | ".join("---" for _ in names) + " |"]
    for row in rows:
        n = scores[names[0]][row][4]
        if not n:
            continue
        cells = []
        for name in names:
            s1, s5, zero, kept, count = scores[name][row]
            cell = f"{s1 / count:.2f} / {s5 / count:.2f} / {zero / count:.2f}"
            cells.append(cell + (f" / {kept / count:.2f}" if name == OURS else ""))
        lines.append(f"| {row} | {n} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, required=True, help="the blog's corpus folder (bench/blog_corpus.py)")
    parser.add_argument("--lists", type=Path, default=Path("/"), help="the folder Debian's list packages were unpacked into (default /: installed)")
    parser.add_argument("--per-kind", type=int, default=60)
    parser.add_argument("--seed", type=int, action="append", help="query set seed (repeatable; default: two seeds)")
    parser.add_argument("--show", type=int, default=0, help="print N sample queries per kind")
    parser.add_argument("--misses", action="append", default=[], metavar="KIND", help="list this search's misses at rank 1 of KIND (repeatable)")
    parser.add_argument("--kind", choices=list(KINDS), action="append", help="measure only these kinds (repeatable; default: every kind)")
    parser.add_argument("--only", choices=list(SYSTEMS), action="append", help="measure only these systems (this search always)")
    overrides.add_argument(parser)
    args = parser.parse_args()
    overrides.apply(args.set)
    language = conf.get().index.language
    if language not in ("de", "fr"):
        sys.exit(f"SEARCH_LANGUAGE is {language!r}: set de or fr, as the blog was indexed")
    conf.override(WORD_CACHE_SECONDS=0)  # every query measured cold
    with (args.corpus / "posts.ndjson").open(encoding="utf-8") as fh:
        posts = [json.loads(line) for line in fh if line.strip()]
    autocorrect, hunspell = args.lists / AUTOCORRECT / f"acor_{language}.dat", args.lists / HUNSPELL
    if not (autocorrect.is_file() and hunspell.is_dir()):
        sys.exit(f"no {autocorrect} or {hunspell}: unpack the lists into {args.lists} (bench/language_blogs.sh does)")
    try:
        import wordfreq  # noqa: F401
    except ImportError:
        sys.exit("wordfreq is missing: .venv/bin/pip install wordfreq==3.1.1 (a benchmark-only dependency)")
    generator = Generator(posts, language, autocorrect=autocorrect, hunspell=hunspell)
    systems = {name: fn for name, fn in SYSTEMS.items() if not args.only or name in args.only or name == OURS}
    for seed in args.seed or [20261121, 7]:
        queries = [q for q in generator.generate(seed=seed, per_kind=args.per_kind) if not args.kind or q.kind in args.kind]
        print(f"\n{len(queries)} queries (seed {seed}, up to {args.per_kind} per kind, language {language}) from {args.corpus}", flush=True)
        for kind in (k for k in KINDS if args.show):
            sample = [q for q in queries if q.kind == kind][: args.show]
            print(f"  {kind}: " + "; ".join(f"{q.text!r} ({q.correct})" for q in sample))
        scores, ranks = evaluate(queries, systems)
        rows = [k for k in KINDS] + [f"source {s}" for s in TYPO_SOURCES] + ["ALL typos", "ALL"]
        print(table(scores, rows))
        # A miss: not first, or a query with no typo shown as another ("Showing results for").
        for q in (q for q in queries if q.kind in args.misses and (ranks[(OURS, q.text)] != 1 or (REWRITES[q.text] and q.source == "none"))):
            r = search(q.text, use_cache=False)
            print(f"  {q.kind}: {q.text!r} meant {q.correct!r}: rank {ranks[(OURS, q.text)]}, showing {r.showing_for!r}, did you mean {r.did_you_mean!r}")


if __name__ == "__main__":
    main()
