"""Every tunable of the search service: one typed, frozen object, built once and read by attribute.

The defaults and what each value means live here, once (docs/configuration.md is rendered from
these classes, and tests/test_conf.py checks it is current). Three Django settings hold only
overrides, keyed by the upper-case field name (`{"PAGE_SIZE": 20}`), normally from environment
variables (config/settings.py): `SEARCH` for the index, sync, ranking and serving groups,
`ELASTICSEARCH` for the connection (a site's own app may type its settings the same way: `typed()`,
as the blog's insights/conf.py does). The object is built
at start-up (SearchConfig.ready), so a key that is misspelled or of the wrong type fails there,
not on a reader's request; it is built again when Django's `setting_changed` reports a new value
of one of them (tests' `settings` fixture), or on `reload()`.

    from search import conf
    conf.get().serving.page_size
    conf.get().elasticsearch.timeout
"""

import threading
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields, is_dataclass, replace
from types import MappingProxyType

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.signals import setting_changed

from search import process
from search.envvars import parse
from search.nodes import safe_url


def _doc(text: str, default, **extra):
    """A field with its default and the sentence that explains it (rendered into the docs)."""
    if isinstance(default, Mapping | list | tuple) or is_dataclass(default):
        return field(default_factory=lambda: default, metadata={"doc": text, **extra})
    return field(default=default, metadata={"doc": text, **extra})


# The ranking tiers, best first, with their weights: powers of two, so that a document in a higher
# tier outranks every document that only collects lower ones (search/querying/query.py).
TIERS = MappingProxyType(
    {
        "title.exact.phrase": 128,
        "title.exact.words": 64,
        "title.stem.phrase": 32,
        "title.stem.words": 16,
        "body.exact.phrase": 8,
        "body.stem.phrase": 4,
        "title.most.words": 2,
        "all.words": 1,
    }
)
TIER_NAMES = tuple(TIERS)


@dataclass(frozen=True)
class TypoCosts:
    """What each kind of edit costs the typo model (search/querying/suggestions.py). People hit a
    neighbouring key, swap two letters, double or drop one, or confuse vowels far more often than
    they type an arbitrary other letter, and rarely get the first letter wrong."""

    substitute: float = _doc("Any other letter in place of the typed one.", 1.0)
    adjacent_key: float = _doc("A letter next to it on the readers' keyboard (keyboard, below).", 0.75)
    vowel: float = _doc("A vowel for another vowel.", 0.8)
    insert_delete: float = _doc("A letter added or dropped.", 0.85)
    stray: float = _doc("A letter added that neither doubles a neighbour nor sits next to one's key (a stray key).", 1.0)
    doubled: float = _doc("A doubled letter added or dropped (cheaper than any other).", 0.6)
    transpose: float = _doc("Two neighbouring letters swapped.", 0.7)
    exchange: float = _doc('Two letters exchanged that are not neighbours ("vefiry": verify, "espace": escape).', 0.8)
    first_letter: float = _doc("Extra for an edit at the start of the word (tuned with bench/relevance.py).", 0.1)
    completed: float = _doc('Extra for completing a corrected start into a longer word: the word typed may be whole ("goldn" is golden before goodness).', 0.2)
    sound_alike: float = _doc(
        'A word that sounds like the typed one ("jurny": journey), however many letters differ, costs at most this (search/querying/typo_model.py).', 0.9
    )
    split: float = _doc(
        'Two words typed as one, a space put back ("aspnet": asp net); as much as any other letter, so "jango" stays django, not "jan go".',
        1.0,
    )
    keyboard: str = _doc(
        "Whose neighbouring keys are slips: qwerty, qwertz or azerty. Unless set, the blog's language's (QWERTZ for de, AZERTY for fr).",
        "qwerty",
        choices=("qwerty", "qwertz", "azerty"),
    )
    sound_key: str = _doc(
        "How words spelled by sound are told (search/sounds.py): double_metaphone, phonetic_fr or cologne. "
        "Unless set, the blog's language's (phonetic_fr for fr, cologne for de).",
        "double_metaphone",
        choices=("double_metaphone", "phonetic_fr", "cologne"),
    )


