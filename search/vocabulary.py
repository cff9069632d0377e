"""The index's words in each process: a dictionary of every word of the `.exact` fields with its
document count per field, so a query's words are checked, completed and corrected without a request.

Why: the term suggesters answer "is this word in the index, and which words are near it" with a
round trip on every keystroke of the instant box. Meilisearch, Typesense and Algolia answer it in
the process that searches, from a finite-state transducer of the index's words searched with
Levenshtein automata; so do we (the `lexicon` extension, native/lexicon/: a Rust `fst` map from
each word to its three per-field counts, 6.4 MB at 550,000 words; why this one and not the PyPI
candidates: docs/benchmarks.md). It answers three questions (search/querying/candidates.py):

- is this word known, and how many documents hold it in each field (`counts`);
- which words start with this prefix, most frequent first (`completions`);
- which words are within the typo model's reach of this one, or start within it (`within`,
  `prefix_within`); the typo model then scores every candidate (search/querying/suggestions.py).

Built from the index itself at reindex time, stored in PostgreSQL (search.models.Vocabulary, the
map's bytes), with the fresh words the sync recorded since (search.models.FreshWord): how, in
search/vocabulary_build.py. This module only reads: each process loads the map when the index
generation moved *and* the stored row changed, and the fresh words whenever their number moved.
Apart from the building because every web process reads and only `reindex`, `search_vocabulary`
and the sync build: a search never needs the aggregations and term vectors that building reads.
"""

import logging
import threading
from dataclasses import dataclass, field

from django.db import Error

from search import compounds, conf, lemmas, process, soundalikes
from search.models import FreshWord, Vocabulary

try:  # the compiled extension (native/lexicon/, built by `make`); without it searches ask Elasticsearch
    from search._lexicon import Lexicon
except ImportError:  # pragma: no cover - exercised only on a checkout that skipped `make`
    Lexicon = None

log = logging.getLogger(__name__)

FORMAT = "fst1"
MEMO_SIZE = 256  # lookups remembered (a query being typed: ~8 candidates each, 0.4 MB in all) ...
MEMO_CANDIDATES = 8192  # ... and candidates (~1.5 MB): short nonsense words find up to 200 each (256 of them: 5 MB)
NO_COUNTS = (0, 0, 0)


def available() -> bool:
    return Lexicon is not None


def documents_holding(counts) -> int:
    """How many documents hold a word in any searched field, estimated from its per-field counts:
    a post holds title and text, a comment only its comment, so max(title, text) + comment (exact
    when a post whose title holds a word also holds it in its text, a lower bound otherwise)."""
    title, text, comment = counts
    return max(title, text) + comment


@dataclass(frozen=True)
class Dictionary:
    """An immutable snapshot: the built map and the fresh words recorded since (a small map of its
    own, rebuilt when they change). Every answer merges both."""

    built: "Lexicon"
    fresh: "Lexicon | None"
    # The forms of the lemmas the blog holds (search/lemmas.py): German and French blogs only.
    forms: lemmas.FormIndex | None = None
    # Candidates per (word, edits, prefix length, limit): the words of a query being typed are
    # looked up again at every keystroke. Dies with the snapshot; bounded.
    memo: dict = field(default_factory=dict, compare=False, repr=False)
    # The built words by sound (search/soundalikes.py) and by their ends (search/compounds.py),
    # each made on first need.
    sounds: dict = field(default_factory=dict, compare=False, repr=False)

    def sound_index(self):
        index = self.sounds.get("built")
        if index is None:
            index = self.sounds["built"] = soundalikes.build(self.built, documents_holding)
        return index

    def compound_index(self):
        """The built words by their ends (search/compounds.py), made on first need."""
        index = self.sounds.get("compounds")
        if index is None:
            index = self.sounds["compounds"] = compounds.build(self.built, documents_holding)
        return index

    def forms_of(self, word: str) -> list[str]:
        """The blog's words of the lemma of `word` (folded), most documents first (search/lemmas.py)."""
        return self.forms.words_of(word) if self.forms is not None else []

    def counts(self, word: str) -> tuple[int, int, int] | None:
        """The build's counts, or for a word it lacks, the fresh documents' (never both: a word the
        build holds is never fresh, `_refresh` drops any such row)."""
        word = word.lower()
        found = self.built.get(word)
        if found is None and self.fresh is not None:
            return self.fresh.get(word)
        return found

    def __contains__(self, word: str) -> bool:
        """Known: held by at least `min_docs` documents, so never corrected (plan.unknown_words)."""
        counts = self.counts(word)
        return counts is not None and documents_holding(counts) >= conf.get().ranking.known_word_min_docs

    def __len__(self) -> int:
        return len(self.built) + (len(self.fresh) if self.fresh is not None else 0)

    @property
    def nbytes(self) -> int:
        forms = len(self.forms.blob) if self.forms is not None else 0
        return self.built.nbytes + (self.fresh.nbytes if self.fresh is not None else 0) + forms

    def completions(self, prefix: str, limit: int, field: int | None = None) -> list[tuple[str, tuple]]:
        found = dict(self.built.completions(prefix, limit, field))
        if self.fresh is not None:
            for word, _ in self.fresh.completions(prefix, limit, field):
                found[word] = self.counts(word)
        key = (lambda wc: -wc[1][field]) if field is not None else (lambda wc: -sum(wc[1]))
        return sorted(found.items(), key=lambda wc: (key(wc), wc[0]))[:limit]

    def within(self, word: str, max_edits: int, prefix_length: int = 0, limit: int = 1000) -> list[tuple[str, int, tuple]]:
        key = (word, max_edits, prefix_length, limit)
        found = self.memo.get(key)
        if found is None:
            if len(self.memo) >= MEMO_SIZE or sum(map(len, self.memo.values())) >= MEMO_CANDIDATES:
                self.memo.clear()
            found = self.memo[key] = self._within(word, max_edits, prefix_length, limit)
        return found

    def _within(self, word: str, max_edits: int, prefix_length: int, limit: int) -> list[tuple[str, int, tuple]]:
        return self._merge(self.built.within(word, max_edits, prefix_length, limit), self.fresh and self.fresh.within(word, max_edits, prefix_length, limit))

    def prefix_within(self, prefix: str, max_edits: int, limit: int = 50, field: int | None = None) -> list[tuple[str, int, tuple]]:
        found = self._merge(self.built.prefix_within(prefix, max_edits, limit, field), self.fresh and self.fresh.prefix_within(prefix, max_edits, limit, field))
        return sorted(found, key=lambda w: (w[1], -(w[2][field] if field is not None else sum(w[2])), w[0]))[:limit]

    def _merge(self, built: list, fresh: list | None) -> list:
        if not fresh:
            return built
        seen = {w for w, _, _ in built}
        merged = [(w, d, self.counts(w)) for w, d, _ in built] + [(w, d, self.counts(w)) for w, d, _ in fresh if w not in seen]
        return sorted(merged, key=lambda w: (w[1], -sum(w[2]), w[0]))


