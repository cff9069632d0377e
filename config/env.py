"""Reading settings from the environment: one place for the parsing rules."""

import os

from search.api import parse_environment_value as parse


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
