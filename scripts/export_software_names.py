"""Writes search/data/software_names.txt.gz: the names of the most downloaded PyPI packages, for
search/names.py.

    .venv/bin/python scripts/export_software_names.py pypi.tsv

The input is a tab-separated list with a header naming the columns `name` and
`rank_among_15000_most_downloaded` (PyPI's download ranks, as the machine's package lists give
them; hugovk's top-pypi-packages JSON holds the same ranks). Kept: names of 4 letters or more,
a-z only, in byte order, one a line. A reader who types one on a blog that never mentions it
typed a name, not a typo: "memray" is no "memory". Left out: a name one edit from a word English
uses very often (Zipf COMMON_ZIPF or more, search/realwords.py): "empy" and "simpy" are likelier
empty and simply mistyped, "thinc" think.

Why PyPI's ranks: they are a public, dated count of the software people use, made by no model
of ours. npm's names are left out so that bench/data/npm_names.txt measures the list on names
it does not hold (docs/benchmarks.md).
"""

import csv
import gzip
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from search import realwords  # noqa: E402

DATA = ROOT / "search" / "data"
RANK = "rank_among_15000_most_downloaded"
NAME = re.compile(r"[a-z]{4,}")
COMMON_ZIPF = 5.0
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def one_edit(word: str) -> set[str]:
    """The words one edit from `word`: a letter dropped, swapped with the next, changed or put in."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    dropped = {a + b[1:] for a, b in splits if b}
    swapped = {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    changed = {a + c + b[1:] for a, b in splits if b for c in LETTERS}
    return dropped | swapped | changed | {a + c + b for a, b in splits for c in LETTERS}


def near_common(word: str) -> bool:
    """Whether a word English uses very often is one edit from `word`."""
    return any(realwords.zipf(other) >= COMMON_ZIPF for other in one_edit(word) - {word})


def names(path: str) -> list[str]:
    with open(path, encoding="utf-8", newline="") as f:
        rows = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        found = {row["name"] for row in rows if (row.get(RANK) or "").isdigit() and NAME.fullmatch(row["name"])}
    return sorted(name for name in found if not near_common(name))


def main() -> None:
    found = names(sys.argv[1])
    (DATA / "software_names.txt.gz").write_bytes(gzip.compress(("\n".join(found) + "\n").encode(), mtime=0))
    print(f"{len(found)} names written")


if __name__ == "__main__":
    main()
