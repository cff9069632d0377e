"""Spelling and completion candidates from the process's dictionary, in the term suggesters' shape
(pure: the dictionary is an immutable in-memory value, search/vocabulary.py).

Why the suggesters' shape: the typo model (search/querying/suggestions.py) already turns their
answer into scored alternatives, tested as plain dicts; answering in the same shape lets the one
model score both, and a word the dictionary cannot answer for still goes to the suggesters in the
same request shape. The dictionary gives the *full* candidate set within `max_edits` (the
suggesters give their top `size` per field, by their own score): the typo model chooses among all.

What the suggester would do, done here: `suggest_mode` per field ("missing": only a field that
lacks the word proposes, each option counted by its documents in that field), `min_word_length`,
`prefix_length` and `max_edits`, and the word counts the query's `known_words` aggregation gives
(documents holding the word in any field, estimated from the per-field counts).

And what it cannot: an unfinished last word with a typo inside it ("firfo" for "firefox").
`completion_options` finds words that *start* within one edit of it and proposes the most common
word of each corrected prefix, scored by the typo model on the prefix ("firefo"), not the word.
"""

from search import sounds
from search.conf import SuggesterOptions, TypoCosts
from search.documents import SUGGESTER_FIELDS
from search.querying.suggestions import KNOWN_WORDS
from search.querying.typo_model import exchanged, osa, sound_key, sounds_alike, typo_score, within_sound_reach
from search.stopwords import is_stop_word
from search.vocabulary import NO_COUNTS, documents_holding
from search.words import key_word, one_joined_token, words

TITLE = 0  # the counts' position of the title (SEARCHED_FIELDS): completions rank by titles


def resolvable(word: str) -> bool:
    """Whether the typed word is exactly one token of the exact analyzer, lowercased and folded
    (key_word: "Rückblick" is "ruckblick"), so the dictionary can answer for it: ASCII letters and
    digits, or such runs joined by `'` (the standard tokenizer keeps it inside a word whatever
    surrounds it, Unicode word-break rules WB6-WB13), not ending in the possessive "'s" the
    analyzer cuts. Anything else (hyphens, letters folding leaves, other scripts) is left to
    Elasticsearch's own analysis."""
    if not word.isascii():  # an apostrophe too: key_word() cuts an English possessive, the German and French analyzers do not
        folded = key_word(word)
        return folded.isascii() and folded.isalnum() and "'" not in word and "’" not in word
    if word.isalnum():
        return True
    return one_joined_token(word)


def _proposes(mode: str, typed: int, option: int) -> bool:
    """Whether a field holding the typed word `typed` times proposes an option it holds `option` times."""
    if option <= 0:
        return False
    if mode == "missing":
        return typed == 0
    if mode == "popular":
        return option > typed
    return True


def one_edit_always_wins(costs: TypoCosts) -> bool:
    """Whether any one edit costs less than any two (then a word one edit away always outscores
    one two edits away). Not while a sound-alike two edits away may cost less (typo_model)."""
    each = (costs.substitute, costs.adjacent_key, costs.vowel, costs.insert_delete, costs.doubled, costs.transpose)
    return max(each) + costs.first_letter < min(2 * min(each), costs.sound_alike, costs.exchange)


def nearest(token: str, counts: tuple, dictionary, *, options: SuggesterOptions, costs: TypoCosts, limit: int, enough: int) -> list[tuple[str, int, tuple]]:
    """The candidates within `max_edits`, or only those one edit away when at least `enough` of
    them would be proposed: the typo model keeps the `enough` best of a word (its options per
    word), and every candidate one edit away outscores every candidate two away (one edit costs
    at most 1.1, substitute plus first letter; two at least 1.2, twice the cheapest, with the
    shipped costs: `one_edit_always_wins` checks the costs in force), so the farther ones could
    never be kept. Same answer, a third of the work on a typical word."""
    if options.max_edits > 1 and one_edit_always_wins(costs):
        near = dictionary.within(token, 1, options.prefix_length, limit)
        proposed = [w for w, _, c in near if any(_proposes(options.suggest_mode, counts[f], c[f]) for f in range(len(counts)))]
        if len(proposed) >= enough:
            return near
    return dictionary.within(token, options.max_edits, options.prefix_length, limit)


# The shortest part a word is split into ("asp net", "last fm"), and the documents each part must
# be in: the index's known words, not a stray token.
SPLIT_MIN_PART = 2
SPLIT_MIN_DOCS = 3