@dataclass(frozen=True)
class SuggesterOptions:
    """Elasticsearch term suggester options, chosen by measurement (bench/relevance.py --tune)."""

    suggest_mode: str = _doc("Ask only about words a field does not hold.", "missing")
    sort: str = _doc("Options ordered by the suggester's own score.", "score")
    min_word_length: int = _doc("Shorter words are never corrected.", 3)
    prefix_length: int = _doc("Letters at the start an option must share (0: typos there too).", 0)
    max_edits: int = _doc("Edits between a word and an option.", 2)
    size: int = _doc("Options per word and field.", 3)

    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class SiteWords:
    """The nouns readers see on the search pages, the OpenSearch description and the instant
    results (search/templatetags/search_words.py): the site's own, set once. The JSON API's
    `type` values stay `post` and `comment`."""

    entry: str = _doc("What a result is, one (an entry: post, article, recipe).", "post")
    entries: str = _doc("... more than one.", "posts")
    reply: str = _doc("What is shown inside a result, one (a reply: comment, note).", "comment")
    replies: str = _doc("... more than one.", "comments")
    site: str = _doc('What the site is, after "the" ("the blog", "the journal").', "blog")
    replies_anchor: str = _doc("The anchor of an entry's replies on its page, linked by \"N more ... match\" (empty: the entry's page itself).", "comments")

    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class IndexSettings:
    """How the indices are laid out and loaded (search/documents.py, search/sync/rebuild.py)."""

    prefix: str = _doc(
        "Required: the name of this site's indices, unique on the cluster (lower-case letters, digits, `_` and `-`). "
        "Aliases are `<prefix>-posts` and `<prefix>-comments`, real indices carry a timestamp; `check` fails until it is set.",
        "",
        key="INDEX_PREFIX",
        env="SEARCH_INDEX_PREFIX",
    )
    shards: int = _doc("Primary shards per index.", 1, env="SEARCH_SHARDS")
    replicas: int = _doc("Replica copies of each shard: 0 on one node, 1 on a cluster (a node can be lost).", 0, env="SEARCH_REPLICAS")
    language: str = _doc(
        "The blog's language: en, de or fr. It chooses the analyzers (stemmer, stop words, elision, German normalisation) and the "
        "stop words of the `match` fallback (search/languages.py); a change needs `reindex`.",
        "en",
        env="SEARCH_LANGUAGE",
        key="LANGUAGE",
        choices=("en", "de", "fr"),
    )
    stemmer: str = _doc(
        "Stemmer of the matching analyzer of an English blog (kstem merges fewer unrelated words than porter); German and French "
        "ones use their language's light stemmer.",
        "light_english",
        env="SEARCH_STEMMER",
    )
    symbol_words: tuple = _doc(
        "Words written with symbols that are indexed and searched as themselves, any case, as whole words (search/symbols.py): "
        '"c#" no longer finds "C" or "C++". Letters, digits and # + . only; a change needs `reindex`.',
        ("c#", "c++", "f#", ".net"),
    )
    ready_timeout_seconds: float = _doc(
        "`reindex` swaps only once the new indices are green (yellow when replicas cannot be placed); it gives up, aliases untouched, after this long.",
        120.0,
        env="SEARCH_READY_TIMEOUT",
    )
    ready_poll_seconds: float = _doc("How often `reindex` asks for the new indices' health.", 0.25)
    bulk_chunk_size: int = _doc("Documents per bulk request.", 1000, env="SEARCH_BULK_CHUNK_SIZE")
    bulk_threads: int = _doc("Bulk requests in flight during a rebuild.", 2, env="SEARCH_BULK_THREADS")
    queryset_chunk_size: int = _doc("Rows read from PostgreSQL per round trip while loading.", 1000)
    merge_segments: int = _doc(
        "`reindex` merges each new index into at most this many segments before the swap: a search pays a cost per segment "
        "for each of its clauses (docs/benchmarks.md#one-segment-after-a-rebuild). 0 leaves the segments as loaded.",
        1,
        env="SEARCH_MERGE_SEGMENTS",
    )
    merge_timeout_seconds: float = _doc("... `reindex` waits this long for that merge, then swaps unmerged (the merge goes on in Elasticsearch).", 900.0)


@dataclass(frozen=True)
class SyncSettings:
    """How changes reach Elasticsearch (search/sync/outbox.py, search/sync/rebuild.py)."""

    outbox_drain_batch: int = _doc("Outbox entries applied per automatic sync after a commit.", 200)
    pending_drain_batch: int = _doc("... per batch by `search_sync` and at the end of a rebuild.", 500)
    max_bulk_bytes: int = _doc(
        "A sync applies at most this many bytes of documents per transaction (smallest first; a bigger one alone), and invalidates the caches after each.",
        5_000_000,
    )
    outbox_max_attempts: int = _doc("An entry Elasticsearch refuses this many times moves to the dead letters (outages and overload never count).", 5)
    outbox_retry_seconds: float = _doc("The n-th retry of a refused entry waits this x 2^(n-1).", 10.0)
    outbox_max_lag_seconds: float = _doc("/healthz reports the outbox not ok when a due entry waits longer.", 300.0)
    rebuild_max_refused: int = _doc(
        "A rebuild skips (and dead-letters) documents refused or unreadable by their own fault; above this many it fails, live indices unchanged.", 100
    )
    rebuild_catch_up_attempts: int = _doc("A rebuild retries its catch-up this often after the swap before swapping back.", 3)
    blocked_retry_delays: tuple = _doc(
        "While the cluster refuses every write (read-only or write-blocked index, overload), `search_sync` retries after these pauses (+-20%), then stops.",
        (2.0, 5.0),
    )
    sync_lock_timeout_seconds: float = _doc("A save's sync waits at most this long for a rebuild's alias swap; its change then waits in the outbox.", 2.0)
    sync_breaker_seconds: float = _doc("After a failed sync, after-commit syncs leave changes in the outbox this long.", 5.0)
    outbox_listen: bool = _doc(
        "`search_sync --every` wakes on every outbox write (LISTEN/NOTIFY) and applies it within a second; off behind a transaction-pooling PgBouncer.",
        True,
        env="SEARCH_OUTBOX_LISTEN",
    )
    listen_grace_seconds: float = _doc(
        "... it takes an entry once it is this old: a save's own sync after the commit takes its change first, and a burst of writes makes one round.", 0.2
    )
    max_fresh_words: int = _doc("New words the syncs add to every process's dictionary until the next build, at most (the build has the rest).", 20_000)
    synonym_save_seconds: float = _doc(
        "A synonym rule's save waits this long for Elasticsearch (a quarter of it for another save's copy); past it the owner is told, search_sync copies.",
        2.0,
    )
    audit_every_seconds: float = _doc(
        "`search_sync --every` compares each kind's fingerprints with PostgreSQL this often, finding writes made with the triggers off (search/sync/audit.py).",
        300.0,
        env="SEARCH_AUDIT_EVERY_SECONDS",
    )
    audit_bucket_size: int = _doc("The audit sums fingerprints per this many ids; a bucket that differs is compared id by id.", 1000)
    merge_segments_every_seconds: float = _doc(
        "`search_sync --every` merges the small segments edits left this often (search/sync/segments.py); 0 never.",
        600.0,
        env="SEARCH_MERGE_SEGMENTS_EVERY",
    )
    merge_segments_over: int = _doc("... when a copy of a live index's shard holds more segments than this.", 4)
    merge_segments_max_bytes: int = _doc(
        "... rewriting at most this many bytes on any copy: the smallest segments, never the large ones (more waits for `reindex`).", 268_435_456
    )
    merge_segments_timeout_seconds: float = _doc(
        "... waiting this long for it; it runs beside the rounds, which go on meanwhile, and the next waits for it to end.", 300.0
    )


