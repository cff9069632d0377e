"""System checks of the site's declarations (search/registry.py): a wrong field name, a model
without its row version column or a visibility rule on another table fails `manage.py check`
(and start-up) with the model and the fix, never a reader's search or a save."""

from django.core import checks
from django.core.exceptions import FieldDoesNotExist
from django.db.models import F

from search import declaration_rules as rules
from search import registry
from search.fields import RowVersionField


def _error(msg: str, hint: str, obj, id_: str) -> checks.Error:
    return checks.Error(msg, hint=hint, obj=obj, id=f"search.{id_}")


def _field_errors(declaration) -> list:
    """Each declared field name (and extra column) must name a field of the model."""
    model, name = declaration.model, type(declaration).__name__
    named = {attr: getattr(declaration, attr) for attr in declaration.FIELDS}
    named.update({column: column for column in declaration.columns})
    if isinstance(declaration, registry.ReplyIndex):
        named["entry"] = declaration.entry or "(none)"
    errors = []
    for attr, field in named.items():
        if not field or hasattr(declaration, f"prepare_{attr}"):
            continue
        try:
            model._meta.get_field(field)
        except FieldDoesNotExist:
            hint = f"name a field of {model.__name__}" + ("" if attr in declaration.columns else f", or define prepare_{attr}(self, obj)")
            errors.append(_error(f"{name}.{attr}: {model.__name__} has no field {field!r}", hint, declaration, "E002"))
    return errors


def _version_errors(declaration) -> list:
    model = declaration.model
    field = next((f for f in model._meta.concrete_fields if f.name == registry.VERSION_FIELD), None)
    if isinstance(field, RowVersionField):
        return []
    return [
        _error(
            f"{model._meta.label} is declared to search but has no row version column",
            f"add `{registry.VERSION_FIELD} = RowVersionField()` (from search.fields) to {model.__name__}, then run makemigrations",
            declaration,
            "E003",
        )
    ]


def _url_errors(declaration) -> list:
    """Without its own url(), a declaration links a result to the model's get_absolute_url()."""
    if type(declaration).url is not registry.SearchIndex.url or hasattr(declaration.model, "get_absolute_url"):
        return []
    model = declaration.model.__name__
    return [_error(f"{model} has no get_absolute_url()", f"define it on {model}, or url(self, obj) on {type(declaration).__name__}", declaration, "E007")]


def _rule_errors(declaration) -> list:
    try:
        declaration.visibility_columns()
    except FieldDoesNotExist as exc:
        return [_error(f"{type(declaration).__name__}.visible(): {exc}", "a visibility rule reads the model's own columns only", declaration, "E004")]
    if not declaration.model._meta.pk.get_internal_type().endswith(("AutoField", "IntegerField")):
        label = declaration.model._meta.label
        return [_error(f"{label} has a non-integer primary key", "search indexes models with integer primary keys", declaration, "E005")]
    return []


def _stated_rule_errors(declaration, entries) -> list:
    """The rules docs/adopting.md states: field types, time only revealing, url() within what is loaded."""
    name = type(declaration).__name__
    errors = [
        _error(f"{name}.{attr}: {why}", f"name a field of that type, or define prepare_{attr}(self, obj)", declaration, "E010")
        for attr, why in rules.type_problems(declaration)
    ]
    hiding = rules.time_problems(declaration.visible(F("now")))
    if hiding:
        hint = "a rule may only reveal rows as time passes (published_at__lte=now); hide them with a column a save changes"
        errors.append(_error(f"{name}.visible() hides rows by time: {', '.join(hiding)}", hint, declaration, "E011"))
    unloaded = rules.unloaded_reads(declaration, entries)
    if unloaded:
        hint = f"add them to {name}.columns = ({', '.join(repr(c) for c in unloaded)},): the indexer loads only the declared fields and columns"
        errors.append(_error(f"{name}.url() reads {', '.join(unloaded)}, which the indexer does not load", hint, declaration, "E012"))
    return errors


@checks.register()
def declarations_are_sound(app_configs=None, **kwargs) -> list:
    declared = registry.declarations
    if declared.entries is None:
        return [
            checks.Warning(
                "no searchable model is declared to search",
                hint="write a search_indexes.py with an EntryIndex in one of your apps (docs/adopting.md)",
                id="search.W001",
            )
        ]
    errors = []
    for declaration in declared.declared():
        errors += _field_errors(declaration) + _version_errors(declaration) + _url_errors(declaration) + _rule_errors(declaration)
    if not errors:  # the rules below read fields the checks above found
        for declaration in declared.declared():
            errors += _stated_rule_errors(declaration, declared.entries)
    replies = declared.replies
    if replies is not None and replies.entry and not errors:
        if replies.entry_field.related_model is not declared.entries.model:
            errors.append(_error(f"{type(replies).__name__}.entry is not a ForeignKey to {declared.entries.model.__name__}", "", replies, "E006"))
    return errors


@checks.register()
def metrics_access_is_readable(app_configs=None, **kwargs) -> list:
    """A malformed SEARCH_METRICS_ALLOW fails start-up, not the first scrape."""
    from search import conf
    from search.metrics_serving import networks

    try:
        networks(conf.get().metrics.allow)
    except ValueError as exc:
        return [checks.Error(str(exc), hint="comma-separated addresses or networks, e.g. 10.0.0.5,172.28.0.0/24", id="search.E007")]
    return []


@checks.register()
def symbol_words_are_words(app_configs=None, **kwargs) -> list:
    """A symbol word the analyzers could not write as one token fails start-up, not `reindex`."""
    from search import conf, symbols

    return [
        checks.Error(f"SYMBOL_WORDS: {problem}", hint='e.g. ("c#", "c++", "f#", ".net")', id="search.E008")
        for problem in map(symbols.problem, conf.get().index.symbol_words)
        if problem
    ]


@checks.register()
def index_prefix_is_the_sites(app_configs=None, **kwargs) -> list:
    """A site names its own indices: the same prefix on a shared cluster is another site's search."""
    from search import conf
    from search.ownership import prefix_problem

    problem = prefix_problem(conf.get().index.prefix)
    hint = 'SEARCH = {"INDEX_PREFIX": "mysite"} in settings.py, or SEARCH_INDEX_PREFIX: a name no other site on the cluster uses'
    return [checks.Error(problem, hint=hint, id="search.E009")] if problem else []


@checks.register()
def elasticsearch_url_names_the_sites_user(app_configs=None, **kwargs) -> list:
    """With Elasticsearch's security on (as it should be), a URL without a user is refused every request."""
    from search import conf
    from search.nodes import credentials, safe_url

    url = conf.get().elasticsearch.url
    if credentials(url):
        return []
    hint = "the site's own user: ELASTICSEARCH_URL=http://mysite:<password>@127.0.0.1:9200, read in settings.py (docs/adopting.md)"
    return [checks.Warning(f"ELASTICSEARCH['URL'] ({safe_url(url)}) names no user: Elasticsearch refuses it when security is on", hint=hint, id="search.W002")]
