"""What each language a blog may be written in changes in the analysis (pure; SEARCH["LANGUAGE"]).

Two chains of token filters per language, as Elasticsearch's own language analyzers build them:

- **stemmed** (matching for recall): the language's stop words dropped, accents folded, words
  reduced to their stem. German also normalises umlauts and ß ("Häuser": haus), French drops an
  elided article ("l'avion": avion). The light stemmers are Elasticsearch's choice for its
  `german` and `french` analyzers; English keeps `index.stemmer`.
- **exact** (the words as written, lowercased and folded): the exact tier, the dictionary and the
  suggesters read them. A French article stays off ("d'Air": air), an English possessive too.

Each filter is (name, definition); a definition of None is a filter the server has built in.
Every type named here exists in the full distribution; the development node gets the ones it
lacks from devservices/es-plugin. The stop words come from search/stopwords.py, the list the
`match` fallback drops too.
"""

from search.stopwords import LANGUAGES, stop_words

# The stemmer of each language's matching chain, as Elasticsearch's language analyzers use.
STEMMERS = {"de": "light_german", "fr": "light_french"}

POSSESSIVE = ("english_possessive", {"type": "stemmer", "language": "possessive_english"})
# Elasticsearch's French articles (its `french` analyzer's), matched in any case: "L'avion".
FRENCH_ARTICLES = ["l", "m", "t", "qu", "n", "s", "j", "d", "c", "jusqu", "quoiqu", "lorsqu", "puisqu"]
ELISION = ("french_elision", {"type": "elision", "articles_case": True, "articles": FRENCH_ARTICLES})
LOWERCASE = ("lowercase", None)
FOLDING = ("asciifolding", None)
GERMAN_NORMALIZATION = ("german_normalization", None)

# The names of the filters that the language's own words shape, for the analyzers' settings.
_NAMES = {"en": "english", "de": "german", "fr": "french"}


def _check(language: str) -> None:
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES}, not {language!r}")


def stop(language: str) -> tuple[str, dict]:
    _check(language)
    return f"{_NAMES[language]}_stop", {"type": "stop", "stopwords": list(stop_words(language))}


def stemmer(language: str, english_stemmer: str) -> tuple[str, dict]:
    _check(language)
    return f"{_NAMES[language]}_stemmer", {"type": "stemmer", "language": STEMMERS.get(language, english_stemmer)}


def stemmed_chain(language: str, english_stemmer: str, *, synonyms: tuple | None = None) -> list[tuple]:
    """The matching chain; `synonyms` (a filter) goes after the folding, before the stemmer: a
    stop filter after a graph filter breaks the graph (search/documents.py)."""
    head = {
        "en": [POSSESSIVE, LOWERCASE, stop("en"), FOLDING],
        "de": [LOWERCASE, stop("de"), GERMAN_NORMALIZATION, FOLDING],
        "fr": [ELISION, LOWERCASE, stop("fr"), FOLDING],
    }[language]
    return [*head, *([synonyms] if synonyms else []), stemmer(language, english_stemmer)]


def exact_chain(language: str, *, synonyms: tuple | None = None) -> list[tuple]:
    """The words as written: lowercased and folded, the English possessive or the French article off."""
    _check(language)
    head = {"en": [POSSESSIVE], "de": [], "fr": [ELISION]}[language]
    return [*head, LOWERCASE, FOLDING, *([synonyms] if synonyms else [])]
