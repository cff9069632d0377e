"""Writes search/data/software_names.txt.gz: the names of the most downloaded PyPI packages, for
search/names.py.

    .venv/bin/python scripts/export_software_names.py pypi.tsv

The input is a tab-separated list with a header naming the columns `name` and
`rank_among_15000_most_downloaded` (PyPI's download ranks, as the machine's package lists give
them; hugovk's top-pypi-packages JSON holds the same ranks). Kept: names of 4 letters or more,
a-z only, in byte order, one a line. A reader who types one on a blog that never mentions it
typed a name, not a typo: "memray" is no "memory".

Why PyPI's ranks: they are a public, dated count of the software people use, made by no model
of ours. npm's names are left out so that bench/data/npm_names.txt measures the list on names
it does not hold (docs/benchmarks.md).
"""

import csv
import gzip
import re
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "search" / "data"
RANK = "rank_among_15000_most_downloaded"
NAME = re.compile(r"[a-z]{4,}")


def names(path: str) -> list[str]:
    with open(path, encoding="utf-8", newline="") as f:
        rows = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        return sorted({row["name"] for row in rows if (row.get(RANK) or "").isdigit() and NAME.fullmatch(row["name"])})


def main() -> None:
    found = names(sys.argv[1])
    (DATA / "software_names.txt.gz").write_bytes(gzip.compress(("\n".join(found) + "\n").encode(), mtime=0))
    print(f"{len(found)} names written")


if __name__ == "__main__":
    main()