@dataclass(frozen=True)
class RankingSettings:
    """What a query becomes and how results are ranked (search/querying/)."""

    max_query_length: int = _doc("Characters of a query searched (cut at a word boundary).", 200)
    max_query_words: int = _doc("Words of a query searched.", 12)
    max_query_tokens: int = _doc("Tokens as Elasticsearch sees them (a hyphen-joined or CJK word holds many).", 12)
    max_suggest_words: int = _doc("Words of a query corrected at most: the first it does not know (bench/hostile.py) ...", 6)
    max_suggest_word_length: int = _doc("... and at no word longer than this. Unless set, 40 for German, whose compounds are long.", 30)
    typed_score: float = _doc("The fixed score of what was typed: above any correction, so it stays first.", 1.1)
    min_suggestion_score: float = _doc("Corrections scoring less are dropped (also the score of keeping an unknown word).", 0.6)
    max_alternatives: int = _doc("Alternatives searched, what was typed included.", 5)
    synonym_alternatives: int = _doc("Synonym alternatives of a query: an alternative a rule touches, searched again with the rules (0: rules unused).", 3)
    synonym_score_factor: float = _doc("A synonym alternative's score against the alternative it expands (below 1: never above what was typed).", 0.8)
    max_options_per_word: int = _doc("Corrections kept per word.", 3)
    typo_costs: TypoCosts = _doc("The typo model's edit costs (below).", TypoCosts())
    known_word_min_docs: int = _doc("A typed word that many documents hold is never corrected (a rare typo is).", 3)
    keep_present_score: float = _doc("Score of keeping a typed word fewer documents hold, when several words are corrected together.", 0.9)
    suggester: SuggesterOptions = _doc("Term suggester options (below); the dictionary follows them too.", SuggesterOptions())
    max_candidates: int = _doc("Words the dictionary proposes per typed word, nearest and most common first, for the typo model to score.", 200)
    fuzzy_completion_min_length: int = _doc("An unfinished last word this long that no word starts with is completed as a typo (firfo: firefox).", 4)
    tiers: Mapping = _doc("Ranking tiers and their constant scores (docs/search.md).", TIERS)
    completion_weight: float = _doc(
        "An unfinished last word's completions weigh this times what was typed (below 1: the word as typed "
        "first; above the corrections' weights: completions before corrections).",
        0.9,
    )
    form_completion_weight: float = _doc(
        "... but a last word the blog holds in another form (German, French: 'micros' beside 'micro') is likely finished: "
        "its completions weigh this, below a title holding its stem (0.25 of a title holding it as typed): 'micros' finds Micro before Microsoft.",
        0.15,
    )
    title_boost: float = _doc("Inside a tier, BM25 weighs the title this many times the text.", 2.0)
    instant_title_weight: float = _doc(
        "As you type, a title holding some of the words weighs this (times the alternative's weight): above the body "
        "tiers together (15), below a title holding every word (16), so the dropdown, which shows titles, lists title matches first (0: off).",
        15.5,
    )
    fuzzy_title_completion: str = _doc(
        "As you type, when a word before the last is in no title: titles holding the words up to this many edits each (Elasticsearch's fuzziness; empty: off).",
        "1",
    )
    most_words_from: int = _doc(
        "The `title.most.words` tier (a title holding most words: readers put words around a title) is searched from this many non-stop words (docs/search.md)",
        3,
    )
    most_words_match: str = _doc(
        "... and how many of them the title must hold (Elasticsearch's `minimum_should_match`: -40% leaves out one of 3-4, two of 5-7).", "-40%"
    )
    frequent_word_ratio: float = _doc(
        "A title holding a query's rarer words also reaches `title.most.words` without the words this many times as common "
        "(documents holding them, against the query's rarest word: 'funktioniert' in 'wie funktioniert node'), and without a word no title holds "
        "as common as that ('bedeutet' in 'was bedeutet monade'). 0 turns both off.",
        4.0,
    )
    held_forms: int = _doc(
        "A word the blog lacks but holds in forms its stemmer keeps apart (German, French) is searched in this many of them, "
        "its lemma's by the lexicon first (search/lemmas.py), then the nearest by ending (search/languages.py), "
        "on top of `max_alternatives`; 0 turns it off.",
        8,
        min=0,
    )
    compound_forms: int = _doc(
        "On a German blog a query is also searched with a word in one of the blog's compounds that end in it, up to this many, "
        "those titles hold first, below the words as typed ('migration': datenbankmigration; search/compounds.py); 0 turns it off.",
        3,
        min=0,
    )
    weak_typo_min_length: int = _doc(
        "A word the index lacks is corrected by any other single edit (another letter, a stray extra one) only from this length "
        "(search/querying/corrections.py).",
        6,
    )
    two_typos_min_length: int = _doc("... and by two edits only from this length; a correction that is not sure is offered as 'Did you mean'.", 8)
    likely_two_slips_min_length: int = _doc(
        "When nothing is found as typed, a word the blog lacks two slips from one `did_you_mean_min_docs` documents hold ('fpemat': format) "
        "is searched in its place from this length (5 at least), shown as 'Showing results for' (search/querying/corrections.py, step 6); 0 turns it off.",
        6,
        min=0,
    )
    sound_min_length: int = _doc("... and by a word that sounds the same (typo_costs.sound_key) only from this length.", 5)
    two_slips_min_length: int = _doc("... and by two slips (neighbouring keys, swaps, letters dropped or doubled) only from this length.", 7)
    exchange_min_length: int = _doc(
        "... and by two letters exchanged that are not neighbours (typo_costs.exchange: 'vefiry', verify) only from this length.", 5
    )
    split_min_part: int = _doc("... and split in two words only when each has this many letters.", 3)
    far_guess_min_length: int = _doc(
        "When nothing else finds a post, a word the index lacks of this many letters is guessed three or more edits away "
        "('behavoueir': behaviour; search/querying/corrections.py, step 8); 0 turns it off.",
        8,
        min=0,
    )
    far_guess_min_score: float = _doc("... when the typo model scores the guess at least this (0 to 1).", 0.7)
    real_word_min_zipf: float = _doc(
        "A word the index lacks that the blog's language uses this often (wordfreq's Zipf scale, 3 to 8; search/realwords.py) is a real word: "
        "offered as 'Did you mean', never corrected in the reader's place. 0 turns it off.",
        3.0,
        env="SEARCH_REAL_WORD_MIN_ZIPF",
    )
    rare_word_min_zipf: float = _doc(
        "A word the index lacks that the blog's language uses this often, but less than real_word_min_zipf, is a rare real word (cobol, kotlin; "
        "also the misspellings people make most): corrected only by a slip or a sound-alike. 0 turns it off.",
        2.0,
    )
    software_names: bool = _doc(
        "A word the blog lacks that names one of PyPI's most downloaded packages (memray, loguru: search/names.py) is a name, "
        "not a typo: searched as typed and offered 'Did you mean', never corrected in the reader's place.",
        True,
    )
    corrected_completion_min_docs: int = _doc(
        "An unfinished last word whose start is corrected is completed in the reader's place only into a word this many documents hold.", 2
    )
    did_you_mean_min_docs: int = _doc(
        "'Did you mean' offers a correction of a real word the blog lacks (lettuce, kotlin) only when each word it puts in is held by this "
        "many documents: fewer is almost nothing (lettuce: lattice, 1 post). A word that is no real word gets its offer at any count "
        "(althete: athlete, 1 post). 0 turns it off (bench/offers.py).",
        3,
        min=0,
    )
    relevance_weight: float = _doc("BM25's scale inside a tier: breaks ties without crossing tiers.", 0.01)