def splits(token: str, dictionary) -> list[tuple[str, int, tuple]]:
    """The typed word as two words of the index, a space put back (one edit, which the typo model
    scores at TypoCosts.split: suggestions._spans): "aspnet" -> "asp net", which finds "ASP.NET" (a dot splits
    words, search/documents.py) and "ASP NET". Each part must be a word at least SPLIT_MIN_DOCS
    documents hold, and no stop word: "streamit" (a dropped "l") is no "stream it", "boundin" no
    "bound in" (both measured: bench/relevance.py, bench/asyoutype.py). The counts are the smaller
    part's per field, at most the documents holding both."""
    out = []
    for i in range(SPLIT_MIN_PART, len(token) - SPLIT_MIN_PART + 1):
        if is_stop_word(token[:i]) or is_stop_word(token[i:]):
            continue
        left, right = dictionary.counts(token[:i]), dictionary.counts(token[i:])
        if left and right and min(documents_holding(left), documents_holding(right)) >= SPLIT_MIN_DOCS:
            out.append((f"{token[:i]} {token[i:]}", 1, tuple(min(a, b) for a, b in zip(left, right, strict=True))))
    return out


def by_sound(token: str, found: list, dictionary, *, min_length: int, scheme: str = sounds.DEFAULT) -> list[tuple[str, int, tuple]]:
    """The dictionary's words that sound like `token` (search/soundalikes.py), are not in `found`
    already and are within its reach (typo_model.within_sound_reach: "bisnes": business, three).
    The index is Double Metaphone's; another `scheme` must agree too (French: the nearer ones,
    which the dictionary finds, matter most)."""
    if not min_length or len(token) < min_length:
        return []
    seen = {w for w, _, _ in found}
    out = []
    for word in dictionary.sound_index().alike(sound_key(token), token[:1]):
        if word not in seen and sounds_alike(token, word, min_length=min_length, scheme=scheme) and within_sound_reach(token, word, scheme=scheme):
            out.append((word, osa(token, word), dictionary.counts(word) or NO_COUNTS))
    return out


def _cheap_far(token: str, word: str, scheme: str) -> bool:
    """Whether the typo model prices `word` below its edits: a sound-alike within reach, or two
    letters exchanged (search/querying/typo_model.py)."""
    return exchanged(token, word) or (sounds_alike(token, word, scheme=scheme) and within_sound_reach(token, word, scheme=scheme))


def suggest(
    query: str,
    only: list[int],
    dictionary,
    *,
    options: SuggesterOptions,
    limit: int,
    enough: int = 0,
    costs: TypoCosts | None = None,
    unsplit: int | None = None,
    sound_min_length: int = 0,
) -> tuple[dict, dict]:
    """(suggest, aggregations) for the words at `only`, as one suggest request would answer them
    (every candidate, or, with `enough`, those the typo model can keep: `nearest`), the words that
    sound alike from `sound_min_length` letters (`by_sound`; 0: none), and the words split in two
    (`splits`), but not the word at `unsplit`: an unfinished last word is the start of a longer
    word, not two ("underst" is no "under st")."""
    out: dict[str, list] = {f"{name}_terms": [] for name in SUGGESTER_FIELDS}
    buckets = {}
    scheme = costs.sound_key if costs is not None else sounds.DEFAULT
    for i, (start, end, word) in enumerate(words(query)):
        if i not in only:
            continue
        token = key_word(word)  # as the dictionary holds words: "rückbl" is "ruckbl"
        counts = dictionary.counts(token) or NO_COUNTS
        buckets[f"w{i}"] = {"doc_count": documents_holding(counts)}
        if len(token) < options.min_word_length:
            continue
        if enough and costs is not None:
            found = nearest(token, counts, dictionary, options=options, costs=costs, limit=limit, enough=enough)
        else:
            found = dictionary.within(token, options.max_edits, options.prefix_length, limit)
        found = [*found, *by_sound(token, found, dictionary, min_length=sound_min_length, scheme=scheme)]
        # A word that sounds like the typed one ranks as one and a half edits, however far it is
        # ("jurny": journey before turns), as the typo model scores it (search/querying/typo_model.py);
        # the nearer sound-alike first ("recrooting": recruiting before recording). So do two
        # letters exchanged ("updrages": upgrades before the commoner updates).
        rank = {w: min(d, 1.5) + d / 100 if _cheap_far(token, w, scheme) else d for w, d, _ in found}
        if i != unsplit:
            found = [*found, *splits(token, dictionary)]
        for position, name in enumerate(SUGGESTER_FIELDS):
            if options.suggest_mode == "missing" and counts[position]:
                continue
            # As a term suggester ranks its options ("sort": "score": nearer first, then more
            # documents), the `size` best per field; the typo model then scores those of every field.
            proposed = [(w, d, c) for w, d, c in found if _proposes(options.suggest_mode, counts[position], c[position])]
            ranked = sorted((rank.get(w, d), -c[position], w) for w, d, c in proposed)
            proposed = [{"text": w, "freq": -minus, **({"split": True} if " " in w else {})} for _, minus, w in ranked[: options.size]]
            out[f"{name}_terms"].append({"text": token, "offset": start, "length": end - start, "options": proposed})
    return out, {KNOWN_WORDS: {"words": {"buckets": buckets}}}


# Far guesses (corrections.py, step 8) start within one edit of the typed word's first letters.
FAR_PREFIX = 4
FAR_LIMIT = 300
FAR_LENGTH_DIFFERENCE = 3


