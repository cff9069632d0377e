"""One combined suggest field against the three term suggesters (issue "Query path speed", item 3).

    .venv/bin/python bench/combined_suggest.py [--queries 1500]

Builds a throwaway index `<prefix>-exp-combined-suggest` holding, per document, title, text and
comment in one `exact_text` field (what `copy_to` would make), then sends the suggest part of
fresh misspelled queries (bench/freshqueries.py; the unknown words only, as the service does) to
both, alternately first, and prints Elasticsearch's `took` for each and how often the two give
the same set of options. The index is deleted at the end.
"""

import argparse
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queries", type=int, default=1500)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from elasticsearch import helpers

    from bench.freshqueries import MISSPELLED, pool
    from search import conf, generation, vocabulary
    from search.aliases import alias_name
    from search.client import get_client
    from search.documents import KINDS
    from search.querying import plan
    from search.sync.indexing import iter_index_actions

    cfg = conf.get()
    es = get_client().options(request_timeout=600)
    sources = ",".join(alias_name(kind) for kind in KINDS)
    combined = f"{cfg.index.prefix}-exp-combined-suggest"
    analysis = next(iter(es.indices.get(index=alias_name(KINDS[0])).body.values()))["settings"]["index"]["analysis"]
    es.indices.create(
        index=combined,
        settings={"analysis": analysis, "number_of_shards": 1, "number_of_replicas": 0},
        mappings={"properties": {"all_exact": {"type": "text", "analyzer": "exact_text"}}},
    )
    try:

        def actions():
            for kind in KINDS:
                for action in iter_index_actions(kind, combined):
                    doc = action.get("_source") or {k: v for k, v in action.items() if not k.startswith("_")}
                    yield {"_index": combined, "_id": f"{kind}-{action['_id']}", "all_exact": [doc.get(field) or "" for field in ("title", "text", "comment")]}

        helpers.bulk(es, actions(), chunk_size=1000)
        es.indices.refresh(index=combined)
        known = vocabulary.current(generation.latest())
        three, one, same = [], [], 0
        for i, query in enumerate(pool(args.corpus, kind=MISSPELLED, size=args.queries * 2, seed=123)):
            unknown = plan.unknown_words(query, known, cfg) if known is not None else list(range(len(query.split())))
            if not unknown:
                continue
            body = plan.suggest_request(query, unknown, cfg=cfg)
            body.pop("aggs")
            single = {"size": 0, "suggest": {"text": body["suggest"]["text"], "all_terms": {"term": {"field": "all_exact", **cfg.ranking.suggester.as_dict()}}}}
            pair = [(sources, body), (combined, single)]
            answers = [es.search(index=index, **b) for index, b in (pair if i % 2 else pair[::-1])]
            r3, r1 = answers if i % 2 else answers[::-1]
            three.append(r3["took"])
            one.append(r1["took"])
            options = [{o["text"] for entries in r["suggest"].values() for e in entries for o in e["options"]} for r in (r3, r1)]
            same += options[0] == options[1]
            if len(three) >= args.queries:
                break
    finally:
        es.indices.delete(index=combined)
    print(f"{len(three)} fresh misspelled queries, suggest request only (Elasticsearch took, ms):")
    print(f"  three suggesters (title, text, comment): mean {statistics.mean(three):.2f}, p50 {statistics.median(three):.1f}")
    print(f"  one combined field:                      mean {statistics.mean(one):.2f}, p50 {statistics.median(one):.1f}")
    print(f"  the same set of options: {same} of {len(three)} queries")


if __name__ == "__main__":
    main()
