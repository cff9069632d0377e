"""Words that first appear in a document the sync just indexed join every process's dictionary.

Why here: the dictionary (search/vocabulary_build.py) is built by `reindex` and the hourly
`search_vocabulary`; without this, a word of a post published a minute ago could be neither
completed nor corrected to until then. After a bulk succeeds, the sync reads the new documents'
words back from Elasticsearch (term vectors: exactly the words its analysis indexed), records those
the dictionary lacks, and its generation bump makes every process add them at once.

Best effort: a failure here costs only freshness (the next build holds the words), never the sync.
At most SyncSettings.max_fresh_words words wait for the next build: a huge document or a bulk
import cannot flood every process (the build holds the rest).
"""

import logging
from collections import defaultdict

from search import generation, vocabulary, vocabulary_build
from search.documents import Kind

log = logging.getLogger(__name__)


def record(client, pairs: list, applied: set) -> int:
    """Record the words the build lacks of the applied `index` actions among `pairs` ((key,
    action)); returns how many were recorded (new or counted again)."""
    if not vocabulary.available():
        return 0
    ids: dict[str, list[str]] = defaultdict(list)
    for key, action in pairs:  # an entry's document holds its replies' words: a reply's own is not read
        if key in applied and action.get("_op_type") == "index" and action["_source"].get("doc_type") == Kind.POSTS.entry:
            ids[action["_index"]].append(action["_id"])
    if not ids:
        return 0
    try:
        dictionary = vocabulary.current(generation.current())  # a plain read: no listener thread in a sync
        if dictionary is None:  # none stored yet: the first build will hold every word
            return 0
        words: dict[str, tuple[int, int, int]] = {}
        for index, doc_ids in ids.items():
            for word, counts in vocabulary_build.document_words(client, index, doc_ids).items():
                if word not in dictionary.built:
                    words[word] = tuple(a + b for a, b in zip(words.get(word, vocabulary.NO_COUNTS), counts, strict=True))
        return vocabulary_build.record_fresh(words)
    except Exception:  # noqa: BLE001 - freshness only; the next build holds the words
        log.warning("could not record the new documents' words; the next `search_vocabulary` will", exc_info=True)
        return 0
