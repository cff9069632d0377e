"""Index design: analyzers, mappings and names, defined once.

Two document types, each in its own index behind an alias (`<prefix>-posts`, `<prefix>-comments`;
a post's document holds its shown comments' text, so a search addresses the posts alone);
the real index name carries a UTC timestamp so that `reindex` can build a new one beside the live
one and swap the alias atomically.

Every analysis component named here exists under the same name in the full Elasticsearch
distribution, so the mappings run unchanged on the official Docker image; the development node
gets them from devservices/es-plugin.
"""

import hashlib
import json
from enum import StrEnum

from elasticsearch.dsl import Date, Document, Index, Keyword, Long, Text, analyzer, char_filter, token_filter

from search import conf, languages, registry, symbols
from search.words import WORD_JOINS


class Kind(StrEnum):
    """The one vocabulary of document kinds. The value names the index and alias ("posts", as in
    `blog-posts`); `entry` names one document of it, as outbox entries and `doc_type` do ("post")."""

    POSTS = "posts"
    COMMENTS = "comments"

    @property
    def entry(self) -> str:
        return self.value[:-1]

    @classmethod
    def of_entry(cls, entry: str) -> "Kind":
        """The kind an outbox entry or a document's `doc_type` names ("post" -> Kind.POSTS)."""
        return cls(f"{entry}s")


KINDS = tuple(Kind)
# The searched fields, each with its `.exact` sub-field (SearchableFields below); the query, the
# suggesters and the baselines take their field lists from here.
SEARCHED_FIELDS = ("title", "text", "comment")
EXACT = "exact"
# The term suggesters and the dictionary of the index's words read the words as written.
SUGGESTER_FIELDS = {field: f"{field}.{EXACT}" for field in SEARCHED_FIELDS}
# What a result needs from `_source` (search/querying/reader.py), never the bodies: the one list of it.
RESULT_FIELDS = ("doc_type", "post_id", "comment_id", "title", "post_title", "url", "post_url", "author", "pub_date")

# A dot, a colon or an underscore splits words, wherever it is. The standard tokenizer keeps
# "node.js", "Amazon.com", "window.onload", "Wikipedia:Canvassing" and "session_start" whole
# (Unicode's word-break rules join letters across them), so "node js", "amazon", "wikipedia
# canvassing" or "session start" found no such title. It
# already split "10:30"; now "3.14" is 3 and 14 too (the phrase "3 14", typed either way), as
# `words()` splits the query. A reader's words are split at the same characters
# (search/words.py), so what was typed and what is indexed agree. One
# character for one: the offsets (highlighting) stay exact. With the full-width and small forms
# that the query's NFKC folds into a dot, a colon or an underscore (the tokenizer would keep "Node．js" whole, and
# asciifolding make it "node.js", which no query could match).
word_joins = char_filter("word_joins", type="mapping", mappings=[f"{ch} => \\u0020" for ch in WORD_JOINS])

# "c#", "c++", ".net": each configured symbol word written as one token ("csharp") before the
# tokenizer, which would drop the symbols (search/symbols.py: why, and where a word counts). Before
# `word_joins`, which would split ".net" at its dot.
symbol_words = [char_filter(f.pop("name"), **f) for f in symbols.char_filters(conf.get().index.symbol_words)]
CHAR_FILTERS = [*symbol_words, word_joins]

# The two analyzers of every text field, their chains in the blog's language (search/languages.py):
# matching for recall (stemmed, stop words removed, accents folded), and the words as written in
# the blog (lowercased and folded, stop words kept, an English possessive or a French article
# off). The exact tier of the query ranks the words as written above stem-only matches, and the
# term suggesters and the dictionary read them, so a reader is offered words they recognise, never
# stems. "Kirby's" is the word "kirby" as written; without the possessive filter a reader typing
# "kirby" would miss it. The stemmed analyzer keeps its first name, `english_text`, in every
# language: the indices of an English blog need no rebuild for the name.
STEM_TEXT = "english_text"
EXACT_TEXT = "exact_text"

# The blog's synonym rules (search/synonyms.py) are applied by Elasticsearch, at search time only:
# the rules are copied from PostgreSQL into a synonyms set (`PUT _synonyms/<prefix>-synonyms`),
# which an `updateable` synonym_graph filter reads, reloaded by Elasticsearch on every change of
# the set: no reindex. Two analyzers carry it, each the chain of a field family with the filter
# added after the words are lowercased and folded (and, for the stemmed one, stop words dropped:
# a stop filter after a graph filter breaks the graph) and before stemming. No field is indexed
# with them (an updateable filter may not be): the query names them in the clauses of a synonym
# alternative (search/querying/query.py), so what was typed keeps its own clauses, unexpanded.
STEM_SYNONYMS = "english_text_synonyms"
EXACT_SYNONYMS = "exact_text_synonyms"


