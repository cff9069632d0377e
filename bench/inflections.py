"""The other inflected forms of a word, from the language's Hunspell dictionary (a published
morphology list; bench/langgen.py's `inflected` kind).

A Hunspell dictionary is a .dic file of stems, each with affix flags, and an .aff file whose SFX
rules say what each flag adds: `SFX X n t e[lr]n` makes "wechselt" of "wechseln". Every form the
suffix rules make of one stem is a form of the same word, so a title word's other forms are the
stem's other expansions. Why a reader written here rather than a library: the Python bindings of
Hunspell check and suggest but do not list a stem's forms, and only the suffix rules are needed.

Not expanded: prefixes (German participles are stems of their own in igerman98), continuation
classes, compounds. Left out: the flags that make another word rather than another form of it
(DERIVATIONS: the German feminine "-in", the "-ung" noun, the "-bar", "-lich" and "-end"
adjectives, the "-chen" diminutive, comparatives), stems allowed only inside compounds,
forbidden words, and a stem that needs an affix as a form of its own.
"""

import re
from dataclasses import dataclass, field
from pathlib import Path

# The flags of igerman98 (de_DE) that make another word or a degree of it: F feminine, J the
# noun in -ung, B the adjective in -bar, L the adjective in -lich, M the diminutive in -chen, D
# the participle in -end, C the comparative and superlative, g the "-innen" forms, e and j
# compound joints. Dicollecte's French flags inflect.
DERIVATIONS = {"de": frozenset("FJBLMDCgej"), "fr": frozenset()}


@dataclass
class Affixes:
    mode: str = "char"  # how flags are written: char, long (two characters), num (comma-separated)
    suffixes: dict[str, list[tuple[str, str, re.Pattern]]] = field(default_factory=dict)
    special: dict[str, str] = field(default_factory=dict)  # NEEDAFFIX, ONLYINCOMPOUND, FORBIDDENWORD -> flag

    def flags(self, text: str) -> list[str]:
        if self.mode == "long":
            return [text[i : i + 2] for i in range(0, len(text) - 1, 2)]
        if self.mode == "num":
            return [f for f in text.split(",") if f]
        return list(text)


def read_aff(path: Path) -> Affixes:
    aff = Affixes()
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] == "FLAG":
            aff.mode = {"long": "long", "num": "num"}.get(parts[1], "char")
        elif len(parts) >= 2 and parts[0] in ("NEEDAFFIX", "ONLYINCOMPOUND", "FORBIDDENWORD"):
            aff.special[parts[0]] = parts[1]
        elif len(parts) >= 5 and parts[0] == "SFX":
            strip, add, condition = parts[2], parts[3].split("/")[0], parts[4]
            strip, add = ("" if strip == "0" else strip), ("" if add == "0" else add)
            try:
                pattern = re.compile(("" if condition == "." else condition) + "$")
            except re.error:
                continue
            aff.suffixes.setdefault(parts[1], []).append((strip, add, pattern))
    return aff


def expand(stem: str, flags: list[str], aff: Affixes, skip: frozenset) -> set[str]:
    """The stem's forms its suffix flags make (the stem itself unless it needs an affix)."""
    forms = set() if aff.special.get("NEEDAFFIX") in flags else {stem}
    for flag in flags:
        if flag in skip:
            continue
        for strip, add, pattern in aff.suffixes.get(flag, ()):
            if stem.endswith(strip) and pattern.search(stem):
                forms.add(stem[: len(stem) - len(strip)] + add)
    return forms


class Inflections:
    """form -> the other forms of its stems, for the stems whose forms may hold `words`. A German
    stem written capitalized is a noun's: `of(word, noun=...)` keeps "Schleifen" (loops) apart
    from the verb "schleifen" (to grind)."""

    def __init__(self, aff_path: Path, dic_path: Path, language: str, words: set[str]):
        aff = read_aff(aff_path)
        barred = {aff.special.get(k) for k in ("ONLYINCOMPOUND", "FORBIDDENWORD")} - {None}
        heads = {w[:3] for w in words}
        self.families: dict[tuple[str, bool], set[str]] = {}
        lines = dic_path.read_text(encoding="utf-8", errors="replace").splitlines()[1:]
        for line in lines:
            entry = line.split()[0] if line.strip() else ""
            stem, _, flag_text = entry.partition("/")
            if not stem or stem.lower()[:3] not in heads:
                continue
            flags = aff.flags(flag_text)
            if barred.intersection(flags):
                continue
            forms = {f.lower() for f in expand(stem, flags, aff, DERIVATIONS[language]) if f.isalpha()}
            for form in forms & words:
                self.families.setdefault((form, stem[0].isupper()), set()).update(forms)

    def of(self, word: str, noun: bool | None = None) -> list[str]:
        """The word's other forms, in a stable order; of its nouns' stems only (noun True), of the
        others only (False), or of both (None)."""
        kinds = (True, False) if noun is None else (noun,)
        return sorted(set().union(*(self.families.get((word, k), set()) for k in kinds)) - {word})
