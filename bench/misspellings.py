"""Real human misspellings from a published list, for the relevance benchmark (issue 48).

The list is codespell's dictionary (the `codespell` package, a benchmark-only dependency): tens of
thousands of misspellings people really wrote in code and prose ("exersize", "jurny", "opague"),
each with its correction. No model of ours made them, so the benchmark can say "worse" when the
correction rule only trusts its own typo model.

The product uses no misspelling list. The list is still cut in two halves by a stable hash of the
misspelling: `tune` is the half a rule may be tuned on, `heldout` the half it is judged on. A rule
tuned on one half that only does well there has learned the list, not how people misspell.

A second list, kept outside the repository, is read when `BIRKBECK_LIST` names its file: the
Birkbeck spelling error corpus (Roger Mitton, Oxford Text Archive; `missp.dat` on his page at
Birkbeck). It holds 36,133 misspellings of 6,136 words written by schoolchildren, students and
adult learners, mostly by sound ("jurney", "exersise"), and far more of them two or more edits
away than codespell's. It is cut in the same two halves. Without the file its kinds are empty.
"""

import functools
import os
import zlib
from pathlib import Path

HALVES = ("tune", "heldout")


def half_of(misspelling: str) -> str:
    """The half a misspelling belongs to: the same on every machine and run."""
    return HALVES[zlib.crc32(misspelling.encode()) % 2]


def _dictionary() -> Path:
    import codespell_lib

    return Path(codespell_lib.__file__).parent / "data" / "dictionary.txt"


@functools.cache
def misspellings(half: str) -> dict[str, tuple[str, ...]]:
    """correct word -> its misspellings in `half`, for entries of one plain lowercase word with
    exactly one correction (codespell lists "wrong->right" lines; several rights mean the writer's
    word is ambiguous, and a reason after a comma marks a word codespell is unsure of)."""
    if half not in HALVES:
        raise ValueError(f"half must be one of {HALVES}")
    out: dict[str, list[str]] = {}
    for line in _dictionary().read_text(encoding="utf-8").splitlines():
        wrong, arrow, right = line.partition("->")
        if not arrow or "," in right or not (wrong.isascii() and wrong.isalpha() and wrong.islower()):
            continue
        if not (right.isascii() and right.isalpha() and right.islower()) or half_of(wrong) != half:
            continue
        out.setdefault(right, []).append(wrong)
    return {right: tuple(sorted(wrongs)) for right, wrongs in out.items()}


@functools.cache
def birkbeck(half: str) -> dict[str, tuple[str, ...]]:
    """correct word -> its misspellings in `half` from the Birkbeck list (module docstring), for
    plain lowercase words; {} when `BIRKBECK_LIST` is unset. The file lists "$right" then its
    misspellings one a line; an underscore stands for a space."""
    if half not in HALVES:
        raise ValueError(f"half must be one of {HALVES}")
    path = os.environ.get("BIRKBECK_LIST")
    if not path:
        return {}
    out: dict[str, list[str]] = {}
    right = ""
    for line in Path(path).read_text(encoding="latin-1").splitlines():
        line = line.strip()
        if line.startswith("$"):
            right = line[1:]
        elif right.isascii() and right.isalpha() and right.islower() and line.isascii() and line.isalpha() and line.islower():
            if line != right and half_of(line) == half:
                out.setdefault(right, []).append(line)
    return {r: tuple(sorted(set(wrongs))) for r, wrongs in out.items()}


LISTS = {"codespell": misspellings, "birkbeck": birkbeck}
