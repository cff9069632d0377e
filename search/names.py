"""Software names a blog may lack, to tell a name from a typo (issue 48's honesty).

A reader who types "memray", "loguru" or "networkx" on a blog that never mentions them typed a
name: the typo model alone showed "memory", "logger" and "networks". The real-word list does not
know them: wordfreq counts words people write, not package names.

search/data/software_names_<language>.txt.gz lists the names of PyPI's most downloaded packages
of four letters or more, but for those a slip or a sound-alike away from a word the blog's
language uses often ("empy": empty; German "wired": wird). scripts/export_software_names.py
writes them: ~5,600 names, 22 kB a language. A word the blog lacks that the list holds is a real
word to corrections.Judge: searched as typed, offered "Did you mean ...?", never corrected in the
reader's place (`ranking.software_names`).

The names are held as one frozenset a language, read on first use (~0.8 MB a process).
"""

import functools
import gzip
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


@functools.cache
def _names(language: str) -> frozenset[str]:
    return frozenset(gzip.decompress((DATA / f"software_names_{language}.txt.gz").read_bytes()).decode().split())


def is_name(word: str, language: str = "en") -> bool:
    """Whether `word` (folded as the analyzers fold it) names one of the packages listed for `language`."""
    return word.lower() in _names(language)