@dataclass(frozen=True)
class ServingSettings:
    """Answering readers: pages, caches, time budgets, breakers (search/querying/service.py, views)."""

    page_size: int = _doc("Results per page.", 10)
    max_page: int = _doc("The last page the pager reaches; a later page is answered as past the end, with a link to the last.", 50)
    count_bound: int = _doc(
        'Matching posts a search without facets counts exactly; past it the page says "more than N" and Elasticsearch skips the '
        "documents that cannot make the page (docs/search.md#counts). At least max_page times page_size plus one, so the pager stays exact.",
        1000,
        min=1,
    )
    count_apart_up_to: int = _doc(
        'A query with several spellings counts each apart ("N results for <the one shown>") while the dictionary says it matches at '
        "most this many documents; past it, with no facets, the count is every spelling's, bounded (docs/search.md#counts).",
        10000,
        min=0,
    )
    highlight_fragment_size: int = _doc("Characters of a result's snippet.", 160)
    entry_comments: int = _doc("Matching comments shown inside a post's entry on the results page.", 3)
    instant_counts: bool = _doc(
        'As you type with several spellings, count the posts of the one shown, so the dropdown says "See all N results" with the page\'s N '
        '(a keystroke\'s Elasticsearch time +20-25%: bench/instant_cost.py; off: "See all results").',
        True,
    )
    empty_page_posts: int = _doc("Newest posts a results page that finds nothing lists instead (0: none).", 5)
    empty_page_tags: int = _doc("Commonest tags a results page that finds nothing offers (0: none).", 8)
    facet_tags: int = _doc("Tags the results page offers to narrow by (those of the most matching documents, counted in posts).", 10)
    page_facets: bool = _doc("The results page counts tags and years to narrow by (off: filters still work by URL).", True, env="SEARCH_PAGE_FACETS")
    facet_years: int = _doc('Years the results page lists to narrow by, those with the most results; the others behind "All N years".', 5)
    max_filter_tags: int = _doc("Tags a reader may require at once.", 5)
    max_excluded_posts: int = _doc("Posts a query's -exclusions leave out at most (past it, the answer is not cached).", 10000)
    suggest_completions: int = _doc("Completions /api/suggest/ offers the browser's search bar.", 8)
    cache_seconds: int = _doc("Result cache lifetime (entries also die with the index generation); 0 disables it.", 300, env="SEARCH_CACHE_SECONDS")
    answer_memo_bytes: int = _doc(
        "Bytes of JSON API answers to repeated requests each process keeps as sent (search/answers.py); 0 turns it off.",
        2**20,
        env="SEARCH_ANSWER_MEMO_BYTES",
    )
    word_cache_seconds: int = _doc("Per-word suggestion cache lifetime (same invalidation); 0 disables it.", 3600, env="SEARCH_WORD_CACHE_SECONDS")
    generation_listen: bool = _doc(
        "Learn of index changes by LISTEN/NOTIFY, not a read per search (off behind a transaction-pooling PgBouncer).", True, env="SEARCH_GENERATION_LISTEN"
    )
    generation_recheck_seconds: float = _doc("... and re-read the generation anyway this often.", 1.0)
    generation_wait_seconds: float = _doc("A writer waits at most this long to hear its own notification.", 0.1)
    deadline_seconds: float = _doc("One search's time budget across its round trips.", 1.5, env="SEARCH_DEADLINE_SECONDS")
    search_breaker_seconds: float = _doc("Once the search breaker opens, searches answer 503 at once this long; then one probe search tries.", 3.0)
    search_breaker_window_seconds: float = _doc("The search breaker weighs the searches of this many last seconds ...", 10.0)
    search_breaker_min_calls: int = _doc("... opens only when at least this many were made ...", 5)
    search_breaker_failure_ratio: float = _doc("... and at least this share of them failed (a lost node's one timeout does not open it).", 0.5)
    cache_breaker_seconds: float = _doc("After a cache failure (Redis down or hanging), searches skip it this long.", 10.0)
    retry_after_seconds: int = _doc("Retry-After of the 503 pages.", 30)
    debug_table: str = _doc(
        "Who may see ?debug-search: all, staff or off (all when DEBUG is on).", "staff", env="SEARCH_DEBUG_TABLE", choices=("all", "staff", "off")
    )
    baseline_views: bool = _doc("/api/baseline/<name>/, the searches we are measured against (bench/load.py only).", False, env="SEARCH_BASELINE_VIEWS")
    base_template: str = _doc("The site's template the search pages extend (blocks `title` and `content`); it should include search/box.html.", "base.html")
    home_url: str = _doc("The site's home page, linked from the search pages and the OpenSearch description: a path, URL or URL name.", "/")
    opensearch_icon: str = _doc("The 16x16 PNG the browser shows beside the site's search (a static file's path).", "search/icon.png")
    recorder: str = _doc("A module the views hand each search served to (search/recording.py): record(), result_links(), instant_burst(); empty: none.", "")
    words: SiteWords = _doc("The site's own nouns on every page a reader sees (below).", SiteWords())


