"""The blog's own synonym rules: copied to Elasticsearch, and loaded in each process (their
grammar, parsing and validation: search/synonym_rules.py).

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
rules over whatever the set holds (or reloads an index that does not apply it), then bumps the
generation again. A new index (reindex) gets the set first, from PostgreSQL, so its analyzers
load the rules when its shards start (if Elasticsearch refused the set then, the next round fixes
it). An index built before the synonym analyzers existed gets no synonym clause (indices_apply).
"""

import logging
import threading
import zlib

from django.db import DatabaseError, Error, connection, transaction
from elasticsearch import NotFoundError

from search import conf, generation, process
from search.aliases import alias_name, live_aliases
from search.client import bulk_client
from search.documents import EXACT_SYNONYMS, KINDS, STEM_SYNONYMS, synonyms_set
from search.models import SynonymRule
from search.synonym_rules import Rule, parse

log = logging.getLogger(__name__)


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
        try:
            texts = list(SynonymRule.objects.values_list("rule", flat=True))
        except Error as exc:  # InterfaceError too (a connection PostgreSQL ended)
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

# Seconds the scheduler's copy may take (search_sync's reconcile(): no one waits on it). A copy in
# the owner's save is bounded by sync.synonym_save_seconds instead, as short as a post's save: past
# it the owner is told, and the next search_sync round copies the rules.
PUSH_TIMEOUT = 10.0


def set_rules() -> list[dict]:
    """PostgreSQL's rules as the synonyms set's rules (Solr format, ids from the rows), skipping a
    rule that no longer parses (edited by SQL), as current() does."""
    out = []
    for pk, text in SynonymRule.objects.order_by("pk").values_list("pk", "rule"):
        try:
            out.append({"id": f"rule-{pk}", "synonyms": parse(text).text})
        except ValueError as exc:
            log.warning("synonym rule %r left out of the synonyms set: %s", text, exc)
    return out


def _lock_key() -> int:
    return zlib.crc32(f"blogsearch-synonyms:{synonyms_set()}".encode())


def _copy(client, timeout: float = PUSH_TIMEOUT, lock_timeout: float = PUSH_TIMEOUT) -> list[dict]:
    """Replace the set with the rules read under one advisory lock, held until Elasticsearch has
    answered: two saves at once copy one after the other, each reading the rules the one before it
    committed, so the set ends with the latest rules (reading first and locking only the PUT, the
    older list could land last; if a copy times out, Elasticsearch may still apply it after the
    next one, which the next search_sync round sees and corrects). At most `lock_timeout` waiting
    for the lock and `timeout` for Elasticsearch. Raises when Elasticsearch fails, or when any shard
    failed to reload its analyzers (that node would keep the old rules)."""
    with transaction.atomic(), connection.cursor() as cursor:
        # Bounded: a copy stuck behind another (Elasticsearch slow) gives up; search_sync retries.
        cursor.execute("SELECT set_config('lock_timeout', %s, true)", [f"{max(1, int(lock_timeout * 1000))}ms"])
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_lock_key()])
        rules = set_rules()
        answer = client.options(request_timeout=timeout, max_retries=0).synonyms.put_synonym(id=synonyms_set(), synonyms_set=rules)
    failed = answer.get("reload_analyzers_details", {}).get("_shards", {}).get("failed", 0)
    if failed:
        raise RuntimeError(f"{failed} shard(s) failed to reload the synonym rules")
    return rules


def push(client=None, timeout: float = PUSH_TIMEOUT, lock_timeout: float = PUSH_TIMEOUT) -> bool:
    """Replace the synonyms set with PostgreSQL's rules; Elasticsearch reloads the analyzers that
    read it before it answers. True when it took them; never raises (a save must not fail
    because of search: reconcile() retries)."""
    try:
        _copy(client or bulk_client(), timeout, lock_timeout)
    except Exception as exc:  # noqa: BLE001 - unreachable, refused or timed out: reconcile() retries
        log.warning("synonym rules not copied to Elasticsearch (%s); the next search_sync round retries", exc)
        return False
    return True


def has_analyzers(client) -> bool:
    """Whether every live index has the synonym analyzers. An index built by a release before them
    lacks them, and a query naming them would fail on its shards: until `reindex` (the compose
    start-up's `reindex --if-missing` rebuilds it), searches leave the rules out."""
    try:
        indices = client.indices.get_settings(index=live_aliases()).body
    except NotFoundError:  # no index yet (before the first reindex)
        return False
    wanted = {STEM_SYNONYMS, EXACT_SYNONYMS}
    return bool(indices) and all(wanted <= set(i["settings"]["index"].get("analysis", {}).get("analyzer", {})) for i in indices.values())


_ready: tuple[int | None, bool] = (None, False)  # (generation, the indices have the analyzers), set at once


def _reset_ready() -> None:
    global _ready
    _ready = (None, False)


process.register("synonym analyzers present", _reset_ready)


