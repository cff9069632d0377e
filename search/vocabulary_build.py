"""Building the dictionary of the index's words (search/vocabulary.py reads it into each process).

Built from the index itself, so it matches its analysis exactly: `reindex` runs a terms
aggregation per searched field's `exact` sub-field over the new indices once live and caught up
(every word, with its document count in that field); `search_vocabulary` does only this. Stored in
PostgreSQL (search.models.Vocabulary, the map's bytes), where every process finds it.

Fresh words: a word that first appears in a post or comment indexed after the build is recorded by
the sync (`record_fresh`, search.models.FreshWord, read from the new documents' term vectors:
search/sync/freshwords.py) and joins every process's dictionary at the next generation change: a
completion and correction target within seconds, without a rebuild. The next build folds them in
and clears them.

Between builds the counts age (a deleted post's words stay; a word that becomes common keeps its
old count until the next build): the hourly `search_vocabulary` bounds that.

Apart from the reading because only `reindex`, `search_vocabulary` and the sync build, from
Elasticsearch; a web process only reads what they stored.
"""

import logging

from django.db import connection, transaction

from search import conf, lemmas
from search.aliases import alias_name
from search.documents import SEARCHED_FIELDS, SUGGESTER_FIELDS, Kind
from search.models import FreshWord, Vocabulary
from search.vocabulary import FORMAT, Lexicon, documents_holding

log = logging.getLogger(__name__)

# A terms aggregation may return at most search.max_buckets (65,536) buckets: the words are read
# in partitions of about this many distinct words each.
PARTITION_WORDS = 20_000


