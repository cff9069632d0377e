"""Django set up in this process as production runs it (DEBUG off, the shipped settings), for the
benchmarks that drive the app through Django's test client instead of an HTTP server
(bench/profile_search.py, bench/request_parts.py)."""

import os


def setup(**environment: str) -> None:
    """DEBUG off, the test client's host allowed, no HTTPS redirect, the search log off, then
    `environment` (e.g. SEARCH_CACHE_SECONDS="0"), then django.setup()."""
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
