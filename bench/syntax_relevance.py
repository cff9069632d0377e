"""Relevance of a reader's syntax (issue 36): quoted phrases, -exclusions, words with symbols, a
name and its version; this search against Elasticsearch's `simple_query_string`.

    .venv/bin/python bench/syntax_relevance.py [--seed N ...] [--per-kind 40] [--fail-on-regression]
    make relevance   (runs it after bench/relevance.py, with --fail-on-regression)

Needs the corpus imported and indexed (this script does both when they are missing). The cases come from
bench/syntaxgen.py (seeded, from the corpus files). A case counts when the first result is an
expected post and, for a phrase, every one of the first five results holds the phrase side by
side, for an exclusion none of them holds the excluded word. "Holds" is asked of PostgreSQL, not
of Elasticsearch, so that it can say a search got it wrong: a case-insensitive regular expression
with word boundaries (\\m...\\M, as bench/absent_words.py's held()) over the post's title, its body
and its approved comments. The cases' own premises are checked there too (the expected posts hold
the phrase, and not the excluded word); a case PostgreSQL does not confirm is dropped and counted.

Prints per kind and overall the share of cases that count (and, apart, the share whose first
result is right and whose first five hold), for this search, `simple_query_string` (title 2x,
default_operator and, one entry per post) and, for reference, `multi_match` on the words as
written with the syntax ignored (what the cases score when it is not honoured). Then the
never-worse gate: every case this search does worse than `simple_query_string` (the rank of its
first expected post, counted only where the first five hold, is worse), listed;
--fail-on-regression makes them an exit status. Then this search's failing cases, each with why.
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

from django.db.models import Q  # noqa: E402

from bench import baselines  # noqa: E402
from bench.querygen import load_posts  # noqa: E402
from bench.relevance import SYNONYMS, ensure_data, ours, synonym_rules  # noqa: E402
from bench.syntaxgen import KINDS, SyntaxCase, generate, load_comments  # noqa: E402
from blog.models import Post  # noqa: E402
from search import conf  # noqa: E402

BASELINE = "simple_query_string"


def words_only(query: str):
    """The query's words with the syntax ignored (quotes dropped, `-w` searched as `w`), as the
    search did before issue 36: what a case scores without the syntax being honoured."""
    return baselines.multi_match(" ".join(w.lstrip("-") for w in query.replace('"', " ").split()), exact=True)


SYSTEMS = {
    "this search": ours,
    BASELINE: baselines.simple_query_string,
    "multi_match exact, syntax ignored": words_only,
}
FIVE = 5


def pg_words(text: str) -> str:
    """`text`'s words side by side (one word: itself), whole words, as a PostgreSQL regular expression."""
    return r"\m" + r"\W+".join(text.split()) + r"\M"


def holding(post_ids, text: str) -> set[int]:
    """Which of `post_ids` hold `text` (a word, or words side by side) in the title, the body or an
    approved comment: PostgreSQL's regular expressions, case-insensitive."""
    pattern = pg_words(text)
    found = Q(title__iregex=pattern) | Q(body_text__iregex=pattern) | Q(comments__approved=True, comments__comment__iregex=pattern)
    return set(Post.objects.filter(found, pk__in=list(post_ids)).values_list("pk", flat=True).distinct())


def confirmed(case: SyntaxCase) -> SyntaxCase | None:
    """The case with only the expected posts PostgreSQL agrees with, or None."""
    if case.phrase:
        keep = set(Post.objects.filter(pk__in=case.expected, title__iregex=pg_words(case.phrase)).values_list("pk", flat=True))
    elif case.excluded:
        keep = set(case.expected) - holding(case.expected, case.excluded)
    else:
        return case
    expected = [p for p in case.expected if p in keep]
    return SyntaxCase(case.kind, case.text, expected, phrase=case.phrase, excluded=case.excluded) if expected else None


def judge(case: SyntaxCase, ids: list[int | None]) -> dict:
    """rank: of the first expected post (1-10, None); five: whether the first five results hold the
    phrase / none holds the excluded word (True without either); why: what went wrong, or ""."""
    rank = next((i + 1 for i, pid in enumerate(ids[:10]) if pid in case.expected), None)
    top = [pid for pid in ids[:FIVE] if pid is not None]
    bad = []
    if case.phrase:
        held = holding(top, case.phrase)
        bad = [(i + 1, pid) for i, pid in enumerate(ids[:FIVE]) if pid not in held]
    elif case.excluded:
        held = holding(top, case.excluded)
        bad = [(i + 1, pid) for i, pid in enumerate(ids[:FIVE]) if pid in held]
    why = []
    if rank != 1:
        wanted = describe(case.expected[0]) + (" ..." if len(case.expected) > 1 else "")
        why.append(f"first is {describe(ids[0]) if ids else 'nothing'} (expected {wanted} at {rank or '>10'})")
    if bad:
        what = "holds the excluded word" if case.excluded else "lacks the phrase"
        why.append(f"{what}: " + ", ".join(f"#{i} {describe(pid)}" for i, pid in bad[:3]) + (f" (+{len(bad) - 3})" if len(bad) > 3 else ""))
    return {"rank": rank, "five": not bad, "counts": rank == 1 and not bad, "why": "; ".join(why)}


