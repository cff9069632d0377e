"""Who hears of each search the views serve: a site's search log, or no one.

Search knows no log of its own: a site names a module in the `RECORDER` setting (this
repository's blog names its insights app, `insights.log`), and the views hand it each search
served. It offers `record(result, *, source, burst=None) -> query id or None`,
`result_links(result, query_id) -> [(hit, position, href)]` and `instant_burst(params)`. With
none named, nothing is recorded and results link to themselves.
"""

from importlib import import_module

from search import conf


class NoRecorder:
    """The default: nothing is logged, no query ids, results link straight to the hit."""

    @staticmethod
    def record(result, *, source: str, burst=None) -> None:
        return None

    @staticmethod
    def instant_burst(params) -> None:
        return None

    @staticmethod
    def result_links(result, query_id) -> list[tuple]:
        first = (result.page - 1) * result.page_size + 1
        return [(hit, first + i, hit.url) for i, hit in enumerate(result.hits)]


def recorder():
    """The module the settings name (imported once, then cached by Python), or NoRecorder."""
    path = conf.get().serving.recorder
    return import_module(path) if path else NoRecorder
