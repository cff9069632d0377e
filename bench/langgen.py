"""Seeded test queries for a German or a French blog, made from its titles the way its readers
search (issue 53, point 6; bench/language_relevance.py runs them). Pure but for reading the lists
below; no Django.

Each query comes from one post's title and expects the posts whose title holds the intended words
as tokens, at most MAX_EXPECTED of them (bench/querygen.py's rule). Kinds:

- control: a correctly spelled 1-3 word title phrase
- adjacent_key, transposition, dropped, doubled: one slip in a title word, the neighbouring key
  taken from the readers' keyboard (QWERTZ for German, AZERTY for French: the typo model's own
  layouts, search/querying/typo_model.py)
- phrase2: a 2-word title phrase with one slip; two_typos: a 2-3 word phrase with slips in two words
- autocorrect, autocorrect_heldout: a title word as people misspell it, from LibreOffice's
  autocorrect list for the language (acor_de.dat, acor_fr.dat: pairs its language teams collected)
- confusion, confusion_heldout: a title word misspelled by one of the confusions the language's
  Hunspell dictionary lists for its suggestions (the .aff file's REP table: "ph f", "ss s",
  "ie i", "ai é" ...), applied the other way round. The pairs are the dictionary's; the
  misspellings are made from them, so this kind is not a list of misspellings people wrote
- inflected: a title word in another correct form of the language that the blog does not hold
  anywhere ("generierte" for "generierten", "tartes" for "tarte"). The forms are those the
  language's Hunspell dictionary makes of the word's stem (bench/inflections.py), not the light
  stemmer the index uses; one is drawn as often as people write it (wordfreq's frequencies), so
  the common forms come most. The reader typed no typo: the search must find it without
  "Showing results for"
- question: a 1-3 word title phrase asked as a question in the language, with its stop words
  ("wie funktioniert ...", "qu'est-ce que ...")
- compound (German): the last part of a title's compound, alone ("migration" for a title with
  "Datenbankmigration"). A compound is a title word that splits into two words German uses
  (wordfreq's list, COMPOUND_MIN_ZIPF), the first maybe with a joining "s", "es", "n" or "en"
  or without its "e"; the query is its longest such last part. It expects the posts whose title
  holds a word ending in that part, the part alone included, at least one of them a compound.
  The blog's own dictionary plays no part, so the product's rule is not the test's
- two_slips: a title word of TWO_SLIPS_MIN_WORD letters or more with two slips, two edits from
  it ("fpemat" for "format"). Added last, so the other kinds' queries stay the same

The misspelling kinds are split by a stable hash of the misspelling into a `tune` half and a
`heldout` half, as bench/misspellings.py splits codespell's list. The product uses neither list:
no rule is tuned on them today, so both halves measure unseen cases.

Where the lists come from (and the commands that fetch them): docs/benchmarks.md#german-and-french-blogs.
"""

import functools
import html
import random
import re
import zipfile
import zlib
from pathlib import Path

from bench import querygen
from bench.querygen import MAX_EXPECTED, Query
from search.querying.typo_model import LAYOUTS, osa
from search.stopwords import fold, is_stop_word_of

