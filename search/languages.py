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

from search.stopwords import LANGUAGES, analyzer_stop_words

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
    return f"{_NAMES[language]}_stop", {"type": "stop", "stopwords": list(analyzer_stop_words(language))}


def stemmer(language: str, english_stemmer: str) -> tuple[str, dict]:
    _check(language)
    return f"{_NAMES[language]}_stemmer", {"type": "stemmer", "language": STEMMERS.get(language, english_stemmer)}


def stemmed_chain(language: str, english_stemmer: str, *, synonyms: tuple | None = None) -> list[tuple]:
    """The matching chain; `synonyms` (a filter) goes after the folding, before the stemmer: a
    stop filter after a graph filter breaks the graph (search/documents.py)."""
    _check(language)
    extra = [synonyms] if synonyms else []
    if language == "fr":  # the light French stemmer reads accents ("-ère", "-ième"): fold after it
        return [ELISION, LOWERCASE, stop("fr"), *extra, stemmer("fr", english_stemmer), FOLDING]
    head = {"en": [POSSESSIVE, LOWERCASE, stop("en"), FOLDING], "de": [LOWERCASE, stop("de"), GERMAN_NORMALIZATION, FOLDING]}[language]
    return [*head, *extra, stemmer(language, english_stemmer)]


def exact_chain(language: str, *, synonyms: tuple | None = None) -> list[tuple]:
    """The words as written: lowercased and folded, the English possessive or the French article off."""
    _check(language)
    head = {"en": [POSSESSIVE], "de": [], "fr": [ELISION]}[language]
    return [*head, LOWERCASE, FOLDING, *([synonyms] if synonyms else [])]


def without_article(word: str, language: str) -> str:
    """The word with its elided French article off, as the analyzers take it ("c'est": est,
    "L’avion": avion); any other word as it is."""
    if language != "fr":
        return word
    head, mark, rest = word.replace("’", "'").partition("'")
    return rest if mark and rest and head.lower() in FRENCH_ARTICLES else word


# The inflectional endings of a language that its light stemmer strips, longest first (issue 53,
# item 2). A German or French word the blog holds in another form ("tartes" beside "tarte",
# "generierte" beside "generiertem") is no typo: the stemmed fields find it as typed, so it is not
# corrected. Only endings both forms lose to the same stem: German's stemmer strips an "-s" only
# after these letters ("autos" keeps it) and never a lone "-n"; a typed word is only ever read
# without its ending, never as a base ("voitur" is a typo of "voiture", whose stem is another).
ENDINGS = {"de": ("ern", "em", "en", "er", "es", "e", "s"), "fr": ("es", "e", "s", "x")}
# Lucene's GermanLightStemmer (stEnding): "sommers" keeps its "-s", so it is no form of "sommer" here.
GERMAN_S_AFTER = frozenset("bdfghklmnt")
# The shortest base an ending is taken from: "des" is no "de" plus "s".
MIN_BASE = 4


def _strips(word: str, ending: str, language: str) -> bool:
    if not word.endswith(ending) or len(word) - len(ending) < MIN_BASE:
        return False
    # French's stemmer strips a base's own final "s" ("gars": gar), so "garse" and "blogmarkss"
    # stem apart from the word: a doubled "s" is a typo, not a form.
    if language == "fr" and word[: -len(ending)].endswith("s"):
        return False
    return not (language == "de" and ending == "s" and word[-2] not in GERMAN_S_AFTER)


def other_forms(word: str, language: str) -> list[str]:
    """The forms of `word` the blog may hold instead: the word without one ending of the language,
    and that base with each ending. None for English, whose plural rule lives in the corrections."""
    endings = ENDINGS.get(language, ())
    bases = {word[: -len(e)] for e in endings if _strips(word, e, language)}
    forms = {form for base in bases for form in (base, *(base + e for e in endings)) if form == base or _strips(form, form[len(base) :], language)}
    # German doubles no "e" through an ending: "fregee", "unseree" are typos of "frege", "unsere"
    # and stem apart from them ("alleen" is a form of "allee", not of "alle"). Only the bare
    # base goes: "kaffee" and "kaffees", "armee" and "armeen" stay forms of each other.
    if language == "de":
        forms -= {base for base in bases if base.endswith("e") and word[len(base)] == "e"}
    return sorted(forms - {word})


def another_form_held(word: str, language: str, held) -> bool:
    """Whether the blog holds another form of `word` in its language (`held(form)`: the dictionary)."""
    return any(held(form) for form in other_forms(word, language))


# The endings of the forms a light stemmer keeps apart ("sommers": sommer, "usern": user, "studios":
# studio; verbs "schleift": schleife, "listait": liste). A typed word the blog lacks, when the blog holds one of
# these forms, is searched in that form too, as the typed spelling (plan.held_forms). Written
# here, not read from Hunspell: the runtime needs no dictionary, and the benchmark's forms come
# from Hunspell, so they are not this list's own.
APART_ENDINGS = {
    "de": tuple("ern em en er es est et st te e n s t".split()),
    "fr": tuple("aient erait eront erai ions iez ait ais ant ees ent ons ai ee er es ez ir is it a e s x".split()),
}


def apart_forms(word: str, language: str, *, letter: bool = True) -> list[str]:
    """Forms of `word` its stemmer may keep apart: the word without an ending of APART_ENDINGS,
    and that base with each ending. Not the word, nor other_forms(word). The bases first, then
    the fewest letters changed, then alphabetical. None for English. Without `letter`, no base
    loses a one-letter ending: a slip ("racet" for "racket") looks like one."""
    endings = APART_ENDINGS.get(language, ())
    stripped = [e for e in endings if letter or len(e) > 1]
    # A doubled letter is a typo, not an ending: "blogmarkss" is no form of "blogmarks".
    bases = {word[: -len(e)] for e in stripped if word.endswith(e) and len(word) - len(e) >= MIN_BASE and word[-len(e) - 1] != e[0]}
    forms = {form for base in bases for form in (base, *(base + e for e in endings))} - {word, *other_forms(word, language)}
    return sorted(forms, key=lambda form: (form not in bases, abs(len(form) - len(word)), form))


def held_forms(word: str, language: str, held, *, letter: bool = True, limit: int = 1) -> list[str]:
    """The `limit` nearest forms of `word` its stemmer keeps apart that the blog holds (`held(form)`).
    Several, since the nearest may not be the one the reader's post holds ("retrouvant": nearest
    "retrouvent", the title's "retrouvons")."""
    return [form for form in apart_forms(word, language, letter=letter) if held(form)][:limit]
