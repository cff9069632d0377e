"""Alternatives -> Elasticsearch request bodies (pure, no I/O; tested as plain dicts).

One query ranks every spelling alternative in **tiers**, so that the order of results follows
rules a reader can predict instead of the accidents of BM25 arithmetic:

    tier                 what a document must hold                        weight
    title.exact.phrase   the alternative as a phrase in its title, as written  128
    title.exact.words    every non-stop word in its title, any order, as written 64
    title.stem.phrase    the phrase in its title, up to stemming                 32
    title.stem.words     every non-stop word in its title, up to stemming        16
    body.exact.phrase    the phrase in its text or comment, as written            8
    body.stem.phrase     ... up to stemming                                       4
    title.most.words     most non-stop words of a long query in its title         2
    all.words            every non-stop word across title, text and comment       1

Each tier is a `constant_score` clause per alternative, weighted by the tier and by the
alternative's own weight (what was typed 1.0; a correction less, falling with its rank and score
as in the original algorithm: w = (n - i) * s / (n * TYPED_SCORE)). The clauses of one tier sit in
a `dis_max`, so a document counts the best alternative that put it in that tier, once. The weights
are powers of two, so a document in a higher tier outranks every document that only collects lower
ones (exact implies stemmed and phrase implies words, so a document collects every tier below its
best), and within a tier what was typed outranks a correction.

Inside a tier, BM25 orders documents: `multi_match` clauses over the alternatives' words (title
weighing TITLE_BOOST times the text, as the original did; a word the alternatives share read once,
_shared_words), scaled down by RELEVANCE_WEIGHT so that it breaks ties without crossing tiers.
The title counts twice, stemmed and as written, so a title holding a word as typed comes before
one holding another form of it ("operations" before "Operation"). It also lets documents holding
only some of the words match at all, last: the original's separate `match` fallback request is
no longer needed.

`title.most.words` is for the words a reader puts around a title ("the one about hack day at the
guardian", "a post on why firefox is blocked"): words the title lacks keep it out of every tier
that needs every word, and a long post holding them all anywhere (all.words) came first. From
MOST_WORDS_FROM non-stop words, a title holding all but MOST_WORDS_MATCH of them (-40%: one of
three or four, two of five to seven) reaches it. Its alternatives weigh the same there: a loose
tier is where the typed alternative's misspelled word is likeliest to be the one left out ("how
to launch a new lroduct" held by a title with "about", "launch" and "new"), so BM25 orders its
documents instead (stop_title 0.939 -> 0.981 s@1 over six seeds, the other kinds unchanged:
docs/benchmarks.md).

A title holding the typed query's rarer words reaches it too, its far commoner words left out
(frequent_words: "funktioniert" in "wie funktioniert node"; the dictionary's counts, no request),
and so does a title holding its other words when no title holds a word ("bedeutet").

Why tiers: porter stemming merges "pelicans" with "pelican" and "venues" with "venus"; with BM25
alone a stemmed match in a short title outranks the word the reader typed. And a single comment
holding a phrase no longer hides every post whose title holds its words.

Clauses are named `alt<i>.<tier>` (names must be unique: Elasticsearch keeps one query per name), so
a hit tells which alternative and which tier it matched (the debug table and "Showing results for").
"""

import unicodedata
from collections.abc import Mapping

from search import conf, symbols
from search.alternative import Alternative
from search.conf import TIER_NAMES
from search.documents import EXACT, EXACT_SYNONYMS, RESULT_FIELDS, SEARCHED_FIELDS, STEM_SYNONYMS
from search.querying import facets
from search.stopwords import is_stop_word
from search.words import key_word, plain_words
from search.words import words as words_of

# How the top hit was found (the debug table, the API's `strategy`, the search log): by a phrase
# tier, or only by the words.
PHRASE = "phrase"
WORDS = "words"
# The orders a reader may choose (`?sort=`): by the tiers (the default), or newest first.
RELEVANCE, NEWEST = "relevance", "new"
SORTS = (RELEVANCE, NEWEST)
TITLE, TEXT, COMMENT = SEARCHED_FIELDS
BODIES = [TEXT, COMMENT]

