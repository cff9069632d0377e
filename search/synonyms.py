"""The blog's own synonym rules: parsed, copied to Elasticsearch, and loaded in each process.

The rules live in PostgreSQL (SynonymRule, edited in the admin): the truth. Elasticsearch applies
them: after every change, once committed, the whole set is copied to the synonyms set of the
indices (`PUT _synonyms/<prefix>-synonyms`, search/documents.py), which reloads the search-time
`synonym_graph` filter on every node before it answers; then the index generation is bumped, so
every process drops its cached answers and reads the rules again at its next search. No reindex.

Each process still reads the rules: only to know which alternatives of a query hold a rule's
side, which then get a synonym alternative (search/querying/expand.py) searched with the
synonym analyzers, below what was typed in every tier. A query no rule touches pays nothing.

If Elasticsearch cannot take a change (down, or refusing), nothing is lost: the rule is saved, the
admin says so, and the scheduler's next `search_sync` round (reconcile()) copies PostgreSQL's
rules over whatever the set holds, then bumps the generation again. A new index (reindex) gets the
set first, from PostgreSQL, so it is built with the rules.
"""

import logging
import re
import threading
from dataclasses import dataclass

from django.db import DatabaseError, transaction

from search import process
from search.documents import synonyms_set
from search.stopwords import is_stop_word

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
    if all(is_stop_word(w) for w in words):  # the stemmed fields drop it: the rule would match nothing there
        raise ValueError(f"{text.strip()!r} is only stop words, which the search ignores")
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


# ---------------------------------------------------------------- Elasticsearch's copy


def set_rules() -> list[dict]:
    """PostgreSQL's rules as the synonyms set's rules (Solr format, ids from the rows), skipping a
    rule that no longer parses (edited by SQL), as current() does."""
    from search.models import SynonymRule

    out = []
    for pk, text in SynonymRule.objects.order_by("pk").values_list("pk", "rule"):
        try:
            out.append({"id": f"rule-{pk}", "synonyms": parse(text).text})
        except ValueError as exc:
            log.warning("synonym rule %r left out of the synonyms set: %s", text, exc)
    return out


def push(client=None) -> bool:
    """Replace the synonyms set with PostgreSQL's rules; Elasticsearch reloads the analyzers that
    read it before it answers. True when it took them; never raises (a save must not fail
    because of search: reconcile() retries)."""
    from search.client import bulk_client

    try:
        (client or bulk_client()).synonyms.put_synonym(id=synonyms_set(), synonyms_set=set_rules())
    except Exception as exc:  # noqa: BLE001 - unreachable, refused or timed out: reconcile() retries
        log.warning("synonym rules not copied to Elasticsearch (%s); the next search_sync round retries", exc)
        return False
    return True


def reconcile(client) -> bool:
    """Make the synonyms set hold PostgreSQL's rules if it does not (each search_sync round, so a
    change Elasticsearch could not take is applied later). True when it copied them; raises when
    Elasticsearch fails (the round reports it)."""
    from elasticsearch import NotFoundError

    from search import generation

    want = set_rules()
    try:
        have = client.synonyms.get_synonym(id=synonyms_set(), size=10_000)["synonyms_set"]
    except NotFoundError:
        have = None
    key = lambda rules: sorted((r["id"], r["synonyms"]) for r in rules)  # noqa: E731
    if have is not None and key(have) == key(want):
        return False
    client.synonyms.put_synonym(id=synonyms_set(), synonyms_set=want)
    generation.bump()  # answers cached while the set was stale are dropped
    log.info("synonym rules copied to Elasticsearch's synonyms set %s (%d rules)", synonyms_set(), len(want))
    return True


_last = threading.local()


def last_push_failed() -> bool:
    """Whether this thread's last copy of the rules failed (the admin tells the owner)."""
    return getattr(_last, "failed", False)


def _after_commit() -> None:
    _last.failed = not push()
    from search import generation

    generation.bump()


def changed(**kwargs) -> None:
    """A rule saved or deleted (connected in search/apps.py): once committed, copy the rules to
    Elasticsearch, then start a new generation, so every process reads the rules again and no
    answer cached before Elasticsearch had them is served. In this order: a bump first would let
    a search cache an answer without the new rule under the new generation."""
    transaction.on_commit(_after_commit)
