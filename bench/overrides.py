"""`--set KEY=VALUE` for the relevance benchmarks: a SEARCH setting overridden for one run.

Measuring a rule against the code without it needs no second checkout when the rule is a setting:
`--set TWO_SLIPS_MIN_LENGTH=99` runs the search as it was before two slips were sure.
"""

import json

from search import conf


def add_argument(parser) -> None:
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a SEARCH setting for this run, e.g. --set MAX_ALTERNATIVES=3")


def apply(items: list[str]) -> None:
    """KEY=VALUE, or KEY.NAME=VALUE inside a dict setting such as SUGGESTER; each printed."""
    for item in items:
        key, _, raw = item.partition("=")
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw
        head, _, name = key.partition(".")
        conf.override(**{head: {name: value} if name else value})
        print(f"SEARCH[{key!r}] = {value!r}")
