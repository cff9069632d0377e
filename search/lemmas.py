"""A word's other forms by its language's lexicon (issue 53, point 2).

"donneront" and "donne" are forms of "donner"; "sache" and "savez" of "savoir"; "Häuser" and
"Haus" of one German noun. The light stemmers find the regular endings (search/languages.py). A
verb's tenses and irregular forms stem apart, so a reader who types one finds nothing.

simplemma's lexicon knows them: a map from a form to its lemma per language, made from
Wiktionary and other word lists (MIT licence). It holds 250,000 French forms and 1.1 million
German ones: 26 MB and 114 MB once loaded, too much for every web process. So the dictionary's
build reads it once (search/vocabulary_build.py) and keeps only the forms of lemmas the blog
holds, each with the blog's words of that lemma, the lemma first, then most documents first.
For the French test blog that is about 44,000 lines in 1.1 MB. A web process finds a typed
word's line by binary search (`FormIndex`); plan.held_forms searches those words as typed.

Words are folded as the dictionary folds them (words.key_word): "créant" is "creant". English
keeps its plural rule in the corrections and takes no forms here.
"""

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping

from search.soundalikes import SortedLines
from search.stopwords import is_stop_word_of
from search.words import key_word

LANGUAGES = frozenset({"de", "fr"})
# The blog's words stored for each form; the query takes up to ranking.held_forms of them.
STORED = 8
# At most this many lines, about 5 MB a process: a blog holding most of a lexicon's lemmas keeps
# the forms of its commoner words (a German blog holding 80% of them would need 570,000 lines).
MOST_LINES = 200_000
# No form or lemma shorter than this: "sus", "as", "es" are too many things at once.
MIN_LETTERS = 4
SEPARATOR = "\t"

Pairs = Callable[[], Iterable[tuple[str, str]]]


def lexicon(language: str) -> Pairs:
    """simplemma's (form, lemma) pairs of `language`, as a function to walk them again. Imported
    only when called: only a dictionary's build needs it."""
    from simplemma.strategies.dictionaries.dictionary_factory import DefaultDictionaryFactory

    mapping = DefaultDictionaryFactory().get_dictionary(language)
    return lambda: ((form, lemma if isinstance(lemma, str) else lemma.decode()) for form, lemma in mapping.items())


def _written(form: str) -> str:
    """`form` as a reader writes it plainly: lowercase, "ß" as "ss" ("mißt" is "misst"), accents kept."""
    return form.lower().replace("ß", "ss")


def _folded(pairs: Pairs) -> Iterable[tuple[str, str, bool]]:
    """The pairs folded, those of other than letters or too short left out, each with whether
    the form was written so (no accent taken off: "primes", not "prîmes")."""
    fold: dict[str, str] = {}
    for form, lemma in pairs():
        f = form.lower() if form.isascii() else key_word(form)
        lemma = fold.get(lemma) or fold.setdefault(lemma, lemma.lower() if lemma.isascii() else key_word(lemma))
        if len(f) >= MIN_LETTERS and len(lemma) >= MIN_LETTERS and f.isalpha() and lemma.isalpha():
            yield f, lemma, f == _written(form)


def lines(held: Mapping[str, int], pairs: Pairs, language: str, *, stored: int = STORED, most: int = MOST_LINES) -> list[str]:
    """The sorted "form<TAB>word word" lines: each form the blog lacks of a lemma it holds, with
    the blog's words of that lemma, the lemma first, then most documents first; at most `most`
    lines. `held`: the blog's folded words and how many documents hold each; `pairs`: the lexicon
    (walked two or three times). Pure."""
    usable = lambda word: len(word) >= MIN_LETTERS and not is_stop_word_of(word, language)  # noqa: E731
    words_of: dict[str, set[str]] = defaultdict(set)
    for word in held:  # a word the lexicon lacks is its own lemma
        if usable(word):
            words_of[word].add(word)
    for form, lemma, _ in _folded(pairs):
        if form in held and usable(form):
            words_of[lemma].add(form)
    # form -> (the blog's words of its lemmas, those lemmas the blog holds)
    forms: dict[str, tuple[set[str], set[str]]] = defaultdict(lambda: (set(), set()))
    accented: dict[str, tuple[set[str], set[str]]] = defaultdict(lambda: (set(), set()))  # by a form folding took accents off
    for form, lemma, written in _folded(pairs):  # a stop word typed is no other form: "serions" is no "etre"
        if form not in held and lemma in words_of and usable(form):
            words, heads = (forms if written else accented)[form]
            words |= words_of[lemma]
            heads |= {lemma} & words_of[lemma]
    # A word typed plainly is first the word written so: "primes" is a prize's plural (a lemma the
    # blog may lack), not "prîmes" of "prendre". Another form's lemma only where none is written so.
    if accented:  # one more walk, with no folding: a form written so is its own folded form
        written_so = {w for form, _ in pairs() if (w := _written(form)) in accented}
        for form, (words, heads) in accented.items():
            if form not in written_so:
                forms[form][0].update(words)
                forms[form][1].update(heads)
    # The lemma first when the blog holds it (the word a dictionary names: "teste" is of "testen"
    # before "tests"), then most documents first.
    best = {form: sorted(words, key=lambda w: (w not in heads, -held[w], w))[:stored] for form, (words, heads) in forms.items()}
    if len(best) > most:  # a very large blog: the forms whose words more documents hold
        best = dict(sorted(best.items(), key=lambda fw: -max(held[w] for w in fw[1]))[:most])
    return sorted(f"{form}{SEPARATOR}{' '.join(words)}" for form, words in best.items())


class FormIndex(SortedLines):
    """The stored lines of one build: the blog's words of a form's lemma."""

    @classmethod
    def from_blob(cls, blob: bytes) -> "FormIndex":
        index = cls([])
        index.blob, index.count = (blob or b"\n"), max(0, (blob or b"\n").count(b"\n") - 1)
        return index

    def words_of(self, form: str) -> list[str]:
        """The blog's words of the lemma of `form` (folded), the lemma first, then most documents
        first; none if the lexicon lacks it or the blog holds no form of it."""
        found = self.starting(form + SEPARATOR, 1)
        return found[0].partition(SEPARATOR)[2].split() if found else []
