"""The blog's own synonym rules: parsed, and loaded in each process at the index generation.

The rules live in PostgreSQL (SynonymRule, edited in the admin). Saving or deleting one bumps the
index generation, so every process, on every node, drops its cached answers and reads the rules
again at its next search (the same notification as an index write: milliseconds), without
touching Elasticsearch. How a rule becomes alternatives of a query: search/querying/expand.py.

Why not Elasticsearch's synonyms API with a search-time `synonym_graph` filter, as the issue
suggested: a rule applied inside the analyzer rewrites every clause alike, so "javascript" in a
title would outrank "js" in a title unless every tier were doubled with and without synonyms;
as alternatives of the query they sit below what was typed in every tier by construction (the
same rule as corrections). And the development distribution lacks what the synonyms API needs
to store a set (delete-by-query, the reindex module) and the filter itself (analysis-common).
"""

import logging
import re
import threading
from dataclasses import dataclass

from django.db import DatabaseError

from search import process

log = logging.getLogger(__name__)

# A word of a rule, and of a query a rule rewrites (search/querying/expand.py): one definition.
# A dot splits words, as in the analyzers (search/documents.py): "node.js" is the words node, js.
WORD = re.compile(r"[^\W_]+(?:['+#-][^\W_]+)*[+#]*", re.UNICODE)
MAX_WORDS = 4  # per side: a rule names a term, not a sentence


@dataclass(frozen=True)
class Rule:
    """`sides`: each a tuple of lowercase words. Equivalent rules map any side to every other; an
    explicit (`=>`) rule maps its left sides to its one right side only."""

    sides: tuple[tuple[str, ...], ...]
    explicit: bool = False

    @property
    def text(self) -> str:
        words = [" ".join(side) for side in self.sides]
        return f"{', '.join(words[:-1])} => {words[-1]}" if self.explicit else ", ".join(words)

    def targets(self, side: tuple[str, ...]) -> list[tuple[str, ...]]:
        """What `side` may be rewritten to."""
        if self.explicit:
            return [self.sides[-1]] if side in self.sides[:-1] else []
        return [other for other in self.sides if other != side] if side in self.sides else []


def _side(text: str) -> tuple[str, ...]:
    words = tuple(w.lower() for w in WORD.findall(text))
    if not words:
        raise ValueError(f"{text.strip()!r} holds no word")
    if len(words) > MAX_WORDS:
        raise ValueError(f"{text.strip()!r}: at most {MAX_WORDS} words a side")
    return words


def parse(text: str) -> Rule:
    """A rule from its text (`a, b, c` or `a, b => c`); ValueError says what is wrong."""
    if text.count("=>") > 1:
        raise ValueError("one => at most")
    left, arrow, right = text.partition("=>")
    sides = list(dict.fromkeys(_side(part) for part in left.split(",") if part.strip()))
    if arrow:
        if "," in right:
            raise ValueError("one term after =>")
        target = _side(right)
        sides = [side for side in sides if side != target]  # "k8s, kubernetes => kubernetes": k8s => kubernetes
        if not sides:
            raise ValueError("nothing before => but the term after it")
        sides.append(target)
    if len(sides) < 2:
        raise ValueError("a rule needs two different terms, separated by a comma or =>")
    return Rule(sides=tuple(sides), explicit=bool(arrow))


class _Loaded:
    def __init__(self):
        self.lock = threading.Lock()
        self.generation: int | None = None
        self.rules: tuple[Rule, ...] = ()


_loaded = _Loaded()
process.register("synonym rules", lambda: _loaded.__init__())


def current(generation: int | None) -> tuple[Rule, ...]:
    """The rules as of `generation` (one small read per generation change per process). A rule
    that no longer parses (edited by SQL) is skipped and logged, never an error for readers."""
    state = _loaded
    if generation is None or generation == state.generation:  # PostgreSQL cannot say: the last rules read
        return state.rules
    with state.lock:
        if generation == state.generation:
            return state.rules
        from search.models import SynonymRule

        try:
            texts = list(SynonymRule.objects.values_list("rule", flat=True))
        except DatabaseError as exc:
            log.warning("synonym rules unreadable, searching with the last ones read: %s", exc)
            return state.rules
        rules = []
        for text in texts:
            try:
                rules.append(parse(text))
            except ValueError as exc:
                log.warning("synonym rule %r skipped: %s", text, exc)
        state.rules, state.generation = tuple(rules), generation
        return state.rules


def changed(**kwargs) -> None:
    """A rule saved or deleted: a new generation, so every process reloads the rules and no cached
    answer of the old ones is served (connected in search/apps.py)."""
    from search import generation

    generation.bump()