_titles: dict[int, str] = {}


def describe(pid: int | None) -> str:
    if pid is None:
        return "a comment"
    if pid not in _titles:
        _titles[pid] = Post.objects.filter(pk=pid).values_list("title", flat=True).first() or "?"
    return f"{pid} {_titles[pid][:50]!r}"


def evaluate(cases, systems) -> tuple[dict, dict]:
    """scores[system][kind] = [counted, first right, five hold, n]; verdicts[(system, text)] = judge()."""
    scores = {name: defaultdict(lambda: [0, 0, 0, 0]) for name in systems}
    verdicts = {}
    for case in cases:
        for name, fn in systems.items():
            verdict = judge(case, fn(case.text)[0])
            verdicts[(name, case.text)] = verdict
            for kind in (case.kind, "ALL"):
                row = scores[name][kind]
                row[0] += verdict["counts"]
                row[1] += verdict["rank"] == 1
                row[2] += verdict["five"]
                row[3] += 1
    return scores, verdicts


def table(scores, kinds) -> str:
    """The issue's table (the share of cases that count, per kind), then the share whose first
    result is right / whose first five hold."""
    head = ["all", *kinds]
    rows = {k: "ALL" if k == "all" else k for k in head}
    n = {k: scores["this search"][kind][3] for k, kind in rows.items()}

    def one(title: str, cell) -> list[str]:
        lines = [f"| candidate | {' | '.join(f'{k}{title} ({n[k]})' for k in head)} |", "| --- | " + " | ".join("---" for _ in head) + " |"]
        return lines + [f"| {name} | " + " | ".join(cell(*by[rows[k]]) for k in head) + " |" for name, by in scores.items()]

    counted = one("", lambda counts, _right, _five, n: f"{counts / n:.3f}")
    parts = one(" first / five", lambda _counts, right, five, n: f"{right / n:.3f} / {five / n:.3f}")
    return "\n".join([*counted, "", *parts])


def score(verdict: dict) -> int:
    """A case's rank for the gate: the first expected post's, only where the first five hold (else 99)."""
    return verdict["rank"] if verdict["rank"] and verdict["five"] else 99


def gate(cases, verdicts) -> list:
    """The cases this search does worse than simple_query_string."""
    return [c for c in cases if score(verdicts[("this search", c.text)]) > score(verdicts[(BASELINE, c.text)])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--per-kind", type=int, default=40)
    parser.add_argument("--seed", type=int, action="append", help="case set seed (repeatable; default: two seeds)")
    parser.add_argument("--show", type=int, default=0, help="print N sample cases per kind")
    parser.add_argument("--fail-on-regression", action="store_true", help="exit 1 when the never-worse gate fails")
    parser.add_argument(
        "--synonym", action="append", metavar="RULE", help=f"a synonym rule loaded for the run (default: {'; '.join(SYNONYMS)}; --synonym none: no rule)"
    )
    args = parser.parse_args()
    if not (args.corpus / "posts.ndjson").exists():
        sys.exit(f"no corpus at {args.corpus}: pass --corpus DIR")
    conf.override(WORD_CACHE_SECONDS=0)  # every query measured cold
    ensure_data(args.corpus)
    posts, comments = load_posts(args.corpus), load_comments(args.corpus)
    rules = [] if args.synonym == ["none"] else args.synonym or SYNONYMS
    print(f"synonym rules loaded for the run: {'; '.join(rules) or 'none'}")
    regressions = 0
    with synonym_rules(rules):
        for seed in args.seed or [20261121, 7]:
            regressions += run_seed(args, seed, posts, comments)
    if args.fail_on_regression and regressions:
        sys.exit(f"{regressions} never-worse regression(s) of the reader's syntax")


def run_seed(args, seed: int, posts, comments) -> int:
    made = generate(args.corpus, seed=seed, per_kind=args.per_kind, posts=posts, comments=comments, symbol_words=conf.get().index.symbol_words)
    cases = [c for c in map(confirmed, made) if c is not None]
    dropped = len(made) - len(cases)
    print(f"\n{len(cases)} syntax cases (seed {seed}, at most {args.per_kind} per kind) from {args.corpus}; {dropped} dropped (PostgreSQL disagrees)")
    for kind in KINDS if args.show else ():
        print(f"  {kind}: " + "; ".join(f"{c.text!r} {c.expected}" for c in [c for c in cases if c.kind == kind][: args.show]))
    scores, verdicts = evaluate(cases, SYSTEMS)
    print(table(scores, [k for k in KINDS if scores["this search"][k][3]]), flush=True)
    worse = gate(cases, verdicts)
    print(
        f"\nnever-worse gate (seed {seed}): syntax cases this search does worse than {BASELINE}: {len(worse)} of {len(cases)}"
        + "".join(f"\n  {c.kind} {c.text!r}: {verdicts[('this search', c.text)]['why']}" for c in worse)
    )
    misses = [c for c in cases if not verdicts[("this search", c.text)]["counts"]]
    print(f"this search, not counted ({len(misses)}):" + "".join(f"\n  {c.kind} {c.text!r}: {verdicts[('this search', c.text)]['why']}" for c in misses))
    return len(worse)


if __name__ == "__main__":
    main()
