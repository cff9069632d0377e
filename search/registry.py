"""What a site declares to search: its searchable models. The public API of the app.

A site writes a `search_indexes.py` module in one of its apps (found at start-up, as Django finds
`admin.py`) and declares, per model, which fields are the title, the body, the tags, the date;
which rows a reader may see; and, for a child kind, its parent:

    from search.registry import EntryIndex, ReplyIndex, register

    @register
    class ArticleIndex(EntryIndex):
        model = Article
        title, text, date, tags = "headline", "body", "published_at", "categories"

        def visible(self, now):
            return Q(status="live", published_at__lte=now)

    @register
    class NoteIndex(ReplyIndex):
        model = Note
        entry = "article"  # the ForeignKey to the entry model
        text, author, date = "body", "name", "created"

        def visible(self, now):
            return Q(moderated=True)  # and its article visible: added by search

Why two roles and not any number of models: a result is one entry (a post) at the rank of its
best match, with its matching replies (comments) inside it, so search knows one entry model and
at most one reply model; they fill the two indices of search/documents.py (`Kind`). A reply's
document copies its entry's title, date and tags, and is visible only while its entry is: both
follow the entry (PostgreSQL re-versions the replies when one of those columns changes,
search/triggers.py).

A field is named by a string (a model field; for `tags` an ArrayField of strings or a
many-to-many, whose objects are shown with `str()`), or computed by a `prepare_<field>(self,
obj)` method (as django-elasticsearch-dsl's Document does); the columns such a method or `url()`
reads go in `columns`, so that the indexer loads them in its one query and a reply follows them.
Rows are read through the model's base manager (a default manager that hides rows would make
hidden rows look deleted): `visible()` alone says what a reader may see, judged by PostgreSQL's
clock (`now` is its statement time), on the model's own columns.

Each declared model needs the row version column, `search_version = RowVersionField()`
(search/fields.py); `makemigrations` then writes it and the triggers into the site's own
migrations (search/triggers.py, django-pgtrigger).
"""

from __future__ import annotations

from django.core.exceptions import FieldDoesNotExist, ImproperlyConfigured
from django.db import models
from django.db.models import Q

VERSION_FIELD = "search_version"
# The lookups a visibility rule may apply to a foreign key's own column (`author__isnull=True`).
_LOOKUPS = {"isnull", "exact", "in"}


class SearchIndex:
    """What both roles share: a model, its visible rows, its text, its date and its URL."""

    model: type[models.Model]
    text: str = ""
    date: str = ""
    columns: tuple[str, ...] = ()  # extra columns prepare_*() or url() read

    def visible(self, now) -> Q:
        """The rows a reader may see, at PostgreSQL's time `now`. Every row by default."""
        return Q()

    def url(self, obj) -> str:
        return obj.get_absolute_url()

    def get_queryset(self):
        return self.model._base_manager.all()

    # -------------------------------------------------------------- reading a row

    def value(self, obj, name: str):
        """A declared field of `obj`: its prepare_<name>() method, else the named attribute."""
        method = getattr(self, f"prepare_{name}", None)
        if method is not None:
            return method(obj)
        attr = getattr(self, name)
        return getattr(obj, attr) if attr else ""

    def text_of(self, obj) -> str:
        return self.value(obj, "text") or ""

    def date_of(self, obj) -> str:
        value = self.value(obj, "date")
        return value.isoformat() if value else None

    # -------------------------------------------------------------- the declaration's columns

    @property
    def table(self) -> str:
        return self.model._meta.db_table

    @property
    def pk_column(self) -> str:
        return self.model._meta.pk.column

    def own_columns(self) -> tuple[str, ...]:
        """The model fields a document reads (loaded with `.only()`): declared names, not methods."""
        named = [getattr(self, n) for n in self.FIELDS if not hasattr(self, f"prepare_{n}") and getattr(self, n, "")]
        names = [self.model._meta.pk.name, *named, *self.columns]
        return tuple(dict.fromkeys(n for n in names if not self.is_many_to_many(n)))

    def is_many_to_many(self, name: str) -> bool:
        try:
            return self.model._meta.get_field(name).many_to_many
        except FieldDoesNotExist:
            return False

    def visibility_columns(self) -> tuple[str, ...]:
        """The columns `visible()` reads. Only the model's own columns: a rule that reads another
        table (`recipe__is_public`, a reverse relation) would change with no trigger of this
        model firing, so it is refused (FieldDoesNotExist: search/checks.py E004 names it)."""
        columns = []
        for key in lookups(self.visible(models.F("now"))):
            name, _, rest = key.partition("__")
            field = self.model._meta.get_field(name)
            if not getattr(field, "concrete", False) or (field.is_relation and rest and rest.split("__")[0] not in _LOOKUPS):
                raise FieldDoesNotExist(f"{key!r} reads another table than {self.model._meta.db_table}")
            columns.append(field.column)
        return tuple(dict.fromkeys(columns))


