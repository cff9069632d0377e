"""Relevance of this search against the alternatives, on seeded query sets from the corpus.

    make relevance            (= .venv/bin/python bench/relevance.py: two seeds, one table each)

Needs the corpus imported and indexed (make run does both; so does this script when the database
is empty). Prints success@1, success@3, MRR (top 10) and zero-result rate per query kind and
overall, for: this search, plain multi_match on the words as written (`.exact` fields) and on the
stemmed fields, multi_match with fuzziness AUTO, and PostgreSQL full-text search. A query is found
at rank r when the r-th hit is a post whose title holds the intended words as written (a comment
ranking first counts as its post: one entry per post, issue 26). Then the never-worse gate: every correctly spelled query
(bench/querygen.CONTROL_KINDS) must rank its first expected post at least as high as plain
multi_match on the words as written, and so must every real misspelling (codespell's list,
querygen.HUMAN and, when `BIRKBECK_LIST` names its file, the Birkbeck list); the real misspellings fuzziness AUTO ranks better are listed apart; the
regressions are counted and listed, and
--fail-on-regression makes them an exit status. A table by source and edit distance follows the
kinds: keyboard slips (our own model), the list, codespell, Birkbeck (bench/misspellings.py). --tune compares term suggester settings.
"""

import argparse
import os
import sys
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from search import synonyms  # noqa: E402
from search.synonym_rules import parse as parse_rule  # noqa: E402

# A few rules of the kind a blog owner writes (issue 26): the gate must hold with them loaded.
SYNONYMS = ["js, javascript", "postgres, postgresql", "k8s => kubernetes", "py => python"]

from django.core.management import call_command  # noqa: E402

from bench import baselines, overrides  # noqa: E402
from bench.querygen import BODY_KINDS, CONTROL_KINDS, generate, load_posts, title_words  # noqa: E402
from blog.models import Post  # noqa: E402
from search import conf  # noqa: E402
from search.aliases import alias_name, indices_exist  # noqa: E402
from search.client import get_client  # noqa: E402
from search.querying.service import search  # noqa: E402

GATE = "multi_match exact"


def ours(q: str) -> tuple[list[int | None], int]:
    r = search(q, use_cache=False)
    return [h.post_id if h.type == "post" else None for h in r.hits], r.total


