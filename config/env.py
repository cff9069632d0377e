"""Reading settings from the environment: one place for the parsing rules."""

import os

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


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    return default if raw is None else parse(name, raw, bool)


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    return default if raw is None else parse(name, raw, int)


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]
