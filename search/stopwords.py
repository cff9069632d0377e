"""The stop words of each language a site may search in (SEARCH["LANGUAGE"]): the index analyzer
and the `match` fallback both use them.

Lucene's set for the language (what Elasticsearch's `_english_`, `_german_` and `_french_` mean;
the German and French ones are Snowball's lists, BSD licence) plus the question words readers put
around a query ("how to ...", "wie teste ich ...", "comment faire ..."), which carry no meaning for
a blog search. Each word also stands folded as the analyzers fold it ("für": "fur", "où": "ou"), so
a reader who types it without its accent is read the same.
"""

import unicodedata

from search import conf

LUCENE_ENGLISH = (
    "a",
    "an",
    "and",
    "are",
    "as",
    "at",
    "be",
    "but",
    "by",
    "for",
    "if",
    "in",
    "into",
    "is",
    "it",
    "no",
    "not",
    "of",
    "on",
    "or",
    "such",
    "that",
    "the",
    "their",
    "then",
    "there",
    "these",
    "they",
    "this",
    "to",
    "was",
    "will",
    "with",
)
QUESTION_WORDS = ("how", "what", "why", "when", "where", "which", "who", "do", "does", "can", "i")

LUCENE_GERMAN = tuple(
    """
    aber alle allem allen aller alles als also am an ander andere anderem anderen anderer anderes
    anderm andern anderr anders auch auf aus bei bin bis bist da damit dann der den des dem die das
    daß derselbe derselben denselben desselben demselben dieselbe dieselben dasselbe dazu dein deine
    deinem deinen deiner deines denn derer dessen dich dir du dies diese diesem diesen dieser dieses
    doch dort durch ein eine einem einen einer eines einig einige einigem einigen einiger einiges
    einmal er ihn ihm es etwas euer eure eurem euren eurer eures für gegen gewesen hab habe haben
    hat hatte hatten hier hin hinter ich mich mir ihr ihre ihrem ihren ihrer ihres euch im in indem
    ins ist jede jedem jeden jeder jedes jene jenem jenen jener jenes jetzt kann kein keine keinem
    keinen keiner keines können könnte machen man manche manchem manchen mancher manches mein meine
    meinem meinen meiner meines mit muss musste nach nicht nichts noch nun nur ob oder ohne sehr
    sein seine seinem seinen seiner seines selbst sich sie ihnen sind so solche solchem solchen
    solcher solches soll sollte sondern sonst über um und uns unse unsem unsen unser unses unter
    viel vom von vor während war waren warst was weg weil weiter welche welchem welchen welcher
    welches wenn werde werden wie wieder will wir wird wirst wo wollen wollte würde würden zu zum
    zur zwar zwischen
    """.split()
)
LUCENE_FRENCH = tuple(
    """
    au aux avec ce ces dans de des du elle en et eux il je la le leur lui ma mais me même mes moi
    mon ne nos notre nous on ou par pas pour qu que qui sa se ses sur ta te tes toi ton tu un une
    vos votre vous c d j l à m n s t y étée étées étant suis es êtes sont serai seras sera serons
    serez seront serais serait serions seriez seraient étais était étions étiez étaient fus fut
    fûmes fûtes furent sois soit soyons soyez soient fusse fusses fussions fussiez fussent ayant eu
    eue eues eus ai avons avez ont aurai aurons aurez auront aurais aurait aurions auriez auraient
    avais avait aviez avaient eut eûmes eûtes eurent aie aies ait ayons ayez aient eusse eusses eût
    eussions eussiez eussent ceci cela celà cet cette ici ils les leurs quel quels quelle quelles
    sans soi
    """.split()
)
GERMAN_QUESTION_WORDS = ("wie", "was", "warum", "wann", "wo", "welche", "welcher", "welches", "wer", "wieso", "weshalb", "ich", "kann")
# "est" too: Lucene's French list leaves it out (it is also "east"), but "c'est quoi ...",
# "qu'est-ce que ..." and "où est ..." then matched every post that says "is".
FRENCH_QUESTION_WORDS = ("comment", "pourquoi", "quand", "où", "quel", "quelle", "quels", "quelles", "qui", "que", "quoi", "combien", "je", "est")

LANGUAGES = ("en", "de", "fr")


def fold(word: str) -> str:
    """The word without its accents, as asciifolding writes it ("für": "fur", "daß": "dass")."""
    word = word.replace("ß", "ss")
    return "".join(ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch))


def _with_folded(words: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted({w for word in words for w in (word, fold(word))}))


_WRITTEN = {
    "en": LUCENE_ENGLISH + QUESTION_WORDS,
    "de": LUCENE_GERMAN + GERMAN_QUESTION_WORDS,
    "fr": LUCENE_FRENCH + FRENCH_QUESTION_WORDS,
}
_LISTS = {language: _with_folded(words) for language, words in _WRITTEN.items()}
_SETS = {language: frozenset(words) for language, words in _LISTS.items()}
# The English list, as before languages: what a site without SEARCH["LANGUAGE"] uses.
STOP_WORDS: tuple[str, ...] = _LISTS["en"]


def stop_words(language: str) -> tuple[str, ...]:
    """The stop words of `language` (one of LANGUAGES), accented and folded: the query's words
    are looked up folded."""
    return _LISTS[language]


def analyzer_stop_words(language: str) -> tuple[str, ...]:
    """The stop words as written, for the analyzers' stop filter, which runs before the folding:
    "Uber" is no "über" ("meme" no "même"), as in Elasticsearch's own German and French analyzers."""
    return tuple(sorted(set(_WRITTEN[language])))


def is_stop_word_of(word: str, language: str) -> bool:
    """Whether `word` is a stop word of `language` (pure: no settings read)."""
    return word.lower() in _SETS[language]


def is_stop_word(word: str) -> bool:
    """Whether `word` is a stop word of the site's language."""
    return is_stop_word_of(word, conf.get().index.language)
