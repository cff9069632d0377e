"""The blog's synonym rules as alternatives of a query (pure; search/synonym_rules.py parses them, search/synonyms.py loads them).

Every alternative (what was typed, each correction) holding a side of a rule as whole words gets a
synonym alternative: the same text, searched by query.py with the synonym analyzers, in which
Elasticsearch applies the rules (`js tips` matches "js tips" and "javascript tips"). They join the
alternatives **after** all the others, scored below the one they expand (serving factor
SYNONYM_SCORE_FACTOR), so in every tier of the query they weigh less than what was typed (and
usually than its corrections): "js" still puts posts with "js" in the title first, and a post with
"javascript" in its title comes before one with "js" only in a comment (a higher tier beats a
higher weight, as for corrections). The rules are read here only to know which alternatives a rule
touches (a query no rule touches sends no synonym clause) and to show what they make of it.
"""

from search.alternative import Alternative
from search.synonym_rules import Rule
from search.words import key_spans, key_words


def rewrites(text: str, rules: tuple[Rule, ...]) -> list[str]:
    """Each single rewrite of `text` by a rule (one occurrence of one side replaced at a time).

    Words are compared as the exact analyzer keeps them (search/words.py key_spans: the possessive
    dropped, accents folded, a hyphenated word as its parts), so that a synonym alternative is sent
    wherever Elasticsearch's analyzers would apply the rule: "Kirby's" meets a rule on "kirby",
    "e mail" one on "e-mail"."""
    spans = key_spans(text)
    words = [w for _, _, w in spans]
    out: list[str] = []
    for rule in rules:
        for side in rule.sides:
            keys = key_words(side)
            n = len(keys)
            for i in range(len(words) - n + 1):
                if tuple(words[i : i + n]) != keys:
                    continue
                for target in rule.targets(side):
                    out.append(text[: spans[i][0]] + " ".join(target) + text[spans[i + n - 1][1] :])
    return list(dict.fromkeys(out))


def with_synonyms(alternatives: list[Alternative], rules: tuple[Rule, ...], *, limit: int, factor: float) -> list[Alternative]:
    """The alternatives, then a synonym alternative of each of the first `limit` that a rule touches."""
    if not rules or not limit:
        return alternatives
    added: list[Alternative] = []
    for alt in alternatives:
        if len(added) >= limit:
            break
        found = rewrites(alt.text, rules)
        if found:
            added.append(Alternative(round(alt.score * factor, 4), alt.text, synonym_of=alt.text, rewrites=tuple(found)))
    return [*alternatives, *added]