# The tiers, best first, are named with their weights in search/conf.py (ranking.tiers);
# `some.words` is the BM25 clause that every tier sits on.
SOME_WORDS = "some.words"
# A clause matched with the last word as a prefix is named alt<i>c.<tier>.
COMPLETED = "c"
# A clause of several alternatives' words is named alt<i>+<j>.some.words (_shared_words).
ALSO = "+"
# Words a phrase prefix's last word may stand for (Elasticsearch's default is 50: too few after
# three letters, where the instant box starts).
PREFIX_EXPANSIONS = 200
# The instant box's clause of a title holding some of the words (build_query's title_weight): no tier.
TITLES_FIRST = "titles.first"
# A title holding most of a long query's words; off by default in the builder (the settings turn it on).
MOST_WORDS = "title.most.words"
NO_MOST_WORDS = (0, "-1")
# No word is frequent (build_query's `frequent`: documents per word, the ratio, the words no title holds).
NO_FREQUENT: tuple[dict, float, frozenset] = ({}, 0.0, frozenset())
PHRASE_TIERS = frozenset(t for t in TIER_NAMES if t.endswith(".phrase"))
_ORDER = {name: i for i, name in enumerate(TIER_NAMES + (SOME_WORDS,))}


def without_symbols(text: str) -> str:
    """The text with emoji and other symbols blanked out: the tokenizer makes tokens of them, which no
    phrase of the blog continues ("🔥 firefox extension" would match no title as a phrase)."""
    if text.isascii():
        return text
    return " ".join("".join(" " if unicodedata.category(ch) in ("So", "Sk") or "\ufe00" <= ch <= "\ufe0f" else ch for ch in text).split())


def without_stop_words(text: str) -> str:
    return " ".join(w for w in plain_words(text) if not is_stop_word(w))


def weights(alternatives: list[Alternative]) -> list[float]:
    """Each alternative's weight: 1.0 for the first (what was typed), then falling with rank and score."""
    n = len(alternatives)
    if not n:
        return []
    top = n * alternatives[0].score
    return [round((n - i) * alt.score / top, 4) for i, alt in enumerate(alternatives)]


def boosts(alternatives: list[Alternative], *, tiers: dict) -> list[dict]:
    """Per alternative: the constant score each tier gives it (for the debug table), highest first."""
    return [{tier: round(weight * w, 4) for tier, weight in tiers.items()} for w in weights(alternatives)]


def frequent_words(words: list[str], holding: Mapping[str, int], ratio: float, untitled: frozenset[str] = frozenset()) -> set[str]:
    """The words of `words` held by at least `ratio` times as many documents as the rarest of them,
    and those no title holds (`untitled`, by key_word(): "bedeutet" in "was bedeutet monade") held
    by as many as the rarest other: MOST_WORDS lets a title holding the others as written lack them. Empty
    when a word is in no document (a typo is the corrections' business) and with fewer than two
    words. `holding`: documents per key_word()."""
    if not ratio or len(words) < 2:
        return set()
    counts = [holding.get(key_word(w), 0) for w in words]
    if min(counts) <= 0:
        return set()
    titled = [n for w, n in zip(words, counts, strict=True) if key_word(w) not in untitled]
    if not titled:
        return set()
    rarest = min(titled)  # an untitled word rarer than that is the query's point ("django xyzzylib"): kept
    lacking = {w for w, n in zip(words, counts, strict=True) if key_word(w) in untitled and n >= rarest}
    return lacking | {w for w, n in zip(words, counts, strict=True) if n >= ratio * rarest}


def _frequent(alt: Alternative, words: str, holding: Mapping[str, int], ratio: float, untitled: frozenset[str] = frozenset()) -> set[str]:
    """frequent_words() of what was typed, or of its held form; none of a correction, whose rare
    word would make the reader's own words optional ("procedural lacrosse" for "procedural
    macroses"), nor of a synonym alternative."""
    return frequent_words(words.split(), holding, ratio, untitled) if (alt.typed or alt.form_of) and not alt.synonym_of else set()