@dataclass(frozen=True)
class ElasticsearchSettings:
    """The connection (search/client.py). Short timeouts: a reader's request never waits long on
    search, and the blog keeps working when Elasticsearch is slow or down."""

    url: str = _doc(
        "One node, or several comma-separated (a cluster): requests are spread over them, and one that cannot connect to a node is tried on another.",
        "http://127.0.0.1:9200",
        env="ELASTICSEARCH_URL",
    )
    timeout: float = _doc(
        "A search request's timeout (a search normally takes 5-50 ms); past it the search answers 503, so a response stays well under 2 s.",
        1.0,
        env="ELASTICSEARCH_TIMEOUT",
    )
    bulk_timeout: float = _doc("The management commands' bulk requests may take longer than a reader's.", 60.0, env="ELASTICSEARCH_BULK_TIMEOUT")
    sync_timeout: float = _doc(
        "A save's sync after the commit waits this long for its bulk request (the save waits for it): one queued behind a rebuild's load takes seconds.",
        2.0,
        env="ELASTICSEARCH_SYNC_TIMEOUT",
    )
    max_retries: int = _doc(
        "Attempts after a connection error (never after a timeout), within the request's timeout; -1: one per other node in `url` (none with one node).",
        -1,
        env="ELASTICSEARCH_MAX_RETRIES",
        min=-1,
    )
    retry_on_status: tuple = _doc('Answers that mean "this node cannot serve it now" (a node shutting down): tried elsewhere too.', (502, 503))
    min_attempt_seconds: float = _doc("No retry is started with less than this left of the request's timeout.", 0.05)
    dead_node_backoff: float = _doc("A node that failed is skipped this long, then twice as long ... while it keeps failing ...", 1.0)
    max_dead_node_backoff: float = _doc("... up to this long.", 30.0)

    def __repr__(self) -> str:
        """Never the credentials a node URL may carry (error pages and reports show locals)."""
        shown = ", ".join(f"{f.name}={safe_url(self.url) if f.name == 'url' else getattr(self, f.name)!r}" for f in fields(self))
        return f"ElasticsearchSettings({shown})"


