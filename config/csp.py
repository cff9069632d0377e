"""Content-Security-Policy on every response (Django 5.2 has no built-in CSP; 6.0 will).

The policy lives in settings.SECURE_CSP, a dict of directive -> list of sources, the same shape
Django 6.0's own `SECURE_CSP` setting takes, so moving to django.middleware.csp later is a change
of one MIDDLEWARE line. The header is built once per process: the policy is static.
"""

from functools import cache

from django.conf import settings


@cache
def header_value(policy: tuple) -> str:
    """The header text for a policy given as ((directive, (source, ...)), ...)."""
    return "; ".join(" ".join((directive, *sources)) for directive, sources in policy)


def policy_key() -> tuple:
    """settings.SECURE_CSP as a hashable tuple (so tests that override the setting take effect)."""
    return tuple((directive, tuple(sources)) for directive, sources in settings.SECURE_CSP.items())


class ContentSecurityPolicyMiddleware:
    """Adds the policy unless the view set its own Content-Security-Policy header."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if settings.SECURE_CSP and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = header_value(policy_key())
        return response