def indices_apply(client, generation: int | None) -> bool | None:
    """has_analyzers(), asked once per generation per process (an alias swap bumps it), and only by
    a search that a rule touches. None when Elasticsearch cannot say (that answer is not cached)."""
    global _ready
    known_generation, value = _ready
    if generation is not None and generation == known_generation:
        return value
    try:
        value = has_analyzers(client)
    except Exception as exc:  # noqa: BLE001 - the search itself reports Elasticsearch's failure
        log.warning("could not tell whether the indices have the synonym analyzers (%s); searching without the rules", exc)
        return None
    if not value:
        log.warning("the live indices lack the synonym analyzers (built by an older release): run `manage.py reindex`")
    if generation is not None:
        _ready = (generation, value)
    return value


def _applied(client, rules: list[dict]) -> bool:
    """Whether the live indices' analyzers apply the rules, by one telling rule: the first whose
    target has words its side lacks, which the side must then analyze into, in both synonym
    analyzers (a rule could fail in one only). A shard that started while the set could not be
    read (a whole cluster restarting, say) loads no rules, and Elasticsearch never retries it.
    `_analyze` asks one copy of each index: a check, not a proof."""

    def words(index: str, text: str, analyzer: str) -> set[str]:
        return {t["token"] for t in client.indices.analyze(index=index, analyzer=analyzer, text=text)["tokens"]}

    index = alias_name(KINDS[0])
    for kept in rules:
        rule = parse(kept["synonyms"])
        side = " ".join(rule.sides[0])
        target = " ".join(rule.targets(rule.sides[0])[0])
        if words(index, target, "exact_text") <= words(index, side, "exact_text"):
            continue  # "cafe, café": the side already holds the target's words; it tells nothing
        pairs = (("exact_text", EXACT_SYNONYMS), ("english_text", STEM_SYNONYMS))
        return all(words(alias_name(k), target, plain) <= words(alias_name(k), side, expanded) for k in KINDS for plain, expanded in pairs)
    return True


def _set_held(client) -> list[dict] | None:
    """The rules of Elasticsearch's synonyms set, or None when there is no set."""
    try:
        return client.synonyms.get_synonym(id=synonyms_set(), size=10_000)["synonyms_set"]
    except NotFoundError:
        return None


def _same(have: list[dict] | None, want: list[dict]) -> bool:
    key = lambda rules: sorted((r["id"], r["synonyms"]) for r in rules)  # noqa: E731
    return have is not None and key(have) == key(want)


def in_step(client) -> bool:
    """Whether Elasticsearch's synonyms set holds PostgreSQL's rules (/metrics; the next
    `search_sync` round's reconcile() copies them when not). Raises when Elasticsearch fails."""
    return _same(_set_held(client), set_rules())


def reconcile(client) -> bool:
    """Make Elasticsearch apply PostgreSQL's rules if it does not (each search_sync round): copy
    them when the set differs (a change it could not take), reload the analyzers when the set is
    right but an index does not apply it; then bump the generation, so answers cached meanwhile
    are dropped. True when it changed something; raises when Elasticsearch fails (the round
    reports it)."""
    want = set_rules()
    if not _same(_set_held(client), want):
        try:
            copied = _copy(client)
        finally:  # sent, perhaps applied in part: answers cached meanwhile must go either way
            generation.bump()
        log.info("synonym rules copied to Elasticsearch's synonyms set %s (%d rules)", synonyms_set(), len(copied))
        return True
    if want and has_analyzers(client) and not _applied(client, want):
        try:
            answer = client.indices.reload_search_analyzers(index=live_aliases())
        finally:
            generation.bump()
        failed = answer.get("_shards", {}).get("failed", 0)
        if failed:
            raise RuntimeError(f"{failed} shard(s) failed to reload the synonym rules")
        log.warning("an index did not apply the synonym rules (a shard started while they were unreadable): analyzers reloaded")
        return True
    return False


_last = threading.local()


def forget_last_push() -> None:
    _last.failed = False


def last_push_failed() -> bool:
    """Whether this thread's last copy of the rules failed (the admin tells the owner)."""
    return getattr(_last, "failed", False)


def _after_commit() -> None:
    """The owner's save waits at most sync.synonym_save_seconds for Elasticsearch (and a quarter of
    it for another save's copy to finish), never the scheduler's 10 s: a hanging Elasticsearch holds
    the admin page about as long as a post's save, and the next search_sync round copies the rules."""
    budget = conf.get().sync.synonym_save_seconds
    _last.failed = not push(timeout=budget, lock_timeout=budget / 4)
    try:
        generation.bump()
    except DatabaseError:  # the rule is saved; the caches die with the next bump or their lifetime
        log.exception("generation bump after a synonym change failed")


def changed(**kwargs) -> None:
    """A rule saved or deleted (connected in search/apps.py): once committed, copy the rules to
    Elasticsearch, then start a new generation, so every process reads the rules again and no
    answer cached before Elasticsearch had them is served. In this order: a bump first would let
    a search cache an answer without the new rule under the new generation. Once per transaction:
    deleting twenty rules at once copies the rules once."""
    if any(hook is _after_commit for _, hook, *_ in connection.run_on_commit):
        return
    transaction.on_commit(_after_commit)
