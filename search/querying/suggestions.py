"""Term suggester answers -> scored spelling alternatives of the whole query (pure, no I/O).

What the reader typed always comes first with a fixed score (TYPED_SCORE, 1.1) so it is never
buried. The suggester reports, for each token of the query, its offset and length in the text we
sent, so replacements are made on exactly those characters: token-wise, whatever the case the
reader typed, never inside another word (the original's `str.replace` did both wrong).

Several misspelled words are corrected together: an alternative chooses, for every token that has
options, either one of its options or to keep the token. Its score is the geometric mean of those
choices, where keeping a token scores the floor (MIN_SUGGESTION_SCORE). So for one token the score
is the option's own score (as in the original), and an alternative that fixes both typos of a
two-typo query outranks those that fix only one.
"""

import math

from search.alternative import Alternative
from search.conf import TypoCosts
from search.documents import SUGGESTER_FIELDS
from search.querying.typo_model import COSTS, osa, typo_score
from search.words import words

KNOWN_WORDS = "known_words"


def suggestable(query: str, *, max_words: int, max_word_length: int) -> str:
    """The part of the query the suggesters look at: its first `max_words` words, none longer than
    `max_word_length` (blanked, so offsets stay those of the query). A term suggester's work grows
    with the length of each word and the number of words (200 letters in one word cost 11x a
    normal search, twelve misspelled words 6x: bench/hostile.py), and no real word is that long."""
    out = list(query)
    for i, (start, end, _word) in enumerate(words(query)):
        if i >= max_words or end - start > max_word_length:
            out[start:end] = " " * (end - start)
    return "".join(out)


def suggest_block(query: str, *, options: dict) -> dict:
    """The `suggest` section of a search request: one term suggester per field, each with its own name."""
    block = {"text": query}
    for name, field in SUGGESTER_FIELDS.items():
        block[f"{name}_terms"] = {"term": {"field": field, **options}}
    return block


def known_words_aggregation(query: str, *, only: list[int] | None = None) -> dict:
    """How many documents hold each typed word in any searched field, computed in the same request.

    A `global` aggregation ignores the query, so this counts across the whole index. A word that
    many documents contain is not a misspelling, whichever field the suggester looked at (a term
    suggester in `missing` mode only knows its own field: "rust" is missing from the comments).
    """
    filters = {
        f"w{i}": {"multi_match": {"query": word, "fields": list(SUGGESTER_FIELDS.values()), "operator": "and"}}
        for i, (_, _, word) in enumerate(words(query))
        if only is None or i in only
    }
    return {KNOWN_WORDS: {"global": {}, "aggs": {"words": {"filters": {"filters": filters}}}}}


def known_spans(query: str, aggregations: dict, *, min_docs: int) -> list[tuple[int, int]]:
    """Character ranges of the words found in at least `min_docs` documents (min_docs=1: in any)."""
    buckets = aggregations.get(KNOWN_WORDS, {}).get("words", {}).get("buckets", {})
    return [(start, end) for i, (start, end, _) in enumerate(words(query)) if buckets.get(f"w{i}", {}).get("doc_count", 0) >= min_docs]


def in_code_points(query: str, suggest: dict) -> dict:
    """The suggest section with offsets and lengths in Python string indices.

    Elasticsearch (Java) reports them in UTF-16 code units: every character outside the Basic
    Multilingual Plane (emoji, some CJK) counts twice there and once in Python, so slicing with the
    raw numbers cuts words apart after the first emoji.
    """
    if query.isascii() or all(ord(ch) < 0x10000 for ch in query):
        return suggest
    index, units = {}, 0
    for i, ch in enumerate(query):
        index[units] = i
        units += 2 if ord(ch) >= 0x10000 else 1
    index[units] = len(query)
    out = {}
    for name, entries in suggest.items():
        out[name] = []
        for entry in entries or []:
            start, end = int(entry["offset"]), int(entry["offset"]) + int(entry["length"])
            if start in index and end in index:
                out[name].append({**entry, "offset": index[start], "length": index[end] - index[start]})
    return out