def _tier_clauses(
    text: str, words: str, *, synonyms: bool = False, most_words: tuple[int, str] = NO_MOST_WORDS, frequent: set[str] = frozenset()
) -> dict[str, dict]:
    """The query of each tier for one alternative (phrase tiers need the text, word tiers its non-stop words).

    With `synonyms`, the same clauses analyze the text with the synonym analyzers of the field's
    family (search/documents.py), in which Elasticsearch applies the blog's rules: "js" is the
    words js or javascript, a rule of several words a phrase. `combined_fields` takes no analyzer:
    its synonym form is the `cross_fields` multi_match, which with one analyzer for every field
    also matches the words across title, text and comment as one field."""
    exact = lambda field: f"{field}.{EXACT}"  # noqa: E731
    by_exact = {"analyzer": EXACT_SYNONYMS} if synonyms else {}
    by_stem = {"analyzer": STEM_SYNONYMS} if synonyms else {}
    clauses = {
        "title.exact.phrase": {"match_phrase": {exact(TITLE): {"query": text, **by_exact}}},
        "title.stem.phrase": {"match_phrase": {TITLE: {"query": text, **by_stem}}},
        "body.exact.phrase": {"multi_match": {"query": text, "type": "phrase", "fields": [exact(f) for f in BODIES], **by_exact}},
        "body.stem.phrase": {"multi_match": {"query": text, "type": "phrase", "fields": BODIES, **by_stem}},
    }
    # With one word, "every word" is the phrase again: those tiers would only double its weight.
    if words and (len(words.split()) > 1 or words.lower() != text.lower()):
        every = {"query": words, "operator": "and"}
        across = {"combined_fields": {**every, "fields": list(SEARCHED_FIELDS)}}
        if synonyms:
            across = {"multi_match": {**every, "type": "cross_fields", "fields": list(SEARCHED_FIELDS), **by_stem}}
        clauses.update(
            {
                "title.exact.words": {"match": {exact(TITLE): {**every, **by_exact}}},
                "title.stem.words": {"match": {TITLE: {**every, **by_stem}}},
                "all.words": across,
            }
        )
        least, should_match = most_words
        if least and len(words.split()) >= least:
            clauses[MOST_WORDS] = {"match": {TITLE: {"query": words, "minimum_should_match": should_match, **by_stem}}}
        rare = " ".join(w for w in words.split() if w not in frequent)
        if frequent and rare:  # "wie funktioniert node": a title holding "node" (frequent_words)
            needs = {"match": {exact(TITLE): {"query": rare, "operator": "and", **by_exact}}}  # as counted: as written
            clauses[MOST_WORDS] = {"bool": {"should": [clauses[MOST_WORDS], needs]}} if MOST_WORDS in clauses else needs
    return clauses


def as_prefix(word: str) -> str:
    """A word as a prefix query's value, which Elasticsearch does not analyze: lowercased and, a
    Latin word, folded as the fields hold words ("Einfü" -> "einfu", which starts "einfuhrung"),
    and a symbol word as the token its character filter writes ("C#" -> "csharp": search/symbols.py)."""
    folded = key_word(word)  # asciifolding leaves other scripts alone: "Αθήν" stays "αθήν"
    return symbols.indexed(folded if folded.isascii() else word.lower(), conf.get().index.symbol_words)


def _words(text: str) -> list[str]:
    """The words of `text` as the analyzers split them (a dot or a colon splits too: search/words.py)."""
    return [w for _, _, w in words_of(text)]


def last_word(text: str) -> str:
    found = _words(text)
    return found[-1].lower() if found else ""


def _completing_words(head: list[str], last: str) -> str:
    """The words a completion's "every word" clause matches: the finished ones but stop words, then
    the unfinished last (kept even when it starts like a stop word: "the" may become "theme")."""
    return " ".join([*(w for w in head if not is_stop_word(w)), last])


