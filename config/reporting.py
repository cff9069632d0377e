"""Error pages and error reports never show credentials.

Django's default filter hides settings whose *names* look secret (PASSWORD, SECRET_KEY...), but
a password inside a URL (DATABASE_URL, ELASTICSEARCH_URL, REDIS_URL, and the same variables
in the request's environment under runserver) would be shown as is. This filter also replaces
the user-info part of any URL, wherever it appears.
"""

import re

from django.views.debug import SafeExceptionReporterFilter

_URL_CREDENTIALS = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s@]*@")


def scrub(value):
    """The value with every URL's user name and password replaced by asterisks (recursively)."""
    if isinstance(value, str):
        return _URL_CREDENTIALS.sub(r"\1********@", value)
    if isinstance(value, dict):
        return {k: scrub(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(scrub(v) for v in value)
    return value


class CredentialsFilter(SafeExceptionReporterFilter):
    hidden_settings = re.compile("API|TOKEN|KEY|SECRET|PASS|SIGNATURE|HTTP_COOKIE|CREDENTIAL", flags=re.I)

    def cleanse_setting(self, key, value):
        return scrub(super().cleanse_setting(key, value))

    def get_safe_request_meta(self, request):
        return {k: scrub(v) for k, v in super().get_safe_request_meta(request).items()}

    def get_traceback_frame_variables(self, request, tb_frame):
        return [(name, scrub(value) if isinstance(value, str) else value) for name, value in super().get_traceback_frame_variables(request, tb_frame)]
