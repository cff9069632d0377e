"""Where a text splits into words: the one place that says so, for the analyzers, the query and
the synonym rules (pure, no I/O).

Every split here follows the `exact_text` analyzer (search/documents.py: the standard tokenizer
after the `word_joins` character filter, then the possessive filter, lowercase, asciifolding) as
closely as its job needs; tests/test_words.py compares each with Elasticsearch's `_analyze` on
tricky inputs and names every deliberate difference. They are not one pattern because they answer
different questions, each named here with why it differs:

- `words()`: the query's words as the reader typed them, with offsets (the typo model, the
  suggesters, the known-words counts): only whitespace and the word joins separate them, so
  "e-mail" or "c++" stays one word to correct, and Elasticsearch analyses it further.
- `TOKEN`: about the analyzer's tokens, to cap what one query may cost (normalize.py).
- `key_spans()` (with `RULE_WORD`, `key_word`): the analyzer's tokens as a synonym rule's side and
  a query are compared on (search/synonym_rules.py, search/querying/expand.py).
- `one_joined_token()`: whether an ASCII word joined by `'` is one token (the dictionary
  can answer for it: search/querying/candidates.py, plan.py).
- `plain_words()`: `\\w` runs, which only drop stop words from an alternative's text (query.py).

`words()` and `plain_words()` keep a configured symbol word ("c#", "c++", ".net") whole, as the
analyzers' character filters do (search/symbols.py).
"""

import re
import unicodedata
from functools import lru_cache

from search import conf, symbols

# A dot, a colon or an underscore splits words, wherever it is: the analyzers map each of these to
# a space (search/documents.py, `word_joins`: why), and the query's words are split at the same
# characters, so that what was typed and what is indexed agree ("node.js" is node, js;
# "session_start" is session, start). With the full-width and small forms that the query's NFKC
# folds into a dot, a colon or an underscore.
WORD_JOINS = ".:_\uff0e\ufe52\u2024\uff1a\ufe55\ufe13\uff3f\ufe4d\ufe4e\ufe4f\ufe33\ufe34"

# Whitespace separates words, and so do the word joins: each word is what the index holds.
_TYPED = re.compile(rf"[^\s{re.escape(WORD_JOINS)}]+")

# Tokens roughly as the analyzers make them: runs of letters and digits (joined by an inner
# apostrophe, "don't"; a dot splits, "node.js" is two), and each CJK ideograph, kana or Thai
# letter on its own. Never fewer than the analyzer's (it joins "2,000", a katakana word and a Thai
# run into one): counted to cap a query's cost, erring on the safe side.
TOKEN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0e7f]|[^\W_]+(?:['][^\W_]+)*")

# A word of a synonym rule, and of a query a rule rewrites: a token, but a hyphen keeps its parts
# together (key_spans splits them again, keeping each part's offset) and "c++" or "c#" stays whole,
# so that the rules' grammar can name and refuse what the analyzer would read as "c".
RULE_WORD = re.compile(r"[^\W_]+(?:['+#-][^\W_]+)*[+#]*", re.UNICODE)

# ASCII letters and digits joined by a character the standard tokenizer keeps inside a word (`'`;
# a dot, a colon or an underscore no longer join: the analyzers split there).
JOINED = re.compile(r"[A-Za-z0-9]+(?:['][A-Za-z0-9]+)+")

# Runs of word characters (`\w`: letters, digits, `_`). Splits at an apostrophe, unlike the
# analyzer ("don't" is don, t): kept as the query has always built its word clauses (query.py).
_PLAIN = re.compile(r"\w+", re.UNICODE)

_POSSESSIVES = ("'s", "\u2019s")
# Letters asciifolding writes as others that NFKD leaves alone.
_LIGATURES = str.maketrans({"ß": "ss", "œ": "oe", "æ": "ae", "ø": "o", "ł": "l", "đ": "d", "þ": "th"})


@lru_cache(maxsize=8)
def _with_symbol_words(plain: re.Pattern, words: tuple[str, ...]) -> re.Pattern:
    """`plain`, but a configured symbol word ("c#", ".net": search/symbols.py) is one word."""
    found = symbols.matcher(words)
    return re.compile(f"{found.pattern}|{plain.pattern}", re.IGNORECASE) if found else plain


def _splitter(plain: re.Pattern, text: str) -> re.Pattern:
    if not any(ch in text for ch in symbols.SPELLED):  # no symbol word without a symbol
        return plain
    return _with_symbol_words(plain, conf.get().index.symbol_words)


def words(query: str) -> list[tuple[int, int, str]]:
    """(start, end, word) for each word of the query: separated by whitespace, a dot, a colon or an underscore; a
    symbol word ("c#", ".net") is one word."""
    return [(m.start(), m.end(), m.group()) for m in _splitter(_TYPED, query).finditer(query)]


def tokens(text: str) -> list[re.Match]:
    """The TOKEN matches of `text` (at least as many as the analyzer's tokens)."""
    return list(TOKEN.finditer(text))


def plain_words(text: str) -> list[str]:
    """The runs of `\\w` characters of `text` (see _PLAIN for how they differ from tokens)."""
    return _splitter(_PLAIN, text).findall(text)


def key_word(word: str) -> str:
    """A word as the exact analyzer keeps it, near enough to match a rule's side against a query:
    lowercased, the possessive 's dropped, accents folded ("Kirby's" -> kirby, "Café" -> cafe)."""
    word = word.lower().translate(_LIGATURES)  # as asciifolding writes them ("straße": strasse, "cœur": coeur)
    for possessive in _POSSESSIVES:
        word = word.removesuffix(possessive)
    return "".join(ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch))


def key_words(side) -> tuple[str, ...]:
    """key_word() of each word, a hyphenated word as its parts (the tokenizer splits "e-mail")."""
    return tuple(part for w in side for part in key_word(w).split("-") if part)


def rule_words(text: str) -> list[str]:
    """The RULE_WORD words of `text`, as written."""
    return RULE_WORD.findall(text)


def key_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, key) of each word of `text` as the exact analyzer keeps it: RULE_WORD words,
    a hyphenated one as its parts, each keyed by key_word() (an empty key is left out)."""
    return [(m.start() + i, m.start() + i + len(part), key) for m in RULE_WORD.finditer(text) for i, part, key in _parts(m.group())]


def _parts(word: str) -> list[tuple[int, str, str]]:
    """(offset, text, key) of each hyphen-separated part of a word, its key as key_word() makes it."""
    out, offset = [], 0
    for part in word.split("-"):
        key = key_word(part)
        if key:
            out.append((offset, part, key))
        offset += len(part) + 1
    return out


def one_joined_token(word: str) -> bool:
    """Whether `word` is ASCII letters-and-digits runs joined by `'` that the exact analyzer
    keeps as one token, the word lowercased: the standard tokenizer keeps those characters inside a
    word whatever surrounds them (Unicode word-break rules WB6-WB13), and only the possessive "'s"
    is cut (by the possessive filter)."""
    return bool(JOINED.fullmatch(word)) and not word.lower().endswith("'s")