def _completion_clauses(text: str, *, stems: bool) -> dict[str, dict]:
    """The title tiers of one alternative whose last word may be unfinished: that word as the
    start of a longer one ("firefox ext" -> "firefox extension"). Titles only: a prefix expands
    to every word it starts, which over the titles' words is cheap and over the bodies' doubled a
    correctly spelled query's Elasticsearch time (bench/es_cost.py); the bodies still match the
    words typed so far.

    With `stems`, the stemmed title tiers repeat the exact prefix clauses (a stem's prefix means
    nothing typed): a title holding a word as written holds its stem too, and a document collects
    every tier below its best one, which is what the tiers' order rests on. Without them a
    completion collected only the exact tier, and a correction of the last word that also reached a
    stemmed tier through what was typed outranked every completion ("elastics": its stem is
    "elastic", in a title the correction "elastic" also put in the exact tier) and showed "Showing
    results for elastic". Only then are they needed, so build_query asks for them only when some
    alternative corrects the last word: sent with every completion they cost 6-9% of a query's
    Elasticsearch time (measured interleaved with and without, fresh queries). In a stemmed tier's
    dis_max the typed word's own stemmed match still counts once ("agent" keeps "Agent" above
    "Agents")."""
    field = f"{TITLE}.{EXACT}"
    *head, last = _words(text)
    if not head:  # one word: a prefix query, which (unlike a phrase prefix) never stops expanding early
        started = {"prefix": {field: {"value": as_prefix(last)}}}
        return {"title.exact.phrase": started, **({"title.stem.phrase": started} if stems else {})}
    words = _completing_words(head, last)
    phrase = {"match_phrase_prefix": {field: {"query": text, "max_expansions": PREFIX_EXPANSIONS}}}
    every = {"match_bool_prefix": {field: {"query": words, "operator": "and"}}}
    clauses = {"title.exact.phrase": phrase, "title.exact.words": every}
    return {**clauses, "title.stem.phrase": phrase, "title.stem.words": every} if stems else clauses


def _fuzzy_completion(text: str, fuzziness: str) -> dict | None:
    """The instant box's last resort for a title: its words up to `fuzziness` edits each, the last
    as the start of a word ("the torm wor" -> "The Storm Worm", "bars near nort" -> "Polar bears
    near north pole"). The typo of a finished word the dictionary left alone (no sure correction,
    or a word that only bodies hold: "stat", "bars") kept the title out of every completion tier.
    build_query sends it only when asked (search/querying/plan.py: a word before the last is in no
    title): sent with every keystroke it cost a fifth more of Elasticsearch's time; one edit a word
    costs 1.12x on the keystrokes it is sent with (two edits for long words, "AUTO", 1.40x and
    found no more): bench/fuzzy_completion_cost.py."""
    *head, last = _words(text)
    if not head:
        return None
    return {"match_bool_prefix": {f"{TITLE}.{EXACT}": {"query": _completing_words(head, last), "operator": "and", "fuzziness": fuzziness}}}


def _some_words(words: str, name: str, *, title_boost: float, boost: float, synonyms: bool = False) -> dict:
    """BM25 over words, the title weighed more and counted as written too: the order inside a
    tier, and a match at all for a document holding only some of the words."""
    # The title as written too; not under the synonym analyzer, which would stem it.
    exact = [] if synonyms else [f"{TITLE}.{EXACT}^{title_boost}"]
    fields = [f"{TITLE}^{title_boost}", *exact, *BODIES]
    clause = {"query": words, "fields": fields, "type": "most_fields", "boost": boost, "_name": f"alt{name}.{SOME_WORDS}"}
    return {"multi_match": {**clause, "analyzer": STEM_SYNONYMS} if synonyms else clause}


