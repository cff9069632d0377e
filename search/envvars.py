"""Settings from environment variables: the one set of parsing rules (1/0, true/false, numbers),
used by search's own settings (search/conf.py overrides_from_environment) and by a site's
settings module (this repository's config/env.py) alike."""

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def parse(name: str, raw: str, kind: type):
    """The variable `name`'s text `raw` as a bool, int, float or str; a clear error otherwise."""
    if kind is bool:
        value = raw.strip().lower()
        if value in _TRUE:
            return True
        if value in _FALSE:
            return False
        raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no, on/off)")
    if kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            what = "a whole number" if kind is int else "a number"
            raise ImproperlyConfigured(f"{name}={raw!r} is not {what}") from None
    return raw