MIN_WORD = 4
KEYBOARD = {"de": "qwertz", "fr": "azerty"}
HUNSPELL = {"de": "de_DE", "fr": "fr"}
# French articles the index drops before a word ("l'avenir": avenir), Elasticsearch's list.
ELIDED = re.compile(r"^(?:l|m|t|qu|n|s|j|d|c|jusqu|quoiqu|lorsqu|puisqu)['’]")
WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
HALVES = ("tune", "heldout")
# How readers ask (the phrase in its title form). Each wraps the phrase in the language's stop
# words and question words; a few carry a common verb ("funktioniert", "utiliser") as readers type.
QUESTIONS = {
    "de": ["wie {}", "was ist {}", "was sind {}", "warum {}", "wie funktioniert {}", "was ist ein {}", "wie kann ich {}", "gibt es {}", "was bedeutet {}"],
    "fr": ["comment {}", "qu'est-ce que {}", "pourquoi {}", "c'est quoi {}", "comment utiliser {}", "que faire avec {}", "où trouver {}", "quel est le {}"],
}
MECHANICAL = ["adjacent_key", "transposition", "dropped", "doubled"]
CONTROL_KINDS = ("control",)
REAL = {"autocorrect": "tune", "autocorrect_heldout": "heldout", "confusion": "tune", "confusion_heldout": "heldout"}
KINDS = ["control", *MECHANICAL, "phrase2", "two_typos", *REAL, "inflected", "question", "compound", "two_slips"]
# The shortest word the two_slips kind misspells: shorter ones are as often another word.
TWO_SLIPS_MIN_WORD = 5
# A compound's parts: words German uses at least this often (wordfreq's Zipf scale), the last of
# COMPOUND_MIN_PART letters or more, the first too, before the joining letters.
COMPOUND_MIN_ZIPF = 3.0
COMPOUND_MIN_PART = 4
JOINS = ("", "s", "es", "n", "en")


def tokens(text: str, language: str) -> list[str]:
    """A title's words lowercase, accents kept (the queries are typed from them; the exact tier
    folds them, and `Generator.holders` too); a French article is dropped ("l'avenir": avenir)."""
    words = [w.lower() for w in WORD.findall(text)]
    return [ELIDED.sub("", w) for w in words] if language == "fr" else words


def nouns(title: str) -> dict[str, bool]:
    """German: whether each word of a title but its first is written as a noun (capitalized)."""
    words = WORD.findall(title)
    return {w.lower(): w[0].isupper() for w in words[1:]}


def half_of(misspelling: str) -> str:
    return HALVES[zlib.crc32(misspelling.encode()) % 2]


def folded(word: str) -> str:
    return fold(word.lower())


@functools.cache
def autocorrect_pairs(path: str) -> dict[str, tuple[str, ...]]:
    """correct word -> its misspellings, from a LibreOffice autocorrect file (a zip whose
    DocumentList.xml lists abbreviated-name -> name): single words only, and only misspellings
    the analyzers' folding does not already undo ("Cafe" for "Café")."""
    with zipfile.ZipFile(path) as z:
        xml = z.read("DocumentList.xml").decode("utf-8")
    out: dict[str, set[str]] = {}
    for wrong, right in re.findall(r'abbreviated-name="([^"]*)" block-list:name="([^"]*)"', xml):
        wrong, right = html.unescape(wrong).lower(), html.unescape(right).lower()
        if wrong.isalpha() and right.isalpha() and folded(wrong) != folded(right):
            out.setdefault(right, set()).add(wrong)
    return {right: tuple(sorted(w)) for right, w in out.items()}


@functools.cache
def confusions(path: str) -> tuple[tuple[str, str], ...]:
    """A Hunspell .aff file's REP pairs as (in a correct word, what a writer puts instead): REP
    `typed right` suggests `right` for `typed`. Anchored and multi-word pairs, and pairs that
    differ only by accents or case (the index folds them), are left out."""
    pairs = []
    for line in Path(path).read_text(encoding="utf-8", errors="replace").splitlines():
        parts = line.split()
        if len(parts) != 3 or parts[0] != "REP" or parts[1].isdigit():
            continue
        typed, right = parts[1], parts[2]
        if any(c in typed + right for c in "^$_") or folded(typed) == folded(right) or not (typed.isalpha() and right.isalpha()):
            continue
        if typed.islower() and right.islower():
            pairs.append((right, typed))
    return tuple(pairs)


def confused(word: str, pairs, rng: random.Random) -> str | None:
    """The word with one confusion applied at a random place it fits, or None."""
    options = [(m.start(), right, typed) for right, typed in pairs for m in re.finditer(re.escape(right), word)]
    if not options:
        return None
    at, right, typed = rng.choice(options)
    return word[:at] + typed + word[at + len(right) :]


def frequency(word: str, language: str) -> float:
    """How often people write the word: wordfreq's frequency for the language (0 when unseen)."""
    from wordfreq import word_frequency

    return word_frequency(word, language)