def _shared_words(parts: list[tuple[int, str, float, bool]], *, title_boost: float) -> list[dict]:
    """The alternatives' BM25 clauses, each word read once. `parts`: (index, words, boost, synonyms)
    of each alternative. A word's score is its own in every field (BM25 sums the terms), so one
    clause of a word weighed the sum of its alternatives' boosts scores every document as a clause
    per alternative did. The spellings of a misspelled query share most words: read once, a
    common word no longer visits its documents once per spelling (docs/benchmarks.md#100x-the-corpus).
    The words the same alternatives hold make one clause, named `alt<i>+<j>.some.words` (a name
    once: Elasticsearch keeps one query per name). A word an alternative holds twice ("react vs
    react native") is written twice in the clause of the alternatives holding it twice, as a
    clause per alternative counted it. A synonym alternative keeps its own clause: the rules'
    analyzer reads its words."""
    holding: dict[tuple[str, int], list[int]] = {}  # (word, n) -> the alternatives holding it n times or more
    spelled: dict[str, str] = {}  # word -> as first typed
    boosts = {i: boost for i, _, boost, synonyms in parts if not synonyms}
    for i, words, _, synonyms in parts:
        seen: dict[str, int] = {}
        for word in [] if synonyms else words.split():
            seen[word.lower()] = seen.get(word.lower(), 0) + 1
            holding.setdefault((word.lower(), seen[word.lower()]), []).append(i)
            spelled.setdefault(word.lower(), word)
    groups: dict[tuple[int, ...], list[str]] = {}
    for (word, _), found in holding.items():
        groups.setdefault(tuple(found), []).append(spelled[word])
    shared = [
        _some_words(" ".join(words), ALSO.join(map(str, found)), title_boost=title_boost, boost=round(sum(boosts[i] for i in found), 6))
        for found, words in groups.items()
    ]
    return shared + [_some_words(words, str(i), title_boost=title_boost, boost=boost, synonyms=True) for i, words, boost, synonyms in parts if synonyms]


def _titles_first(words: str, i: int, boost: float, *, synonyms: bool) -> dict:
    """The instant box's clause of alternative `i`: a title holding some of its words (build_query)."""
    some = {"match": {TITLE: {"query": words, **({"analyzer": STEM_SYNONYMS} if synonyms else {})}}}
    return {"constant_score": {"filter": some, "boost": boost, "_name": f"alt{i}.{TITLES_FIRST}"}}


def _scored_tiers(
    text: str, words: str, i: int, w: float, *, tiers: dict, synonyms: bool, most_words: tuple[int, str], frequent: set[str] = frozenset()
) -> list[tuple[str, dict]]:
    """(tier, constant-score clause) of alternative `i` (weight `w`) in each tier the settings keep.
    In MOST_WORDS every alternative weighs the same, so BM25 orders them (the module's docstring)."""
    out = []
    for tier, clause in _tier_clauses(text, words, synonyms=synonyms, most_words=most_words, frequent=frequent).items():
        if tier in tiers:
            boost = tiers[tier] if tier == MOST_WORDS else tiers[tier] * w
            out.append((tier, {"constant_score": {"filter": clause, "boost": round(boost, 4), "_name": f"alt{i}.{tier}"}}))
    return out


def _scored_completions(text: str, i: int, w: float, *, tiers: dict, stems: bool, fuzziness: str) -> list[tuple[str, dict]]:
    """(tier, constant-score clause) of the completions of alternative `i` (weight `w`, completion
    weight included), and with `fuzziness` its fuzzy title words (in MOST_WORDS; asked for what was
    typed only, whose weight is 1, so that tier's rule of equal weights holds)."""
    clauses = [(tier, clause, w) for tier, clause in _completion_clauses(text, stems=stems).items()]
    fuzzy = _fuzzy_completion(text, fuzziness) if fuzziness else None
    if fuzzy is not None:
        clauses.append((MOST_WORDS, fuzzy, w))  # only what was typed asks for it: its weight is 1
    return [
        (tier, {"constant_score": {"filter": clause, "boost": round(tiers[tier] * weight, 4), "_name": f"alt{i}{COMPLETED}.{tier}"}})
        for tier, clause, weight in clauses
        if tier in tiers
    ]