def synonyms_set() -> str:
    """The synonyms set of this deployment's indices (one per index prefix, as the aliases)."""
    return f"{conf.get().index.prefix}-synonyms"


def _filters(chain: list[tuple]) -> list:
    """A chain of search/languages.py as the DSL's filters: a built-in one by its name."""
    return [name if definition is None else token_filter(name, **definition) for name, definition in chain]


def analyzers() -> list:
    """The analyzers of an index in the blog's language: the two of every field and the two that
    add the synonym rules, at search time only."""
    language, english_stemmer = conf.get().index.language, conf.get().index.stemmer
    blog_synonyms = ("blog_synonyms", {"type": "synonym_graph", "synonyms_set": synonyms_set(), "updateable": True, "lenient": True})
    chains = {
        STEM_TEXT: languages.stemmed_chain(language, english_stemmer),
        EXACT_TEXT: languages.exact_chain(language),
        STEM_SYNONYMS: languages.stemmed_chain(language, english_stemmer, synonyms=blog_synonyms),
        EXACT_SYNONYMS: languages.exact_chain(language, synonyms=blog_synonyms),
    }
    return [analyzer(name, tokenizer="standard", char_filter=CHAR_FILTERS, filter=_filters(chain)) for name, chain in chains.items()]


def searchable(**kwargs) -> Text:
    """A text field for matching and highlighting (offsets make long bodies cheap), with its words
    as written in the `exact` sub-field for the exact tier and the suggesters.

    The `exact` sub-field allows fielddata for one purpose: `reindex` reads the dictionary of the
    index's words from it (search/vocabulary.py) with a terms aggregation, one field at a time,
    then drops it again."""
    exact = Text(analyzer=EXACT_TEXT, fielddata=True)
    return Text(analyzer=STEM_TEXT, index_options="offsets", fields={EXACT: exact}, **kwargs)


def stored() -> Keyword:
    """A field kept only in _source, for showing results without a database round trip."""
    return Keyword(index=False, doc_values=False)


class SearchableFields(Document):
    """The fields searched and suggested on. Both indices map all three: a post's `comment` holds
    its shown replies' text, a comment's `title` and `text` stay empty, and the one query serves
    the entries' search and the comments' request (query.comments_body)."""

    title = searchable()
    text = searchable()
    comment = searchable()


class PostDocument(SearchableFields):
    """A visible entry (a post). Owns the mapping; the site's declaration (search/registry.py)
    owns which rows and what they hold, and `prepare_row` turns a row into a plain dict (a fast
    dict, no DSL object per row), as django-elasticsearch-dsl's Document and Read the Docs'
    PageDocument do."""

    doc_type = Keyword()
    post_id = Long()  # PostgreSQL ids are bigint: an `integer` refuses ids past 2^31
    url = stored()
    pub_date = Date()
    tags = Keyword()
    comment_ids = Long()  # the replies whose text `comment` holds: a moved or deleted one's entry is found by it
    fingerprint = Long(index=False)  # the audit sums it (search/versions.py entry_fingerprint)

    @staticmethod
    def prepare_row(row) -> dict:
        entries, replies = registry.entries(), registry.replies()
        shown = getattr(row, SHOWN_REPLIES, [])
        return {
            "doc_type": Kind.POSTS.entry,
            "post_id": row.pk,
            "title": entries.title_of(row),
            "text": entries.text_of(row),
            "comment": [replies.text_of(reply) for reply in shown],
            "comment_ids": [reply.pk for reply in shown],
            "url": entries.url(row),
            "pub_date": entries.date_of(row),
            "tags": entries.tags_of(row),
            "fingerprint": getattr(row, "fingerprint", None),
        }

    @staticmethod
    def versioned():
        """Every entry row, annotated with its version and visibility (search/versions.py)."""
        from search.versions import with_versions

        entries = registry.entries()
        return with_versions(entries.get_queryset(), entries, replies=registry.replies())

    @classmethod
    def rows(cls):
        """Versioned rows with the columns (and tags) their documents read, and the text of their
        shown replies, in one query each."""
        entries = registry.entries()
        return cls.versioned().only(*entries.own_columns()).prefetch_related(*entries.prefetch(), *_shown_replies())

    @classmethod
    def indexable_rows(cls):
        """The visible entries (the declared rule at PostgreSQL's statement time), by primary key;
        `rows()` reads their documents' columns."""
        return cls.versioned().filter(visible_now=True).order_by("pk")