@dataclass(frozen=True)
class MetricsSettings:
    """Prometheus metrics (search/metrics.py, search/metrics_state.py; docs/operations.md#metrics)."""

    enabled: bool = _doc(
        "Count searches, Elasticsearch requests, syncs and cache lookups, and serve them at /metrics (off: nothing is counted, /metrics answers 404).",
        True,
        key="METRICS",
        env="SEARCH_METRICS",
    )
    allow: str = _doc(
        "Addresses or networks (CIDR), comma-separated, that may read /metrics besides loopback (the connection's own address, never a "
        "forwarded header); everyone else gets 404.",
        "",
        key="METRICS_ALLOW",
        env="SEARCH_METRICS_ALLOW",
    )
    token: str = _doc(
        "A secret that also lets a scraper in from anywhere (`Authorization: Bearer <token>`); empty: none.",
        "",
        key="METRICS_TOKEN",
        env="SEARCH_METRICS_TOKEN",
    )
    sync_port: int = _doc(
        "`search_sync --every` serves its own counters (rounds, freshness) on this port, same access rules (0: it serves none).",
        0,
        key="METRICS_SYNC_PORT",
        env="SEARCH_METRICS_SYNC_PORT",
    )
    sync_address: str = _doc(
        "... on this address (the compose file's scheduler: 0.0.0.0, reached by Prometheus only).",
        "127.0.0.1",
        key="METRICS_SYNC_ADDRESS",
        env="SEARCH_METRICS_SYNC_ADDRESS",
    )
    scrape_timeout_seconds: float = _doc(
        "A scrape's PostgreSQL and Elasticsearch questions (outbox, documents, ages) wait at most this long each; a figure not read in time is left out.",
        0.5,
        key="METRICS_SCRAPE_TIMEOUT_SECONDS",
    )

    def __repr__(self) -> str:
        """Never the token (error pages and reports show locals)."""
        shown = ", ".join(f"{f.name}={'***' if f.name == 'token' and self.token else repr(getattr(self, f.name))}" for f in fields(self))
        return f"MetricsSettings({shown})"


@dataclass(frozen=True)
class SearchSettings:
    index: IndexSettings = field(default_factory=IndexSettings)
    sync: SyncSettings = field(default_factory=SyncSettings)
    ranking: RankingSettings = field(default_factory=RankingSettings)
    serving: ServingSettings = field(default_factory=ServingSettings)
    elasticsearch: ElasticsearchSettings = field(default_factory=ElasticsearchSettings)
    metrics: MetricsSettings = field(default_factory=MetricsSettings)


# The Django setting that holds each group's overrides.
SOURCES = MappingProxyType(
    {
        "index": "SEARCH",
        "sync": "SEARCH",
        "ranking": "SEARCH",
        "serving": "SEARCH",
        "elasticsearch": "ELASTICSEARCH",
        "metrics": "SEARCH",
    }
)
GROUPS = tuple(SOURCES)


def _group_classes(source: str | None = None) -> dict[str, type]:
    return {f.name: f.default_factory for f in fields(SearchSettings) if source in (None, SOURCES[f.name])}


def override_keys(source: str = "SEARCH") -> dict[str, tuple[str, str]]:
    """The `source` setting's keys -> (group, field): the upper-case field name, unless the field
    names its own."""
    keys = {}
    for group, cls in _group_classes(source).items():
        for f in fields(cls):
            keys[f.metadata.get("key", f.name.upper())] = (group, f.name)
    return keys


def _default(f):
    return f.default if f.default is not MISSING else f.default_factory()