def build_query(
    alternatives: list[Alternative],
    *,
    tiers: dict,
    title_boost: float,
    relevance_weight: float,
    completion_weight: float = 0.0,
    most_words: tuple[int, str] = NO_MOST_WORDS,
    fuzzy_completion: str = "",
    title_weight: float = 0.0,
    frequent: tuple[Mapping[str, int], float, frozenset[str]] = NO_FREQUENT,
) -> dict:
    """The bool query: any clause may match; only published (pub_date passed) documents.

    With a completion weight, the last word as typed may be unfinished: each alternative that
    kept it also matches in the exact tiers with that word as a prefix (clauses `alt<i>c.<tier>`),
    weighted `completion_weight` times the alternative's own weight. Below 1, what was typed
    ranks above its completions in a tier; far enough above the corrections' weights, completions
    rank above corrections ("firef" finds Firefox, not "fire"). With `fuzzy_completion` too, what
    was typed also matches titles fuzzily (_fuzzy_completion), in MOST_WORDS. A correction of
    the typed last word's start (`Alternative.started`) is completed too: "optimization and triubl"
    means the start "troubl", and "trouble" completed finds "troubleshooting".
    Newest first sends the same query: it lists the posts Best match counts (issue 54), by date.

    With `title_weight` (the instant box, which shows titles), a title holding some of an
    alternative's words weighs that times its weight (`alt<i>.titles.first`, no tier): above the
    body tiers, so "datasette temp" lists "Crawling Datasette with Datasette" before posts whose
    bodies hold both words. It matches no document some.words does not: the counts stay the page's.
    With `frequent` (documents per word, the ratio, the untitled words), MOST_WORDS lets a title lack frequent words (_frequent)."""
    by_tier: dict[str, list] = {tier: [] for tier in TIER_NAMES}
    bm25, titles = [], []  # (index, words, boost, synonyms) for each alternative's BM25 clause; the instant box's title clauses
    typed_last = last_word(without_symbols(alternatives[0].text)) if alternatives else ""
    # A correction of the last word competes with its completions (_completion_clauses).
    last_corrected = any(last_word(without_symbols(alt.text)) != typed_last for alt in alternatives[1:])
    for i, (alt, w) in enumerate(zip(alternatives, weights(alternatives), strict=True)):
        text = without_symbols(alt.text)
        if not text:
            continue
        words = without_stop_words(text)
        expanded = bool(alt.synonym_of)  # a synonym alternative: the rules applied by Elasticsearch
        for tier, scored in _scored_tiers(text, words, i, w, tiers=tiers, synonyms=expanded, most_words=most_words, frequent=_frequent(alt, words, *frequent)):
            by_tier[tier].append(scored)
        if completion_weight and typed_last and not expanded and (alt.started or last_word(text) == typed_last):  # a query of only ":" has no word
            fuzziness = fuzzy_completion if i == 0 else ""  # what was typed only: its fuzzy words cover the corrections'
            for tier, scored in _scored_completions(text, i, w * completion_weight, tiers=tiers, stems=last_corrected, fuzziness=fuzziness):
                by_tier[tier].append(scored)
        if words and not alt.hint:  # a hint orders the typed words' posts, adds none
            bm25.append((i, words, round(relevance_weight * w, 6), expanded))
            titles += [_titles_first(words, i, round(title_weight * w, 4), synonyms=expanded)] if title_weight else []
    return _published([{"dis_max": {"queries": clauses}} for clauses in (*by_tier.values(), titles) if clauses] + _shared_words(bm25, title_boost=title_boost))


def _published(should: list[dict]) -> dict:
    """Any clause may match; only published documents (pub_date passed, rounded to the minute so
    Elasticsearch can cache the filter)."""
    return {"bool": {"should": should, "minimum_should_match": 1, "filter": [{"range": {"pub_date": {"lte": "now/m"}}}]}}


