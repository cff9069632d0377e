from django.apps import AppConfig


class SearchConfig(AppConfig):
    name = "search"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # The one place the blog's models are connected to the indexer.
        from search import signals  # noqa: F401