def _coerce(key: str, f, value, problems: list[str]):
    """The override as the field's type, or None after noting why it is wrong."""
    default = _default(f)
    if isinstance(default, TypoCosts | SuggesterOptions | SiteWords):
        cls = type(default)
        if not isinstance(value, Mapping):
            problems.append(f"{key} must be a dict, not {value!r}")
            return None
        names = {g.name for g in fields(cls)}
        unknown = sorted(set(value) - names)
        if unknown:
            problems.append(f"{key} has unknown names {unknown} (known: {sorted(names)})")
            return None
        parts = {g.name: g for g in fields(cls)}
        coerced = {name: _coerce(f"{key}[{name!r}]", parts[name], v, problems) for name, v in value.items()}
        return None if None in coerced.values() else replace(default, **coerced)
    if isinstance(default, Mapping):  # the tiers
        if not isinstance(value, Mapping):
            problems.append(f"{key} must be a dict, not {value!r}")
            return None
        unknown = [t for t in value if t not in TIER_NAMES]
        if unknown:
            problems.append(f"unknown tier {unknown[0]!r} in {key}")
            return None
        return MappingProxyType(dict(value))
    if isinstance(default, tuple):  # a list is taken for a tuple; its items have the defaults' type
        return _coerce_items(key, default, value, problems)
    value, ok = _as_kind(type(default), value)
    if not ok:
        problems.append(f"{key} must be {type(default).__name__}, not {value!r}")
        return None
    choices, least = f.metadata.get("choices"), f.metadata.get("min")
    if choices and value not in choices:
        problems.append(f"{key} must be one of {sorted(choices)}, not {value!r}")
        return None
    if least is not None and value < least:
        problems.append(f"{key} must be at least {least}, not {value!r}")
        return None
    return value


def _as_kind(kind: type, value) -> tuple[object, bool]:
    """(value, whether it is of `kind`): an int is taken for a float, a bool never for a number."""
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value), True
    return value, isinstance(value, kind) and not (kind is not bool and isinstance(value, bool))


def _coerce_items(key: str, default: tuple, value, problems: list[str]):
    if not isinstance(value, list | tuple):
        problems.append(f"{key} must be a list, not {value!r}")
        return None
    kind = type(default[0]) if default else object
    items = [_as_kind(kind, item) for item in value]
    if not all(ok for _, ok in items):
        problems.append(f"{key} must be a list of {kind.__name__}, not {value!r}")
        return None
    return tuple(item for item, _ in items)


def build(overrides: Mapping, *, elasticsearch: Mapping | None = None) -> SearchSettings:
    """The settings object for these overrides (of SEARCH and ELASTICSEARCH); raises
    ImproperlyConfigured naming every problem."""
    classes = _group_classes()
    changes: dict[str, dict] = {group: {} for group in classes}
    messages = []
    for source, given in (("SEARCH", overrides), ("ELASTICSEARCH", elasticsearch or {})):
        keys = override_keys(source)
        problems = [f"unknown key {key!r} (misspelled?)" for key in given if key not in keys]
        for key, value in given.items():
            if key not in keys:
                continue
            group, name = keys[key]
            f = next(g for g in fields(classes[group]) if g.name == name)
            coerced = _coerce(key, f, value, problems)
            if coerced is not None:
                changes[group][name] = coerced
        if problems:
            messages.append(f"settings.{source}: " + "; ".join(problems))
    if messages:
        raise ImproperlyConfigured(" / ".join(messages))
    built = SearchSettings(**{group: classes[group](**changes[group]) for group in classes})
    given = overrides.get("TYPO_COSTS") or {}
    language = built.index.language
    if "keyboard" not in given or "sound_key" not in given:  # the blog's language's keyboard and sounds
        costs = built.ranking.typo_costs
        costs = costs if "keyboard" in given else replace(costs, keyboard=KEYBOARDS[language])
        costs = costs if "sound_key" in given else replace(costs, sound_key=SOUND_KEYS.get(language, costs.sound_key))
        built = replace(built, ranking=replace(built.ranking, typo_costs=costs))
    if "MAX_SUGGEST_WORD_LENGTH" not in overrides and built.index.language in LONGEST_WORDS:
        built = replace(built, ranking=replace(built.ranking, max_suggest_word_length=LONGEST_WORDS[built.index.language]))
    return built


# The keyboard each language's readers type on (TypoCosts.keyboard).
KEYBOARDS = {"en": "qwerty", "de": "qwertz", "fr": "azerty"}
# The sound key of a language whose spelling Double Metaphone does not know (TypoCosts.sound_key).
# German's Cologne keys tell consonants alone: a sound-alike may not shorten the word with them
# (sounds.spells_vowels). Measured: docs/benchmarks.md#german-and-french-blogs.
SOUND_KEYS = {"fr": "phonetic_fr", "de": "cologne"}
# The longest word corrected, where the language's words are longer than the default allows:
# 6 of the German blog's 16,437 words have more than 30 letters ("wahrscheinlichkeitsverteilungen").
LONGEST_WORDS = {"de": 40}


_lock = threading.Lock()
_current: SearchSettings | None = None


def get() -> SearchSettings:
    """The settings in force (built from settings.SEARCH on first use)."""
    current = _current
    return current if current is not None else reload()


def reload() -> SearchSettings:
    """Build the object again from settings.SEARCH and ELASTICSEARCH (after changing one
    in place)."""
    global _current
    with _lock:
        _current = build(
            getattr(settings, "SEARCH", {}) or {},
            elasticsearch=getattr(settings, "ELASTICSEARCH", {}) or {},
        )
        return _current


