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
import re
from dataclasses import dataclass

KNOWN_WORDS = "known_words"
_WORD = re.compile(r"\S+")
SUGGESTER_FIELDS = {"title": "title.suggest", "text": "text.suggest", "comment": "comment.suggest"}


@dataclass(frozen=True)
class Alternative:
    score: float
    text: str
    typed: bool = False


def suggest_block(query: str, *, options: dict) -> dict:
    """The `suggest` section of a search request: one term suggester per field, each with its own name."""
    block = {"text": query}
    for name, field in SUGGESTER_FIELDS.items():
        block[f"{name}_terms"] = {"term": {"field": field, **options}}
    return block


def words(query: str) -> list[tuple[int, int, str]]:
    """(start, end, word) for each whitespace-separated word of the query."""
    return [(m.start(), m.end(), m.group()) for m in _WORD.finditer(query)]


def known_words_aggregation(query: str) -> dict:
    """How many documents hold each typed word in any searched field, computed in the same request.

    A `global` aggregation ignores the query, so this counts across the whole index. A word that
    many documents contain is not a misspelling, whichever field the suggester looked at (a term
    suggester in `missing` mode only knows its own field: "rust" is missing from the comments).
    """
    filters = {
        f"w{i}": {"multi_match": {"query": word, "fields": list(SUGGESTER_FIELDS.values()), "operator": "and"}}
        for i, (_, _, word) in enumerate(words(query))
    }
    return {KNOWN_WORDS: {"global": {}, "aggs": {"words": {"filters": {"filters": filters}}}}}


def known_spans(query: str, aggregations: dict, *, min_docs: int) -> list[tuple[int, int]]:
    """Character ranges of the words found in at least `min_docs` documents."""
    buckets = aggregations.get(KNOWN_WORDS, {}).get("words", {}).get("buckets", {})
    return [
        (start, end)
        for i, (start, end, _) in enumerate(words(query))
        if buckets.get(f"w{i}", {}).get("doc_count", 0) >= min_docs
    ]


def _spans(suggest: dict, *, floor: float, per_token: int, known: list[tuple[int, int]] = ()) -> dict[tuple[int, int], list[tuple[float, str]]]:
    """Options per (offset, length) span, merged across suggesters, best first, above the floor."""
    merged: dict[tuple[int, int], dict[str, float]] = {}
    for name in SUGGESTER_FIELDS:
        for entry in suggest.get(f"{name}_terms", []) or []:
            span = (int(entry["offset"]), int(entry["length"]))
            token = str(entry["text"]).lower()
            if any(ch.isdigit() for ch in token):
                continue  # numbers and versions ("2024", "py3") are not misspellings
            if any(start <= span[0] and span[0] + span[1] <= end for start, end in known):
                continue  # a word the blog uses often is what the reader meant
            best = merged.setdefault(span, {})
            for option in entry.get("options", []) or []:
                text, score = str(option["text"]), float(option["score"])
                if score < floor or text.lower() == token:
                    continue
                best[text] = max(score, best.get(text, 0.0))
    return {
        span: sorted(((s, t) for t, s in opts.items()), key=lambda st: (-st[0], st[1]))[:per_token]
        for span, opts in merged.items()
        if opts
    }


def _replace(query: str, choices: list[tuple[tuple[int, int], str]]) -> str:
    text = query
    for (offset, length), word in sorted(choices, reverse=True):
        text = text[:offset] + word + text[offset + length:]
    return text


def alternatives(query: str, suggest: dict, *, typed_score: float, floor: float, max_alternatives: int,
                 per_token: int, known: list[tuple[int, int]] = ()) -> list[Alternative]:
    """The typed query first, then up to max_alternatives - 1 corrections, best first.

    `known` are character ranges of words not to correct (see known_spans).
    """
    result = [Alternative(typed_score, query, typed=True)]
    spans = _spans(suggest, floor=floor, per_token=per_token, known=known)
    if not spans or max_alternatives <= 1:
        return result
    # Beam search over spans in text order; a partial alternative is (log score sum, choices).
    # Keeping a token scores the floor; the beam is wide enough to hold every final candidate.
    beam_width = max_alternatives * 4
    beam: list[tuple[float, list]] = [(0.0, [])]
    for span, options in sorted(spans.items()):
        keep = (math.log(floor), None)
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
        result.append(Alternative(round(math.exp(logsum / len(spans)), 4), text))
        if len(result) >= max_alternatives:
            break
    return result