def _spans(
    suggest: dict, *, floor: float, per_token: int, known: list[tuple[int, int]] = (), costs: TypoCosts = COSTS
) -> dict[tuple[int, int], list[tuple[float, str]]]:
    """Options per (offset, length) span, merged across suggesters, best first, above the floor.

    Options are ranked by the typo model's score, then by edits (of two sound-alikes the nearer:
    "recrooting" is recruiting before recording), then by how many documents hold them (summed
    over the suggesters' fields): among equally likely typos the more common word is more likely.
    Which option also forms a phrase with the other words is left to the query itself: an
    alternative that forms no phrase reaches no phrase tier (search/querying/query.py). So the
    best completion of a corrected start is kept past `per_token` too (one more option).
    """
    merged: dict[tuple[int, int], dict[str, list[float]]] = {}
    tokens: dict[tuple[int, int], str] = {}
    prefixes: dict[tuple[tuple[int, int], str], str] = {}  # a completion's corrected start: what its edits are counted on
    for name in SUGGESTER_FIELDS:
        for entry in suggest.get(f"{name}_terms", []) or []:
            span = (int(entry["offset"]), int(entry["length"]))
            token = str(entry["text"]).lower()
            if any(ch.isdigit() for ch in token):
                continue  # numbers and versions ("2024", "py3") are not misspellings
            if any(start <= span[0] and span[0] + span[1] <= end for start, end in known):
                continue  # a word the blog uses often is what the reader meant
            best = merged.setdefault(span, {})
            tokens[span] = token
            for option in entry.get("options", []) or []:
                text = str(option["text"])
                if text.lower() == token:
                    continue
                if text not in best:  # the same option from another field: scored once
                    best[text] = [typo_score(token, text, costs), 0.0]
                if "prefix" in option:  # a completion of a corrected prefix: scored on that prefix (candidates.py), plus costs.completed
                    started = typo_score(token, str(option["prefix"]), costs) - costs.completed / (len(token) or 1)
                    if started > best[text][0]:
                        best[text][0], prefixes[(span, text)] = round(max(0.0, started), 4), str(option["prefix"]).lower()
                if option.get("split"):  # two words typed as one (candidates.splits): one space put back
                    best[text][0] = round(max(0.0, 1.0 - costs.split / (len(token) or 1)), 4)
                best[text][1] += float(option.get("freq", 0))

    out = {}
    for span, opts in merged.items():
        ranked = sorted(((s, f, t) for t, (s, f) in opts.items() if s >= floor), key=lambda x: (-x[0], osa(tokens[span], x[2].lower()), -x[1], x[2]))
        started = {t: prefixes[(span, t)] for _, _, t in ranked if (span, t) in prefixes}
        kept = _with_seat(ranked[:per_token], ranked, tokens[span], started)
        if kept:
            out[span] = [(s, t) for s, _, t in kept]
    return out


def _with_seat(kept: list, ranked: list, token: str, started: dict[str, str]) -> list:
    """`kept` and the best completion of a corrected start (`started`: word -> its start), if
    `kept` lacks it: a whole word two edits away scores about as well ("streq": streak 0.82,
    stream through "strea" 0.81), and the query, not the score, tells which one the other words
    go with ("python stream..."). Best by score, then its start's edits, then its documents ("lngua": language
    through "langua", before the one-post "lingual")."""
    if not kept or not started:
        return kept
    options = {t: (s, f, t) for s, f, t in ranked}
    best = min(started, key=lambda t: (-options[t][0], osa(token, started[t]), -options[t][1], t))
    return kept if options[best] in kept else [*kept, options[best]]


def _started(suggest: dict) -> set[tuple[tuple[int, int], str]]:
    """The (span, word) options that complete a corrected start of an unfinished word (they carry
    the `prefix`: search/querying/candidates.py completion_options)."""
    return {
        ((int(entry["offset"]), int(entry["length"])), str(option["text"]))
        for name in SUGGESTER_FIELDS
        for entry in suggest.get(f"{name}_terms", []) or []
        for option in entry.get("options", []) or []
        if "prefix" in option
    }


def _replace(query: str, choices: list[tuple[tuple[int, int], str]]) -> str:
    text = query
    for (offset, length), word in sorted(choices, reverse=True):
        text = text[:offset] + word + text[offset + length :]
    return text


def alternatives(
    query: str,
    suggest: dict,
    *,
    typed_score: float,
    floor: float,
    max_alternatives: int,
    per_token: int,
    known: list[tuple[int, int]] = (),
    costs: TypoCosts = COSTS,
    present: list[tuple[int, int]] = (),
    keep_present: float = 0.0,
) -> list[Alternative]:
    """The typed query first, then up to max_alternatives - 1 corrections, best first.

    `known` are character ranges of words not to correct (see known_spans).
    """
    result = [Alternative(typed_score, query, typed=True)]
    spans = _spans(suggest, floor=floor, per_token=per_token, known=known, costs=costs)
    started = _started(suggest)
    if not spans or max_alternatives <= 1:
        return result
    # Beam search over spans in text order; a partial alternative is (log score sum, choices).
    # Keeping a token scores the floor; the beam is wide enough to hold every final candidate.
    beam_width = max_alternatives * 4
    beam: list[tuple[float, list]] = [(0.0, [])]
    for span, options in sorted(spans.items()):
        # Keeping a word the index holds (if too rarely to be "known") is likelier right than keeping
        # a word it has never seen: "sues youtufe" should try "sues youtube" before "uses youtube".
        in_index = any(start <= span[0] and span[0] + span[1] <= end for start, end in present)
        keep = (math.log(max(floor, keep_present) if in_index else floor), None)
        grown = []
        for logsum, choices in beam:
            for choice_log, word in [keep] + [(math.log(s), w) for s, w in options]:
                grown.append((logsum + choice_log, choices + ([(span, word)] if word is not None else [])))
        grown.sort(key=lambda item: -item[0])
        beam = grown[:beam_width]
    seen = {query.lower()}
    for logsum, choices in beam:
        if not choices:
            continue
        text = _replace(query, choices)
        if text.lower() in seen:
            continue
        seen.add(text.lower())
        result.append(Alternative(round(math.exp(logsum / len(spans)), 4), text, started=any(choice in started for choice in choices)))
        if len(result) >= max_alternatives:
            break
    return result
