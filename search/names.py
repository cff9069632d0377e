"""Software names a blog may lack, to tell a name from a typo (issue 48's honesty).

A reader who types "memray", "loguru" or "toolz" on a blog that never mentions them typed a name:
the typo model alone showed "memory", "logger" and "tools". The
real-word list does not know them (wordfreq counts words people write, not package names).
search/data/software_names.txt.gz lists the names of PyPI's most downloaded packages of four
letters or more, but for those one edit from a very common word ("simpy": simply;
scripts/export_software_names.py, 5,575 names, 22 kB). A word the blog lacks
that the list holds is a real word to corrections.Judge: searched as typed, offered "Did you
mean ...?", never corrected in the reader's place (`ranking.software_names`).

The names are held as one frozenset, read on first use (~0.5 MB a process).
"""

import functools
import gzip
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


@functools.cache
def _names() -> frozenset[str]:
    return frozenset(gzip.decompress((DATA / "software_names.txt.gz").read_bytes()).decode().split())


def is_name(word: str) -> bool:
    """Whether `word` (lowercase, folded) names one of the listed packages."""
    return word in _names()
