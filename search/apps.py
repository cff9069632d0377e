from django.apps import AppConfig


class SearchConfig(AppConfig):
    name = "search"
    verbose_name = "Search"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from search import checks, conf, registry, triggers  # noqa: F401  (checks: Django's system checks)
        from search.sync import signals

        conf.reload()  # a misspelled or mistyped setting fails at start-up, naming every problem
        registry.autodiscover()  # the site's search_indexes.py modules declare its models
        triggers.register_all()  # so the site's makemigrations writes them into its migrations
        signals.connect()
        from django.db.models.signals import post_delete, post_save

        from search import synonyms
        from search.models import SynonymRule

        post_save.connect(synonyms.changed, sender=SynonymRule, dispatch_uid="synonym-saved")
        post_delete.connect(synonyms.changed, sender=SynonymRule, dispatch_uid="synonym-deleted")