def from_words(words: dict[str, tuple[int, int, int]], fresh: dict[str, tuple[int, int, int]] | None = None, forms: list[str] | None = None) -> Dictionary:
    """A dictionary of these words (tests, benchmarks); `forms`: lemmas.lines()' lines."""
    index = lemmas.FormIndex(forms) if forms else None
    return Dictionary(Lexicon(Lexicon.build(words.items())), Lexicon(Lexicon.build(fresh.items())) if fresh else None, index)


# ---------------------------------------------------------------- reading (each web process)


class _Loaded:
    """What this process holds: the snapshot, the row's build time it came from, the last fresh
    word read, and the index generation at which that was last checked."""

    def __init__(self):
        self.lock = threading.Lock()
        self.generation = object()  # matches nothing
        self.built = None
        self.data = None
        self.forms: lemmas.FormIndex | None = None
        self.fresh_rows = 0  # FreshWord rows read (some may be words the build has)
        self.dictionary: Dictionary | None = None


_loaded = _Loaded()


def current(generation: int | None) -> Dictionary | None:
    """The dictionary for the index as of `generation`, or None (then the words take the suggest
    request). Two small PostgreSQL reads per generation change per process; a reload of the map
    only when a build stored a new one."""
    state = _loaded
    if generation is None or generation == state.generation:
        return state.dictionary
    with state.lock:
        if generation == state.generation:
            return state.dictionary
        try:
            _refresh(state)
        except Error as exc:  # InterfaceError too (a connection PostgreSQL ended)
            log.warning("the dictionary is unreadable, searching without it: %s", exc)
            return state.dictionary
        state.generation = generation
        return state.dictionary


def _refresh(state: _Loaded) -> None:
    """Reload what changed: the build when its row changed (a stored map that does not load is
    remembered as bad, not retried at every search), and the fresh words whenever their number
    moved (rows are only added between builds; ids are not commit order, so all are re-read).
    The state is replaced at once, never left half updated."""
    prefix = conf.get().index.prefix
    built = Vocabulary.objects.filter(prefix=prefix, format=FORMAT).values_list("built", flat=True).first()
    if built is None or Lexicon is None:
        state.built, state.data, state.dictionary, state.fresh_rows = None, None, None, 0
        return
    data, forms = state.data, state.forms
    if built != state.built:
        row = Vocabulary.objects.filter(prefix=prefix, built=built).values_list("words", "forms").first()
        if row is None:  # replaced or dropped since the line above: the next generation change reads it
            return
        raw, raw_forms = row
        try:
            data = Lexicon(bytes(raw))
        except ValueError as exc:
            log.error("the stored dictionary does not load (%s): searching without it until the next build", exc)
            state.built, state.data, state.dictionary = built, None, None
            return
        forms = lemmas.FormIndex.from_blob(bytes(raw_forms)) if raw_forms else None
    if data is None:
        return  # a bad build, already reported
    if built != state.built or FreshWord.objects.filter(prefix=prefix).count() != state.fresh_rows:
        rows = list(FreshWord.objects.filter(prefix=prefix).values_list("word", "title", "text", "comment"))
        fresh = {word: (title, text, comment) for word, title, text, comment in rows if word not in data}
        extra = Lexicon(Lexicon.build(fresh.items())) if fresh else None
        state.built, state.data, state.forms, state.dictionary = built, data, forms, Dictionary(data, extra, forms)
        state.fresh_rows = len(rows)


def forget() -> None:
    """Drop this process's copy (the next search reloads it)."""
    global _loaded
    _loaded = _Loaded()


process.register("dictionary of the index's words", forget)