def highlight_query(alternatives: list[Alternative], *, completing: bool = False) -> dict | None:
    """What the highlighter marks: the words of every alternative on the highlighted fields.

    The highlighter extracts and weighs the terms of its query for every hit; given the tiered
    query (dozens of phrase, constant-score and dis_max clauses) that took 5 of a 6 ms request,
    given a plain one 3 (measured with Elasticsearch's `took`). One clause of the alternatives'
    distinct words, not one per alternative (they share most words): the same words marked, in
    1.2 ms instead of 1.9 for a misspelled query's 3-4 alternatives (/tmp bench in the README)."""
    seen: dict[str, None] = {}
    expanded: dict[str, None] = {}  # a synonym alternative's words: marked with what the rules make of them
    for alt in alternatives:
        for word in without_stop_words(without_symbols(alt.text)).split():
            (expanded if alt.synonym_of else seen).setdefault(word.lower(), None)
    words = {"multi_match": {"query": " ".join(seen), "fields": list(SEARCHED_FIELDS)}} if seen else None
    if expanded:
        synonyms = {"multi_match": {"query": " ".join(expanded), "fields": list(SEARCHED_FIELDS), "analyzer": STEM_SYNONYMS}}
        words = {"bool": {"should": [words, synonyms]}} if words else synonyms
    # The unfinished last word, and the corrected starts completed in its place ("mozila firf": fire).
    lasts = [alternatives[0], *(a for a in alternatives[1:] if a.started)] if completing else []
    starts = [{"prefix": {TITLE: {"value": as_prefix(w)}}} for w in dict.fromkeys(last_word(without_symbols(a.text)) for a in lasts) if w]
    if not starts:
        return words
    started = starts[0] if len(starts) == 1 else {"bool": {"should": starts}}  # the title only: over the bodies it costs as much as the search
    return {"bool": {"should": [words, started]}} if words else started


# The aggregation of comments_body() (search/querying/reader.py reads it).
MATCHES = "matches"
HIGHLIGHT_TAGS = {"encoder": "html", "pre_tags": ["<mark>"], "post_tags": ["</mark>"]}


def comments_body(query: dict, post_ids: list[int], *, per_post: int, fragment_size: int, highlight: dict | None) -> dict:
    """The best matching comments of the posts on a results page, and how many match per post:
    one search of the comments with the page's query, narrowed to those posts, a bucket per post.

    Why a second request and not the collapse's `inner_hits`: those run the whole query once per
    entry (ten searches a page) and took a results page from 3-6 ms to 17-26 ms of Elasticsearch
    time; this one search costs 1-3 ms (bench/es_cost.py). The instant requests never send it."""
    snippet = {"fragment_size": fragment_size, "number_of_fragments": 1, "no_match_size": fragment_size}
    top = {"size": per_post, "_source": list(RESULT_FIELDS), "highlight": {**HIGHLIGHT_TAGS, "fields": {COMMENT: snippet}}}
    if highlight:
        top["highlight"]["highlight_query"] = highlight
    return {
        "size": 0,
        "track_total_hits": False,
        "query": {"bool": {"must": [query], "filter": [{"terms": {"post_id": post_ids}}]}},
        "aggs": {MATCHES: {"terms": {"field": "post_id", "size": len(post_ids)}, "aggs": {"best": {"top_hits": top}}}},
    }


# Without snippets, a post's comments are still marked (a short fragment, none where no word
# matched), so the dropdown can say a reply put the post there (results.result_of): the
# highlighter reads the comments of the page's few hits, most of which have none.
MARKED_ONLY = {"fragment_size": 20, "number_of_fragments": 1, "no_match_size": 0}

# Newest first, then a stable order, so that pages neither repeat nor skip a hit (scores are
# constants). A post has no comment_id: `unmapped_type`, or the posts index would fail its shards.
NEWEST_ORDER = [
    {"pub_date": {"order": "desc"}},
    "_score",
    {"post_id": {"order": "desc"}},
    {"comment_id": {"order": "desc", "missing": "_first", "unmapped_type": "long"}},
]


