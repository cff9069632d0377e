from django.apps import AppConfig


class SearchConfig(AppConfig):
    name = "search"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.conf import settings

        from search import conf, signals  # noqa: F401  (signals: the one place the blog's models meet the indexer)

        conf.check(settings.SEARCH)  # a misspelled or mistyped setting fails at start-up
