from django.apps import AppConfig


class SearchConfig(AppConfig):
    name = "search"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from search import conf
        from search.sync import signals  # noqa: F401  (signals: the one place the blog's models meet the indexer)

        conf.reload()  # a misspelled or mistyped setting fails at start-up, naming every problem
        from django.db.models.signals import post_delete, post_save

        from search import synonyms
        from search.models import SynonymRule

        post_save.connect(synonyms.changed, sender=SynonymRule, dispatch_uid="synonym-saved")
        post_delete.connect(synonyms.changed, sender=SynonymRule, dispatch_uid="synonym-deleted")
