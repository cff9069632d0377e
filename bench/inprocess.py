"""Django set up in this process as production runs it (DEBUG off, the shipped settings), for the
benchmarks that drive the app through Django's test client instead of an HTTP server
(bench/profile_search.py, bench/request_parts.py, bench/spelling_filters.py)."""

import contextlib
import json
import os


def setup(**environment: str) -> None:
    """DEBUG off, the test client's host allowed, no HTTPS redirect, the search log off, then
    `environment` (e.g. SEARCH_CACHE_SECONDS="0"), then django.setup(). DEBUG off serves the
    static files by their manifest, so collectstatic runs first, as bench/load.py's servers do."""
    os.environ.update(
        {
            "DEBUG": "0",
            "ALLOWED_HOSTS": "testserver",
            "SECURE_SSL_REDIRECT": "0",
            "INSIGHTS_ENABLED": "0",
            "SECRET_KEY": "bench-only-secret-key-not-for-production-0123456789abcdef",
            **environment,
        }
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)  # a stale manifest fails as a missing one does


@contextlib.contextmanager
def recorded(bodies: list):
    """While open, every search body sent to the entries' indices is appended to `bodies` as
    (index, body); the requests still go out."""
    import elastic_transport

    send = elastic_transport.Transport.perform_request

    def recording(self, method, target, *rest, **kwargs):
        body = kwargs.get("body")
        if body and target.endswith("/_search") and "-posts" in target:
            bodies.append((target.split("/")[1], json.loads(body) if isinstance(body, (bytes, str)) else body))
        return send(self, method, target, *rest, **kwargs)

    elastic_transport.Transport.perform_request = recording
    try:
        yield bodies
    finally:
        elastic_transport.Transport.perform_request = send