def neighbours(ch: str, keyboard: str) -> str:
    return querygen.neighbours(ch, LAYOUTS[keyboard])


def slip(word: str, kind: str, rng: random.Random, keyboard: str) -> str:
    return querygen.typo(word, kind, rng, LAYOUTS[keyboard])


def compound_head(word: str, is_word) -> str | None:
    """The longest last part of a German compound `word` (module docstring), or None;
    `is_word(part)`: whether German uses the part often enough."""
    if not word.isalpha():
        return None
    for k in range(COMPOUND_MIN_PART, len(word) - COMPOUND_MIN_PART + 1):
        first, last = word[:k], word[k:]
        firsts = [first.removesuffix(j) for j in JOINS if j == "" or first.endswith(j)] + [first + "e"]
        if is_word(last) and any(len(f) >= COMPOUND_MIN_PART and is_word(f) for f in firsts):
            return last
    return None


def source(kind: str) -> str:
    if kind in CONTROL_KINDS or kind in ("inflected", "question", "compound"):
        return "none"
    if kind == "two_slips":
        return "two slips"  # its own row: "ALL typos" stays comparable with the figures before it
    return kind.removesuffix("_heldout") if kind in REAL else "keyboard"


class Generator:
    """The queries of one blog: its titles, its words, its language's lists."""

    def __init__(self, posts: list[dict], language: str, *, autocorrect: Path, hunspell: Path, frequency_of=None):
        """`autocorrect`: LibreOffice's acor_<language>.dat; `hunspell`: the folder of the
        language's Hunspell dictionary (de_DE.aff and .dic, fr.aff and .dic); `frequency_of(form)`:
        how often people write a form (default: wordfreq's figure)."""
        from bench.inflections import Inflections

        self.language, self.keyboard = language, KEYBOARD[language]
        self.frequency_of = frequency_of or (lambda form: frequency(form, language))
        self.titles = {p["id"]: tokens(p["title"], language) for p in posts}
        self.folded_titles = {pid: [folded(w) for w in t] for pid, t in self.titles.items()}
        self.nouns = {p["id"]: nouns(p["title"]) if language == "de" else {} for p in posts}
        self.vocabulary = {folded(w) for p in posts for w in tokens(p["title"] + " " + p.get("body_text", ""), language)}
        aff, dic = (hunspell / f"{HUNSPELL[language]}.{ext}" for ext in ("aff", "dic"))
        self.autocorrect, self.confusions = autocorrect_pairs(str(autocorrect)), confusions(str(aff))
        self.inflections = Inflections(aff, dic, language, {w for t in self.titles.values() for w in t})

    def content(self, word: str) -> bool:
        return len(word) >= MIN_WORD and word.isalpha() and not is_stop_word_of(word, self.language)

    def holders(self, words: list[str]) -> list[int]:
        """The posts whose title holds `words` in a row, accents folded as the exact tier folds
        them: "Lanfeust des Etoiles" holds "étoiles" (French capitals often go unaccented)."""
        n, wanted = len(words), [folded(w) for w in words]
        return [pid for pid, t in self.folded_titles.items() if any(t[i : i + n] == wanted for i in range(len(t) - n + 1))]

    def misspell(self, word: str, kind: str, rng: random.Random, noun: bool | None = None) -> str | None:
        """`word` misspelled the way `kind` does, or None when it cannot be; `noun`: whether the
        title writes it as a noun (German), None when it cannot tell."""
        if kind in MECHANICAL:
            bad = slip(word, kind, rng, self.keyboard)
        elif kind == "two_slips":
            bad = self.two_slips(word, rng)
        elif kind.startswith("autocorrect"):
            wrongs = [w for w in self.autocorrect.get(word, ()) if half_of(w) == REAL[kind]]
            bad = rng.choice(wrongs) if wrongs else None
        elif kind.startswith("confusion"):
            bad = confused(word, self.confusions, rng)
            bad = bad if bad and half_of(bad) == REAL[kind] else None
        elif kind == "inflected":
            forms = [f for f in self.inflections.of(word, noun) if folded(f) not in self.vocabulary and folded(f) != folded(word)]
            # Drawn as often as people write each form: "retrouver" far more than "retrouvâmes".
            weights = [self.frequency_of(f) for f in forms]
            bad = rng.choices(forms, weights=weights)[0] if any(weights) else (rng.choice(forms) if forms else None)
        else:
            bad = slip(word, rng.choice(MECHANICAL), rng, self.keyboard)
        # A misspelling the blog holds is a real-word error no suggester can see (querygen's rule).
        if not bad or bad == word or folded(bad) in self.vocabulary:
            return None
        return bad

    def two_slips(self, word: str, rng: random.Random) -> str | None:
        """`word` with two slips of any kind, two edits from it, or None after a few tries."""
        if len(word) < TWO_SLIPS_MIN_WORD:
            return None
        for _ in range(20):
            once = slip(word, rng.choice(MECHANICAL), rng, self.keyboard)
            twice = slip(once, rng.choice(MECHANICAL), rng, self.keyboard)
            if osa(twice, word) == 2 and folded(twice) not in self.vocabulary:
                return twice
        return None

    def compound(self, pid: int, rng: random.Random) -> Query | None:
        """A `compound` query from one of the title's compounds (module docstring), or None."""
        # Zipf is log10 of the frequency per billion words.
        is_word = functools.cache(lambda part: self.frequency_of(part) >= 10 ** (COMPOUND_MIN_ZIPF - 9))
        heads = {w: compound_head(folded(w), is_word) for w in self.titles[pid] if self.language == "de" and len(w) >= 8}
        heads = {w: h for w, h in heads.items() if h}
        if not heads:
            return None
        head = heads[rng.choice(sorted(heads))]
        expected = [i for i, t in self.titles.items() if any(folded(w).endswith(head) for w in t)]
        if not expected or len(expected) > MAX_EXPECTED:
            return None
        return Query("compound", head, head, expected, source="none")

    def make(self, kind: str, pid: int, rng: random.Random) -> Query | None:
        if kind == "compound":
            return self.compound(pid, rng)
        words = self.titles[pid]
        length = {"phrase2": 2, "two_typos": rng.choice([2, 3]), "control": rng.choice([1, 2, 3]), "question": rng.choice([1, 2, 3])}.get(kind, 1)
        if len(words) < length:
            return None
        # One word: any content word of the title; a phrase: any run of the title's words.
        starts = [i for i, w in enumerate(words) if self.content(w)] if length == 1 else range(len(words) - length + 1)
        if not starts:
            return None
        start = rng.choice(starts)
        phrase = words[start : start + length]
        if not all(self.content(w) for w in phrase):
            return None
        expected = self.holders(phrase)
        if not expected or len(expected) > MAX_EXPECTED:
            return None
        wrong, edits = list(phrase), 0
        if kind not in ("control", "question"):
            n_typos = 2 if kind == "two_typos" else 1
            if len(phrase) < n_typos:
                return None
            for i in rng.sample(range(len(phrase)), n_typos):
                bad = self.misspell(phrase[i], kind, rng, self.nouns[pid].get(phrase[i]))
                if bad is None:
                    return None
                wrong[i], edits = bad, max(edits, osa(bad, phrase[i]))
        text = " ".join(wrong)
        if kind == "question":
            text = rng.choice(QUESTIONS[self.language]).format(text)
        return Query(kind, text, " ".join(phrase), expected, source=source(kind), edits=edits)

    def generate(self, *, seed: int, per_kind: int, kinds=None) -> list[Query]:
        rng = random.Random(seed)
        order = list(self.titles)
        rng.shuffle(order)
        queries = []
        for kind in kinds or KINDS:
            made = 0
            for pid in order * 3:  # a title may give a kind several phrases
                if made >= per_kind:
                    break
                query = self.make(kind, pid, rng)
                if query and all(q.text != query.text for q in queries):
                    queries.append(query)
                    made += 1
        return queries
