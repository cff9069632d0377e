"""Helpers for tests against the real services (imported by tests; fixtures live in conftest.py)."""

import os

# The index prefix of this test session: tests never touch the dev site's indices.
TEST_PREFIX = f"test-{os.getpid()}"


def refresh(es):
    es.indices.refresh(index=f"{TEST_PREFIX}-*")


def ids_in(es, kind: str) -> set[int]:
    from search.aliases import alias_name

    refresh(es)
    hits = es.search(index=alias_name(kind), size=1000, query={"match_all": {}}, source=False)["hits"]["hits"]
    return {int(h["_id"]) for h in hits}


def source_of(es, kind: str, pk: int) -> dict:
    from search.aliases import alias_name

    return es.get(index=alias_name(kind), id=str(pk))["_source"]


def outbox_trigger(model) -> str:
    """The PostgreSQL name of search's outbox trigger on a declared model's table (search/triggers.py)."""
    from search import triggers

    (trigger,) = [t for m, t in triggers.declared_triggers() if m is model and t.name == "search_outbox"]
    return trigger.get_pgid(model)