def _extends(a: str, b: str) -> bool:
    """Whether one word is the other with letters added at the end: another word, not a typo
    ("sveltekit" is no "svelte")."""
    return a.startswith(b) or b.startswith(a)


def far_guesses(token: str, dictionary, *, costs: TypoCosts, min_docs: int, floor: float = 0.0) -> list[tuple[float, str]]:
    """(typo score, word) for words three or more edits from `token` that may still be meant (the
    nearer ones were judged already): they start within one edit of its first FAR_PREFIX letters,
    keep its first letter, differ in length by FAR_LENGTH_DIFFERENCE at most, do not merely add
    letters at its end or cut them off (`_extends`), and are held by `min_docs` documents or by a
    title ("maitainance": maintenance; "jurnies": journeys, one title's), scored `floor` or more.
    A title is edited text: its words are the blog's own, where one comment's may be a typo. Best
    first, then the commoner. For an empty page only: two prefix walks and a few hundred typo
    costs (bench/far_guess_cost.py)."""
    out = []
    # Two walks: the words most documents hold, and those most titles hold (a walk stops at its
    # limit, and a crowded start would leave out a word one title holds).
    walked = {word: counts for walk in (None, TITLE) for word, _, counts in dictionary.prefix_within(token[:FAR_PREFIX], 1, FAR_LIMIT, walk)}
    for word, counts in walked.items():
        held = documents_holding(counts)
        if (held < min_docs and not counts[TITLE]) or word[:1] != token[:1] or abs(len(word) - len(token)) > FAR_LENGTH_DIFFERENCE or _extends(token, word):
            continue
        score = typo_score(token, word, costs)
        if score >= floor and osa(token, word) >= 3:
            out.append((score, held, word))
    return [(score, word) for score, _, word in sorted(out, key=lambda t: (-t[0], -t[1], t[2]))]


def corrected_prefix(typed: str, word: str, distance: int) -> str:
    """The start of `word` the typed prefix is a typo of: the one at `distance`, the length
    closest to what was typed ("firfo", "firefox" -> "firefo")."""
    lengths = sorted(range(max(1, len(typed) - distance), min(len(word), len(typed) + distance) + 1), key=lambda k: (abs(k - len(typed)), -k))
    for k in lengths:
        if osa(typed, word[:k]) <= distance:
            return word[:k]
    return word


def completion_options(token: str, dictionary, *, max_edits: int, limit: int) -> list[dict]:
    """Options for an unfinished last word no indexed word starts with: for each corrected prefix
    (one typo away), its word nearest in length to what was typed (then the most common in
    titles), carrying the prefix the typo model scores. A reader who typed as many letters as a
    word has most likely meant that word, and the search completes it again: "schedual" proposes
    "schedule", which finds "scheduled" too ("scheduled", the commonest, would miss "schedule")."""
    groups: dict[str, tuple] = {}
    for word, distance, counts in dictionary.prefix_within(token, max_edits, limit, TITLE):
        if distance == 0:
            continue
        prefix = corrected_prefix(token, word, distance)
        rank = (abs(len(word) - len(token)), -counts[TITLE], word)
        if prefix not in groups or rank < groups[prefix][0]:
            groups[prefix] = (rank, {"text": word, "prefix": prefix, "freq": documents_holding(counts)})
    return [option for _, option in groups.values()]


def only_a_start(query: str, dictionary) -> bool:
    """Whether the last word of `query` is no word the dictionary holds, only the start of some
    ("einfu": einführung), so a reader is likely still typing it."""
    spans = words(query)
    if dictionary is None or not spans or not resolvable(spans[-1][2]):
        return False
    token = key_word(spans[-1][2])
    return dictionary.counts(token) is None and bool(dictionary.completions(token, 1))


def unfinished_word(query: str, dictionary, *, min_length: int, max_edits: int, limit: int) -> tuple[bool, dict | None]:
    """(present, entry) for the last word of a query still being typed: whether the index holds it
    or a word starting with it (then keeping it is as likely as keeping a word the blog holds),
    and, when it holds neither, a suggestion entry of corrected completions where that stays
    unambiguous: the word is long enough and no whole word is one typo away ("uqest" is "quest",
    not the start of "questions")."""
    spans = words(query)
    if not spans:
        return False, None
    start, end, word = spans[-1]
    token = key_word(word)  # as the dictionary holds words: "einfü" starts "einfuhrung"
    if not resolvable(word):
        return True, None  # Elasticsearch's analysis decides: keep it, as without a dictionary
    if dictionary.counts(token) is not None or dictionary.completions(token, 1):
        return True, None
    if len(token) < min_length:
        return False, None  # too short: no longer unambiguous
    options = completion_options(token, dictionary, max_edits=max_edits, limit=limit)
    return False, ({"text": token, "offset": start, "length": end - start, "options": options} if options else None)