SYSTEMS = {
    "this search": ours,
    GATE: lambda q: baselines.multi_match(q, exact=True),
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
            for kind in (q.kind, *(() if q.kind in BODY_KINDS else ("ALL",)), *breakdown(q)):
                row = scores[name][kind]
                row[0] += rank == 1
                row[1] += rank is not None and rank <= 3
                row[2] += 1 / rank if rank else 0
                row[3] += total == 0
                row[4] += 1
    return scores


def breakdown(q) -> list[str]:
    """The summary rows a query also counts in: every typo query, and its source (keyboard: our
    own slip model; list: querygen.HUMAN; codespell: bench/misspellings.py) alone and by edits."""
    if q.kind in CONTROL_KINDS:
        return []
    edits = f"{q.edits} edit{'s' if q.edits > 1 else ''}" if q.edits < 3 else "3+ edits"
    # The body kinds count in their own rows only: "ALL" and "ALL typos" compare with the figures before them.
    return [*(() if q.kind in BODY_KINDS else ("ALL typos",)), f"source {q.source}", f"source {q.source}, {edits}"]


def summary_rows(queries) -> list[str]:
    """The breakdown rows of a query set, in a stable order."""
    return sorted({row for q in queries for row in breakdown(q) if row != "ALL typos"})


def table(scores, kinds) -> str:
    names = list(scores)
    lines = ["| kind | n | " + " | ".join(f"{n} s@1 / s@3 / MRR / zero" for n in names) + " |", "| --- | --- | " + " | ".join("---" for _ in names) + " |"]
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


def porter_stems(words: list[str]) -> dict[str, str]:
    """Each word's porter stem, from Elasticsearch's own filter (one _analyze request per 2,000 words),
    asked of the posts' alias: the site's role may analyze on its own indices only."""
    stems = {}
    for i in range(0, len(words), 2000):
        chunk = words[i : i + 2000]
        body = {"tokenizer": "standard", "filter": ["porter_stem"], "text": " ".join(chunk)}
        tokens = get_client().indices.analyze(index=alias_name("posts"), body=body).body["tokens"]
        stems.update(zip(chunk, (t["token"] for t in tokens), strict=True))
    return stems


def gate(queries, ranks) -> list:
    """Correctly spelled queries this search ranks worse than plain multi_match on the words as written."""
    return [q for q in queries if q.kind in CONTROL_KINDS and (ranks[("this search", q.text)] or 99) > (ranks[(GATE, q.text)] or 99)]


PEER = "fuzziness AUTO"
REAL_SOURCES = ("codespell", "list", "birkbeck")


def real_gate(queries, ranks, against: str = GATE) -> list:
    """Real misspellings (codespell's list, querygen.HUMAN) this search ranks worse than `against`:
    the gate's baseline (a correction must never lose what the words as typed find), or, reported
    only, Elasticsearch's own fuzziness, the peer a reader could have used instead (issue 48).
    Empty when `against` was not run."""
    if not any(name == against for name, _ in ranks):
        return []
    return [q for q in queries if q.source in REAL_SOURCES and (ranks[("this search", q.text)] or 99) > (ranks[(against, q.text)] or 99)]


def listed(title: str, worse: list, out_of: int, ranks: dict, against: str) -> str:
    """A gate's line, "title: N of M", then each query with both ranks."""
    return f"{title}: {len(worse)} of {out_of}" + "".join(
        f"\n  {q.kind} {q.text!r} ({q.correct}): {ranks[('this search', q.text)]} vs {ranks[(against, q.text)]}" for q in worse
    )


def tune(queries) -> None:
    base = conf.get().ranking.suggester.as_dict()
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
            conf.override(SUGGESTER={**base, key: value})
            s = evaluate(queries, {"this search": ours})["this search"]
            typos, control, every = s["ALL typos"], s["control"], s["ALL"]
            print(f"| {key}={value} | {typos[0] / typos[4]:.3f} | {control[0] / control[4]:.3f} | {every[2] / every[4]:.3f} |", flush=True)
    conf.override(SUGGESTER=base)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--per-kind", type=int, default=60)
    parser.add_argument("--seed", type=int, action="append", help="query set seed (repeatable; default: two seeds)")
    parser.add_argument(
        "--max-expected", type=int, default=None, help="most posts a query may expect (default 3; raise it on a grown corpus, whose titles repeat)"
    )
    parser.add_argument("--tune", action="store_true", help="compare term suggester options (this search only)")
    parser.add_argument("--show", type=int, default=0, help="print N sample queries per kind")
    parser.add_argument("--only", choices=list(SYSTEMS), action="append", help="measure only these systems")
    parser.add_argument("--fail-on-regression", action="store_true", help="exit 1 when the never-worse gate fails")
    parser.add_argument("--misses", action="append", default=[], metavar="KIND", help="list this search's misses at rank 1 of KIND (repeatable)")
    parser.add_argument(
        "--synonym",
        action="append",
        metavar="RULE",
        help=f"a synonym rule loaded for the run (repeatable; default: {'; '.join(SYNONYMS)}; --synonym none: no rule)",
    )
    overrides.add_argument(parser)
    args = parser.parse_args()
    if not (args.corpus / "posts.ndjson").exists():
        sys.exit(f"no corpus at {args.corpus}: pass --corpus DIR")
    overrides.apply(args.set)
    if args.max_expected:
        import bench.querygen

        bench.querygen.MAX_EXPECTED = args.max_expected
    conf.override(WORD_CACHE_SECONDS=0)  # every query measured cold, whatever ran before
    ensure_data(args.corpus)
    posts = load_posts(args.corpus)
    stems = porter_stems(sorted(w for w in title_words(posts) if w.isalpha()))
    systems = {name: fn for name, fn in SYSTEMS.items() if not args.only or name in args.only or name == GATE or name == "this search"}
    rules = [] if args.synonym == ["none"] else args.synonym or SYNONYMS
    print(f"synonym rules loaded for the run: {'; '.join(rules) or 'none'}")
    with synonym_rules(rules):
        regressions = run_seeds(args, systems, stems, posts)
    if args.fail_on_regression and regressions:
        sys.exit(f"{regressions} never-worse regression(s)")


@contextmanager
def synonym_rules(rules: list[str]):
    """The blog's synonym rules replaced by `rules` for the run, the owner's own put back after:
    the gate runs with rules loaded, as a site that uses them does (issue 26)."""
    from search.models import SynonymRule

    kept = list(SynonymRule.objects.values_list("rule", "note"))
    SynonymRule.objects.all().delete()
    SynonymRule.objects.bulk_create([SynonymRule(rule=parse_rule(r).text, note="bench/relevance.py") for r in rules])
    synonyms.changed()
    try:
        yield
    finally:
        SynonymRule.objects.all().delete()
        SynonymRule.objects.bulk_create([SynonymRule(rule=r, note=n) for r, n in kept])
        synonyms.changed()


def run_seeds(args, systems, stems, posts) -> int:
    """Each seed's table and gate; the number of never-worse regressions."""
    regressions = 0
    for seed in args.seed or [20261121, 7]:
        queries = generate(args.corpus, seed=seed, per_kind=args.per_kind, stems=stems, posts=posts)
        kinds = list(dict.fromkeys(q.kind for q in queries)) + summary_rows(queries) + ["ALL typos", "ALL"]
        print(f"\n{len(queries)} queries (seed {seed}, {args.per_kind} per kind) from {args.corpus}", flush=True)
        if args.show:
            for kind in dict.fromkeys(q.kind for q in queries):
                sample = [q for q in queries if q.kind == kind][: args.show]
                print(f"  {kind}: " + "; ".join(f"{q.text!r} ({q.correct})" for q in sample))
        if args.tune:
            tune(queries)
            continue
        ranks: dict = {}
        print(table(evaluate(queries, systems, ranks=ranks), kinds))
        for q in (q for q in queries if q.kind in args.misses and ranks.get(("this search", q.text)) != 1):
            r, rank = search(q.text, use_cache=False), ranks.get(("this search", q.text))
            print(f"  miss {q.kind}: {q.text!r} meant {q.correct!r}: rank {rank}, showing {r.showing_for!r}, did you mean {r.did_you_mean!r}")
        worse, worse_real = gate(queries, ranks), real_gate(queries, ranks)
        regressions += len(worse) + len(worse_real)
        controls, real = sum(q.kind in CONTROL_KINDS for q in queries), sum(q.source in REAL_SOURCES for q in queries)
        print("\n" + listed(f"never-worse gate (seed {seed}): correctly spelled queries ranked worse than {GATE}", worse, controls, ranks, GATE))
        print(listed(f"never-worse gate (seed {seed}): real misspellings ranked worse than {GATE}", worse_real, real, ranks, GATE))
        if any(name == PEER for name, _ in ranks):
            behind = real_gate(queries, ranks, against=PEER)
            print(listed(f"behind {PEER} (reported, no gate; seed {seed}): real misspellings", behind, real, ranks, PEER))
        misses = [q for q in queries if ranks[("this search", q.text)] != 1]
        print(f"not first ({len(misses)}):" + "".join(f"\n  {q.kind} {q.text!r} ({q.correct}): rank {ranks[('this search', q.text)]}" for q in misses[:40]))
    return regressions


if __name__ == "__main__":
    main()
