from django.apps import AppConfig


class InsightsConfig(AppConfig):
    """Search insights for the blog owner: the query log, clicks, reports and retention.

    A consumer of search results only: the search views hand it the result object; nothing in
    `search/` or `blog/` imports it back.
    """

    name = "insights"
    verbose_name = "Search insights"
    default_auto_field = "django.db.models.BigAutoField"