def collect(client, *, index: str | None = None) -> dict[str, tuple[int, int, int]]:
    """Every word of the searched fields' `exact` sub-fields with its document count in each,
    read from `index` (by default the live entries' alias: an entry's document holds its
    replies' text, so its counts are entries; `reindex` reads its new index while it swaps it
    in). One field at a time, its fielddata dropped right after, so the heap holds one field's
    words at most (the text's: about 120 MB at 10x the corpus)."""
    index = index or alias_name(Kind.POSTS)
    counts: dict[str, list[int]] = {}
    for position, name in enumerate(SEARCHED_FIELDS):
        exact = SUGGESTER_FIELDS[name]
        try:
            # `direct`: Elasticsearch 9.2.4's global-ordinals cardinality fails on fielddata with
            # an unsupported_operation_exception for some fields (a German blog's titles).
            sizes = client.search(index=index, size=0, aggs={"n": {"cardinality": {"field": exact, "execution_hint": "direct"}}}).body
            partitions = max(1, -(-int(sizes["aggregations"]["n"]["value"] * 1.1) // PARTITION_WORDS))
            for p in range(partitions):
                terms = {"field": exact, "min_doc_count": 1, "size": 3 * PARTITION_WORDS, "include": {"partition": p, "num_partitions": partitions}}
                body = client.search(index=index, size=0, aggs={"words": {"terms": terms}}).body
                if body["aggregations"]["words"].get("sum_other_doc_count", 0):
                    raise RuntimeError(f"{exact}: a partition held more than {3 * PARTITION_WORDS} words; not storing a partial dictionary")
                for bucket in body["aggregations"]["words"]["buckets"]:
                    counts.setdefault(bucket["key"], [0, 0, 0])[position] = bucket["doc_count"]
        finally:  # the fielddata served its purpose: give the heap back
            client.indices.clear_cache(index=index, fielddata=True, fields=exact)
    return {word: tuple(c) for word, c in counts.items()}


def store(client, *, words: dict | None = None, fresh_before: int | None = None) -> int:
    """Store the dictionary (`words` already collected, or read now from the live indices) and
    clear the fresh words it holds (those recorded before the collection began: `fresh_before`,
    the last FreshWord id then); returns the number of words."""
    if Lexicon is None:
        raise RuntimeError("the lexicon extension is not built (run `make`): searches ask Elasticsearch")
    prefix = conf.get().index.prefix
    if words is None:
        fresh_before = last_fresh_id()
        words = collect(client)
    data = Lexicon.build(words.items())
    forms = word_forms(words, conf.get().index.language)
    with transaction.atomic():  # no process may load the new build beside fresh rows it holds
        defaults = {"min_docs": 1, "format": FORMAT, "words": data, "forms": forms, "size": len(words)}
        Vocabulary.objects.update_or_create(prefix=prefix, defaults=defaults)
        FreshWord.objects.filter(prefix=prefix, id__lte=fresh_before or 0).delete()
    return len(words)


def word_forms(words: dict[str, tuple[int, int, int]], language: str) -> bytes:
    """The stored forms of the lemmas the blog holds (search/lemmas.py), or nothing for English.
    Reads the language's lexicon once: 1 s and 26 MB for French, 5 s and 114 MB for German."""
    if language not in lemmas.LANGUAGES:
        return b""
    held = {word: documents_holding(counts) for word, counts in words.items()}
    try:
        return lemmas.FormIndex(lemmas.lines(held, lemmas.lexicon(language), language)).blob
    except Exception:  # the forms are optional: the dictionary is stored without them
        log.exception("no word forms for %s: simplemma's lexicon did not load; searches find the regular forms only", language)
        return b""


def last_fresh_id() -> int:
    return FreshWord.objects.filter(prefix=conf.get().index.prefix).order_by("-id").values_list("id", flat=True).first() or 0


def drop() -> None:
    Vocabulary.objects.filter(prefix=conf.get().index.prefix).delete()


def exists() -> bool:
    return Vocabulary.objects.filter(prefix=conf.get().index.prefix, format=FORMAT).exists()


# ---------------------------------------------------------------- fresh words (the sync)


def document_words(client, index: str, ids: list[str]) -> dict[str, tuple[int, int, int]]:
    """The words of the `exact` sub-fields of these just-indexed documents, with how many of them
    hold each in each field: their term vectors, analysed by Elasticsearch as it indexed them."""
    counts: dict[str, list[int]] = {}
    if not ids:
        return {}
    fields = [SUGGESTER_FIELDS[name] for name in SEARCHED_FIELDS]
    flags = {"term_statistics": False, "field_statistics": False, "positions": False, "offsets": False, "payloads": False}
    body = client.mtermvectors(index=index, ids=ids, fields=fields, **flags).body
    for doc in body.get("docs", []):
        for position, name in enumerate(fields):
            for word in doc.get("term_vectors", {}).get(name, {}).get("terms", {}):
                counts.setdefault(word, [0, 0, 0])[position] += 1
    return {word: tuple(c) for word, c in counts.items()}


def record_fresh(words: dict[str, tuple[int, int, int]]) -> int:
    """Record words the stored build lacks, adding their documents to those already recorded (a
    new word that ten new posts use counts ten, as the suggesters would see it; an edited post
    counts again: an over-count, which only keeps a real word from being corrected, until the next
    build). At most SyncSettings.max_fresh_words rows wait for a build. Returns how many were given."""
    prefix, longest = conf.get().index.prefix, conf.get().ranking.max_suggest_word_length
    room = conf.get().sync.max_fresh_words - FreshWord.objects.filter(prefix=prefix).count()
    rows = [(prefix, w, *c) for w, c in sorted(words.items(), key=lambda wc: -sum(wc[1])) if 0 < len(w) <= longest][: max(0, room)]
    if not rows:
        return 0
    table = FreshWord._meta.db_table
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {table} (prefix, word, title, text, comment) VALUES (%s, %s, %s, %s, %s) "
            f"ON CONFLICT (prefix, word) DO UPDATE SET title = {table}.title + EXCLUDED.title, "
            f"text = {table}.text + EXCLUDED.text, comment = {table}.comment + EXCLUDED.comment",
            rows,
        )
    return len(rows)