# The attribute rows() puts an entry's shown replies in, oldest first.
SHOWN_REPLIES = "search_shown_replies"


def _shown_replies() -> list:
    """The prefetch of an entry's shown replies with the columns their text reads (never their
    dates: a reply Python cannot read fails its own document, not its entry's)."""
    from django.db.models import Prefetch

    from search.versions import shown_replies

    replies = registry.replies()
    if replies is None:
        return []
    columns = [
        replies.model._meta.pk.name,
        replies.entry_field.attname,
        *([replies.text] if replies.text and not hasattr(replies, "prepare_text") else []),
        *replies.columns,
    ]
    accessor = replies.entry_field.remote_field.get_accessor_name()
    return [Prefetch(accessor, queryset=shown_replies(replies).only(*dict.fromkeys(columns)).order_by("pk"), to_attr=SHOWN_REPLIES)]


class CommentDocument(SearchableFields):
    """A visible reply (a comment) on a visible entry, carrying copies of its entry's title, date
    and tags. Searches address the entries (whose documents hold their replies' text); this index
    answers which replies of a results page's entries match (query.comments_body)."""

    doc_type = Keyword()
    comment_id = Long()
    post_id = Long()
    post_title = stored()
    url = stored()
    post_url = stored()  # the entry's own url(): an entry a reply leads links it
    author = stored()
    created = Date()
    pub_date = Date()
    tags = Keyword()
    fingerprint = Long(index=False)

    @staticmethod
    def prepare_row(row) -> dict:
        entries, replies = registry.entries(), registry.replies()
        entry = getattr(row, replies.entry)
        return {
            "doc_type": Kind.COMMENTS.entry,
            "comment_id": row.pk,
            "post_id": entry.pk,
            "post_title": entries.title_of(entry),
            "url": replies.url(row),
            "post_url": entries.url(entry),
            "author": replies.author_of(row),
            "comment": replies.text_of(row),
            "created": replies.date_of(row),
            "pub_date": entries.date_of(entry),
            "tags": entries.tags_of(entry),
            "fingerprint": getattr(row, "fingerprint", None),
        }

    @staticmethod
    def versioned():
        """Every reply row with its version and visibility (its entry's included); none when
        the site declares no replies."""
        from search.versions import with_versions

        entries, replies = registry.entries(), registry.replies()
        if replies is None:
            return with_versions(entries.get_queryset().none(), entries)
        return with_versions(replies.get_queryset(), replies, entries)

    @classmethod
    def rows(cls):
        """Versioned rows with the columns their documents read, their entry's too."""
        entries, replies = registry.entries(), registry.replies()
        if replies is None:
            return cls.versioned()
        entry = replies.entry
        columns = [*replies.own_columns(), entry, *(f"{entry}__{c}" for c in entries.own_columns())]
        return cls.versioned().select_related(entry).only(*columns).prefetch_related(*(f"{entry}__{p}" for p in entries.prefetch()))

    @classmethod
    def indexable_rows(cls):
        return cls.versioned().filter(visible_now=True).order_by("pk")


DOCUMENTS = {Kind.POSTS: PostDocument, Kind.COMMENTS: CommentDocument}


def index_definition(kind: str, name: str) -> Index:
    """The index `name` for `kind`: settings, analyzers and mapping."""
    index = Index(name)
    index.settings(
        number_of_shards=conf.get().index.shards,
        number_of_replicas=conf.get().index.replicas,
    )
    index.document(DOCUMENTS[kind])
    for defined in analyzers():
        index.analyzer(defined)
    return index


def schema_id(kind: str) -> str:
    """A digest of what a kind's index is made of (analysis and mapping): it changes whenever a
    release changes them, and is kept in the index's mapping `_meta`, so that `reindex
    --if-missing` can tell an index built by an older release from a current one."""
    body = index_definition(kind, "any").to_dict()
    body.get("settings", {}).pop("number_of_replicas", None)  # operational, not schema
    return hashlib.sha1(json.dumps(body, sort_keys=True).encode()).hexdigest()[:16]


def index_body(kind: str, name: str) -> dict:
    """The create-index request body, as a plain dict."""
    body = index_definition(kind, name).to_dict()
    body.setdefault("mappings", {})["_meta"] = {"schema": schema_id(kind)}
    return body