def search_body(
    query: dict,
    *,
    page: int,
    page_size: int,
    fragment_size: int,
    suggest: dict | None = None,
    aggs: dict | None = None,
    highlight: dict | None = None,
    sort: str = RELEVANCE,
    entries: bool = False,
    post_filter: dict | None = None,
    snippets: bool = True,
    count_up_to: int | bool = False,
) -> dict:
    """The full request: the query, the page, highlighting (HTML-escaped by Elasticsearch, of the
    `highlight` query when given) and suggest. One hit is one entry, a post's document holding its
    comments' text (search/documents.py), so no `collapse` keeps Elasticsearch from skipping. With
    `entries` the hits are counted up to `count_up_to` unless the `aggs` count them
    (facets.aggregations()). `post_filter` narrows the hits, not `aggs` (search/querying/facets.py).
    Without `snippets` the titles are highlighted, and the comments only to say whether they
    match (MARKED_ONLY): the instant box shows no snippet, and the bodies' highlighting is a third
    of a keystroke's Elasticsearch time (docs/benchmarks.md)."""
    snippet = {"fragment_size": fragment_size, "number_of_fragments": 1, "no_match_size": fragment_size}
    bodies = dict.fromkeys(BODIES, snippet) if snippets else {COMMENT: MARKED_ONLY}
    body = {
        "query": query,
        "from": (page - 1) * page_size,
        "size": page_size,
        "_source": list(RESULT_FIELDS),
        # Sorted by score alone: a second sort key (newest first among equal scores) made a
        # twelve-word query 4x slower, since Lucene can then no longer skip hits that cannot make
        # the page (measured with `took`, bench/hostile.py).
        "highlight": {**HIGHLIGHT_TAGS, "fields": {TITLE: {"number_of_fragments": 0}, **bodies}},
    }
    if entries:
        body["track_total_hits"] = False if aggs and facets.ENTRIES in aggs else count_up_to  # that aggregation counts exactly
    if post_filter:
        body["post_filter"] = post_filter
    if sort == NEWEST:  # the same matches as by relevance; the tiers still decide the "showing results for" line
        body["sort"] = NEWEST_ORDER
    if highlight:
        body["highlight"]["highlight_query"] = highlight
    if suggest:
        body["suggest"] = suggest
    if aggs:
        body["aggs"] = aggs
    return body


def clauses_of(name: str) -> list[tuple[int, str, bool]]:
    """(alternative index, tier, completed) of each alternative a clause's name
    `alt<i>[c].<tier>` or `alt<i>+<j>.<tier>` (_shared_words) stands for; [] for another name."""
    head, _, tier = name.partition(".")
    completed = head.endswith(COMPLETED)
    numbers = (head[3:-1] if completed else head[3:]).split(ALSO)
    if head.startswith("alt") and all(n.isdigit() for n in numbers) and tier in _ORDER:
        return [(int(n), tier, completed) for n in numbers]
    return []


def _matches(hit: dict) -> list[tuple[int, str, bool]]:
    """(alternative index, tier, completed) of each named clause a hit matched."""
    return [found for name in hit.get("matched_queries", []) for found in clauses_of(name)]


def matched_alternative(hit: dict) -> int | None:
    """The alternative that put a hit where it is: the best tier it reached, then the best-ranked
    alternative in that tier."""
    matches = _matches(hit)  # within a tier: alt0, alt0's completion, alt1, ... (their weights' order)
    return min(matches, key=lambda m: (_ORDER[m[1]], m[0], m[2]))[0] if matches else None


def best_match(hits: list[dict]) -> dict:
    """The hit that reached the best tier through the best-ranked alternative (the first of them)."""
    ranked = [(min((_ORDER[t], a) for a, t, _ in _matches(h)), i) for i, h in enumerate(hits) if _matches(h)]
    return hits[min(ranked)[1]] if ranked else hits[0]


def matched_tier(hit: dict) -> str | None:
    """The best tier a hit reached (`some.words` when it holds only some of the words)."""
    tiers = [t for _, t, _ in _matches(hit)]
    return min(tiers, key=_ORDER.__getitem__) if tiers else None
