"""The figures /metrics reads from PostgreSQL and Elasticsearch when Prometheus scrapes.

Outbox depth, the oldest due entry's age, dead letters, the index generation, documents per
kind, the indices' and the dictionary's ages, whether the synonyms set is in step: states, not
events. Every web process (and any replica of the web service) reads the same values from the
same stores, so they are asked once per scrape, never on a reader's request, and no process has
to have seen anything happen. Each question gets metrics.scrape_timeout_seconds; a store that
does not answer in time leaves its figures out and shows `search_state_up{source} 0`, so one
slow scrape never hangs Prometheus, and an alert on a missing figure still fires.

Ages are taken by PostgreSQL's clock (statement_timestamp()), like everything about time and
order here. Two come from elsewhere: the dictionary's `built` is written by Django (auto_now,
the app host's clock) and an index's creation date by Elasticsearch's; both are used for
alerts measured in hours, where a host's clock skew of seconds does not matter.
"""

import logging
from datetime import UTC, datetime

from django.db import connection, transaction
from prometheus_client.core import GaugeMetricFamily

from search import conf, generation, synonyms
from search.aliases import alias_name
from search.client import get_client
from search.documents import KINDS
from search.models import DeadChange, FreshWord, PendingChange, Vocabulary

log = logging.getLogger(__name__)


def gauge(name: str, doc: str, value=None, *, labels: dict | None = None) -> GaugeMetricFamily:
    family = GaugeMetricFamily(name, doc, labels=list(labels or ()))
    if value is not None:
        family.add_metric(list((labels or {}).values()), value)
    return family


def _outbox_sql() -> str:
    return (
        f"SELECT count(*), count(*) FILTER (WHERE due_at <= statement_timestamp()), "
        f"coalesce(extract(epoch FROM statement_timestamp() - min(due_at) FILTER (WHERE due_at <= statement_timestamp())), 0), "
        f"(SELECT count(*) FROM {DeadChange._meta.db_table}), statement_timestamp() "
        f"FROM {PendingChange._meta.db_table} WHERE NOT replay"
    )


def _dictionary_sql() -> str:
    return (
        f"SELECT size, extract(epoch FROM statement_timestamp() - built), "
        f"(SELECT count(*) FROM {FreshWord._meta.db_table} WHERE prefix = %s) "
        f"FROM {Vocabulary._meta.db_table} WHERE prefix = %s"
    )


def postgresql(timeout: float) -> tuple[list, datetime | None]:
    """(families, PostgreSQL's now) from one short read-only transaction."""
    prefix = conf.get().index.prefix
    outer = connection.in_atomic_block  # a test's transaction: its own timeout must not change
    with transaction.atomic(), connection.cursor() as cursor:
        if not outer:
            cursor.execute("SELECT set_config('statement_timeout', %s, true)", [f"{max(int(timeout * 1000), 1)}ms"])
        cursor.execute(_outbox_sql())
        pending, due, lag, dead, now = cursor.fetchone()
        cursor.execute(_dictionary_sql(), [prefix, prefix])
        dictionary = cursor.fetchone()
        gen = generation.current()
    families = [
        gauge("search_outbox_pending", "Outbox entries waiting, scheduled ones included.", pending),
        gauge("search_outbox_due", "Outbox entries due now (not scheduled for later).", due),
        gauge("search_outbox_oldest_due_seconds", "How long the oldest due outbox entry has waited (0: none).", float(lag)),
        gauge("search_outbox_dead", "Dead letters: entries refused too often, waiting for a fix.", dead),
        gauge("search_index_generation", "The index generation (bumped by every index write and alias swap).", gen),
    ]
    if dictionary is not None:
        words, age, fresh = dictionary
        families.append(gauge("search_dictionary_words", "Words in the dictionary as built from the index.", words))
        families.append(gauge("search_dictionary_fresh_words", "Words added by the syncs since the build.", fresh))
        families.append(gauge("search_dictionary_age_seconds", "Since the dictionary was last built (reindex, search_vocabulary).", float(age)))
    return families, now


def elasticsearch(timeout: float, now: datetime) -> list:
    """Documents and age of each kind's live index, and whether the synonyms set is in step."""
    client = get_client().options(request_timeout=timeout)
    aliases = {alias_name(kind): kind for kind in KINDS}
    answer = client.search(index=",".join(aliases), size=0, aggs={"indices": {"terms": {"field": "_index", "size": 10}}}, track_total_hits=False)
    created = client.indices.get_settings(index=",".join(aliases), name="index.creation_date").body
    documents = gauge("search_index_documents", "Documents in each kind's live index.", labels={"kind": ""})
    ages = gauge("search_index_age_seconds", "Since each kind's live index was built (its last rebuild).", labels={"kind": ""})
    kind_of = {index: kind for index in created for alias, kind in aliases.items() if index.startswith(f"{alias}-")}
    counts = {kind_of.get(b["key"]): b["doc_count"] for b in answer["aggregations"]["indices"]["buckets"]}
    for index, kind in kind_of.items():
        documents.add_metric([kind], counts.get(kind, 0))
        built = datetime.fromtimestamp(int(created[index]["settings"]["index"]["creation_date"]) / 1000, UTC)
        ages.add_metric([kind], (now - built).total_seconds())
    in_step = gauge("search_synonyms_in_step", "1 when Elasticsearch's synonyms set holds PostgreSQL's rules, else 0.", int(synonyms.in_step(client)))
    return [documents, ages, in_step]


class StateCollector:
    """A prometheus_client collector: asks both stores at each scrape."""

    def collect(self):
        timeout = conf.get().metrics.scrape_timeout_seconds
        up = gauge("search_state_up", "1 when the store answered this scrape's questions in time.", labels={"source": ""})
        now = None
        try:
            families, now = postgresql(timeout)
            yield from families
            up.add_metric(["postgresql"], 1)
        except Exception as exc:  # noqa: BLE001 - a scrape reports what it could read, never fails
            log.warning("metrics: PostgreSQL figures unreadable: %s", exc)
            up.add_metric(["postgresql"], 0)
        try:
            yield from elasticsearch(timeout, now or datetime.now(UTC))
            up.add_metric(["elasticsearch"], 1)
        except Exception as exc:  # noqa: BLE001
            log.warning("metrics: Elasticsearch figures unreadable: %s", exc)
            up.add_metric(["elasticsearch"], 0)
        yield up