def override(**changes) -> SearchSettings:
    """Set some overrides for the rest of this process (benchmarks and commands; tests use the
    `settings` fixture) and rebuild the object: each key goes to the setting that holds its group
    (SEARCH or ELASTICSEARCH; a key of neither goes to SEARCH, whose check names it). A
    dict setting (TYPO_COSTS, SUGGESTER) may name only some of its parts. A new connection
    setting takes effect at the client's next request (search/client.py listens)."""
    sources = {key: source for source in set(SOURCES.values()) for key in override_keys(source)}
    for source in {sources.get(key, "SEARCH") for key in changes}:
        mine = {key: value for key, value in changes.items() if sources.get(key, "SEARCH") == source}
        setattr(settings, source, {**(getattr(settings, source, {}) or {}), **mine})
        setting_changed.send(sender=override, setting=source, value=getattr(settings, source), enter=True)
    return reload()


def _forget() -> None:
    global _current
    with _lock:
        _current = None


def _on_setting_changed(*, setting, **_):
    if setting in ("SEARCH", "ELASTICSEARCH"):
        reload()


setting_changed.connect(_on_setting_changed)
process.register("settings object", _forget)


def overrides_from_environment(environ: Mapping, *, debug: bool = False, source: str = "SEARCH") -> dict:
    """settings.SEARCH (or ELASTICSEARCH: `source`) from the environment: a key for each
    variable that is set (the fields name their variables), parsed by search/envvars.py's rules. With
    DEBUG on, everyone sees the debug table."""
    found = {}
    for key, (group, name) in override_keys(source).items():
        f = next(g for g in fields(_group_classes()[group]) if g.name == name)
        variable = f.metadata.get("env")
        if variable and variable in environ:
            found[key] = parse(variable, environ[variable], type(_default(f)))
    if debug and source == "SEARCH":
        found.setdefault("DEBUG_TABLE", "all")
    return found


# ---------------------------------------------------------------- a site's own app's settings

setting = _doc  # a field with its default and its sentence: `enabled: bool = setting("...", True, env="MYAPP_ENABLED")`


def typed(cls, given: Mapping, *, source: str):
    """An instance of `cls` (a frozen dataclass of `setting()` fields) from the overrides of the
    Django setting `source`, keyed by upper-case field names, checked as search's own are; raises
    ImproperlyConfigured naming every problem."""
    keys = {f.metadata.get("key", f.name.upper()): f for f in fields(cls)}
    problems = [f"unknown key {key!r} (misspelled?)" for key in given if key not in keys]
    changes = {}
    for key, value in given.items():
        if key in keys:
            coerced = _coerce(key, keys[key], value, problems)
            if coerced is not None:
                changes[keys[key].name] = coerced
    if problems:
        raise ImproperlyConfigured(f"settings.{source}: " + "; ".join(problems))
    return cls(**changes)


def environment_overrides(cls, environ: Mapping) -> dict:
    """The overrides of `cls`'s fields whose variables (`env=`) are set in `environ`."""
    found = {}
    for f in fields(cls):
        variable = f.metadata.get("env")
        if variable and variable in environ:
            found[f.metadata.get("key", f.name.upper())] = parse(variable, environ[variable], type(_default(f)))
    return found


def table_rows(cls, *, group: str, source: str) -> list[str]:
    """The Markdown rows of `cls`'s fields, as documented_table() writes search's own."""
    rows = []
    for f in fields(cls):
        default = _default(f)
        shown = "see below" if isinstance(default, TypoCosts | SuggesterOptions | SiteWords | Mapping) else repr(default)
        env = f"`{f.metadata['env']}`" if "env" in f.metadata else ""
        key = f.metadata.get("key", f.name.upper())
        named = f"`{key}`" if source == "SEARCH" else f'`{source}["{key}"]`'
        rows.append(f"| `{group}.{f.name}` ({named}) | `{shown}` | {env} | {f.metadata['doc']} |")
    return rows


def documented_table() -> str:
    """The Markdown table of every tunable (docs/configuration.md holds it; a test compares)."""
    rows = ["| setting (override key) | default | environment | what it does |", "| --- | --- | --- | --- |"]
    for group, cls in _group_classes().items():
        rows += table_rows(cls, group=group, source=SOURCES[group])
    for title, cls in (("ranking.typo_costs", TypoCosts), ("ranking.suggester", SuggesterOptions), ("serving.words", SiteWords)):
        rows += ["", f"`{title}` (a dict of these names overrides some or all of them):", "", "| name | default | what it does |", "| --- | --- | --- |"]
        rows += [f"| `{f.name}` | `{f.default!r}` | {f.metadata['doc']} |" for f in fields(cls)]
    rows += ["", "`ranking.tiers` (the whole dict overrides; a tier left out is not searched):", "", "| tier | weight |", "| --- | --- |"]
    rows += [f"| `{name}` | {weight} |" for name, weight in TIERS.items()]
    return "\n".join(rows) + "\n"


if __name__ == "__main__":  # python -m search.conf: the table of docs/configuration.md
    print(documented_table(), end="")
