"""Writes search/data/software_names_<language>.txt.gz (en, de, fr): the names of the most
downloaded PyPI packages, for search/names.py.

    .venv/bin/python scripts/export_software_names.py pypi.tsv

The input is a tab-separated list with a header naming the columns `name` and
`rank_among_15000_most_downloaded` (PyPI's download ranks, as the machine's package lists of
2026-12-07 give them; hugovk's top-pypi-packages JSON holds the same ranks). Kept: names of 4
letters or more, a-z only, in byte order, one a line. A reader who types one on a blog that never
mentions it typed a name, not a typo: "memray" is no "memory". Left out, per language: a name a
slip or a sound-alike away from a word the language uses often (Zipf COMMON_ZIPF or more, search/realwords.py, the
language's keyboard): "empy" is likelier empty mistyped, and German "wired" wird.

Why PyPI's ranks: they are a public, dated count of the software people use, made by no model
of ours. npm's names are left out so that bench/data/npm_names.txt measures the list on names
it does not hold (docs/benchmarks.md).
"""

import csv
import gzip
import re
import string
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from search import realwords  # noqa: E402
from search.conf import KEYBOARDS  # noqa: E402
from search.querying.corrections import sure  # noqa: E402

DATA = ROOT / "search" / "data"
RANK = "rank_among_15000_most_downloaded"
NAME = re.compile(r"[a-z]{4,}")
COMMON_ZIPF = 4.5


def one_edit(word: str) -> set[str]:
    """The words one edit from `word`: a letter dropped, swapped with the next, changed or put in."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    dropped = {a + b[1:] for a, b in splits if b}
    swapped = {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    changed = {a + c + b[1:] for a, b in splits if b for c in string.ascii_lowercase}
    return (dropped | swapped | changed | {a + c + b for a, b in splits for c in string.ascii_lowercase}) - {word}


def slip_of_common(name: str, language: str) -> bool:
    """Whether `name` is a slip or a sound-alike of a word `language` uses often: a sure correction
    of a rare real word (search/querying/corrections.py)."""
    keyboard = KEYBOARDS[language]
    return any(
        realwords.zipf(word, language) >= COMMON_ZIPF and sure(name, word, weak_min_length=99, two_min_length=99, slips_only=True, keyboard=keyboard)
        for word in one_edit(name)
    )


def names(path: str) -> list[str]:
    with open(path, encoding="utf-8", newline="") as f:
        rows = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        return sorted({row["name"] for row in rows if (row.get(RANK) or "").isdigit() and NAME.fullmatch(row["name"])})


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    found = names(sys.argv[1])
    for language in KEYBOARDS:
        kept = [name for name in found if not slip_of_common(name, language)]
        (DATA / f"software_names_{language}.txt.gz").write_bytes(gzip.compress(("\n".join(kept) + "\n").encode(), mtime=0))
        print(f"{language}: {len(kept)} of {len(found)} names written")


if __name__ == "__main__":
    main()