class EntryIndex(SearchIndex):
    """The entries a result page lists (a blog's posts)."""

    title: str = ""
    tags: str = ""  # an ArrayField of strings or a many-to-many; "" for none
    due: str | None = None  # a date at which a hidden row may become visible; None: `date`
    FIELDS = ("title", "text", "date", "tags")

    def title_of(self, obj) -> str:
        return self.value(obj, "title") or ""

    def tags_of(self, obj) -> list[str]:
        if hasattr(self, "prepare_tags"):
            return list(self.prepare_tags(obj))
        if not self.tags:
            return []
        value = getattr(obj, self.tags)
        if self.is_many_to_many(self.tags):
            return sorted(str(tag) for tag in value.all())
        return list(value or ())

    def due_column(self) -> str | None:
        """The date column after which a hidden row may become visible (a scheduled post)."""
        name = self.due if self.due is not None else self.date
        if not name:
            return None
        field = self.model._meta.get_field(name)
        return field.column if isinstance(field, models.DateTimeField) else None

    def followed_columns(self) -> tuple[str, ...]:
        """The columns a reply's document copies or its visibility reads: a change to one of
        them re-versions the entry's replies."""
        names = [n for n in (self.title, self.date, self.tags, *self.columns) if n and not self.is_many_to_many(n)]
        return tuple(dict.fromkeys([*(self.model._meta.get_field(n).column for n in names), *self.visibility_columns()]))

    def tags_relation(self):
        """The many-to-many field of the tags, or None (no tags, an ArrayField, or prepare_tags)."""
        if self.tags and not hasattr(self, "prepare_tags") and self.is_many_to_many(self.tags):
            return self.model._meta.get_field(self.tags)
        return None

    def prefetch(self) -> tuple[str, ...]:
        relation = self.tags_relation()
        return (relation.name,) if relation else ()


class ReplyIndex(SearchIndex):
    """The replies shown inside an entry (a blog's comments): visible only with their entry."""

    entry: str = ""  # the ForeignKey to the entry model
    author: str = ""
    FIELDS = ("text", "date", "author")

    def author_of(self, obj) -> str:
        return self.value(obj, "author") or ""

    @property
    def entry_field(self):
        return self.model._meta.get_field(self.entry)

    @property
    def entry_fk_column(self) -> str:
        return self.entry_field.column


class Registry:
    """The declared indices of this process, set at start-up by `autodiscover()`."""

    def __init__(self):
        self.entries: EntryIndex | None = None
        self.replies: ReplyIndex | None = None

    def register(self, declaration: type[SearchIndex]) -> type[SearchIndex]:
        instance = declaration()
        if isinstance(instance, EntryIndex):
            if self.entries is not None and type(self.entries) is not declaration:
                raise ImproperlyConfigured(f"two entry models declared to search: {self.entries.model.__name__} and {instance.model.__name__}")
            self.entries = instance
        elif isinstance(instance, ReplyIndex):
            if self.replies is not None and type(self.replies) is not declaration:
                raise ImproperlyConfigured(f"two reply models declared to search: {self.replies.model.__name__} and {instance.model.__name__}")
            self.replies = instance
        else:
            raise ImproperlyConfigured(f"{declaration.__name__} is neither an EntryIndex nor a ReplyIndex")
        return declaration

    def declared(self) -> list[SearchIndex]:
        return [d for d in (self.entries, self.replies) if d is not None]

    def require_entries(self) -> EntryIndex:
        if self.entries is None:
            raise ImproperlyConfigured("no searchable model is declared: write a search_indexes.py with an EntryIndex (docs/adopting.md)")
        return self.entries


declarations = Registry()


def register(declaration):
    """Class decorator: declare a model to search (see the module's docstring)."""
    return declarations.register(declaration)


def entries() -> EntryIndex:
    return declarations.require_entries()


def replies() -> ReplyIndex | None:
    return declarations.replies


def autodiscover() -> None:
    """Import every installed app's `search_indexes` module, as the admin does with `admin.py`."""
    from django.utils.module_loading import autodiscover_modules

    autodiscover_modules("search_indexes")


def lookups(q: Q) -> list[str]:
    """The lookup keys of a Q, nested ones included ("published", "pub_date__lte")."""
    keys = []
    for child in q.children:
        keys.extend(lookups(child) if isinstance(child, Q) else [child[0]])
    return keys


def prefixed(q: Q, prefix: str) -> Q:
    """The same Q through a relation: every lookup key gets `prefix` ("post__")."""
    copy = Q()
    copy.connector, copy.negated = q.connector, q.negated
    copy.children = [prefixed(child, prefix) if isinstance(child, Q) else (f"{prefix}{child[0]}", child[1]) for child in q.children]
    return copy
