"""The load benchmark's gates (issue 40): the ratios that must not get worse than measured.

The recorded figures live in one place, the table between the `gates` markers in
docs/benchmarks.md (#gates): readers see them there, and bench/load.py reads them from there, so
a new figure is written once. Each row names two candidates of bench/load.py, the statistic
compared (p50 or p99 latency, rps for requests/s), the figure recorded, the rule and the
Elasticsearch line it holds on:

- `+10%`: fails when the ratio is more than 10% above the recorded figure (a latency ratio);
- `>= 0.6x`: fails when the ratio falls under that floor (a throughput ratio);
- `any`, `8.x`, `9.x`: the servers it is checked on. A gate may have a row per line: a baseline
  such as `multi_match` can get faster on a new line while this search does not, so the same
  code has another ratio there.

A ratio is the median of the rounds' ratios (candidates interleaved, both from the same round),
as the targets are. A gate whose two candidates were not both run (`--only`) is not checked.
Pure: tests/test_gates.py checks it with plain dicts.
"""

import re
import statistics
from dataclasses import dataclass
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
BEGIN, END = "<!-- gates: begin", "<!-- gates: end"
STATISTICS = ("p50", "p99", "rps")
_RULE = re.compile(r"^(?:\+(?P<percent>\d+(?:\.\d+)?)%|>=\s*(?P<floor>\d+(?:\.\d+)?)x)$")


@dataclass(frozen=True)
class Gate:
    name: str
    top: str  # the candidate measured (bench/load.py's label) ...
    bottom: str  # ... against this one, on the same queries
    stat: str  # p50, p99 or rps
    recorded: float  # the ratio measured (docs/benchmarks.md)
    limit: float
    sense: str  # "<=": fails above the limit; ">=": fails under it
    server: int | None = None  # the Elasticsearch major version it holds on (None: any)

    def passes(self, value: float) -> bool:
        return value <= self.limit if self.sense == "<=" else value >= self.limit


@dataclass(frozen=True)
class Verdict:
    gate: Gate
    value: float  # the median of the rounds' ratios
    rounds: tuple[float, ...]

    @property
    def passed(self) -> bool:
        return self.gate.passes(self.value)

    def line(self) -> str:
        g = self.gate
        word = "PASS" if self.passed else "FAIL"
        return (
            f"{word} {g.name}: measured {self.value:.2f}x, recorded {g.recorded:.2f}x, limit {g.sense} {g.limit:.2f}x "
            f"(rounds: {', '.join(f'{r:.2f}' for r in self.rounds)})"
        )


def _cells(line: str) -> list[str]:
    return [cell.strip().strip("`") for cell in line.strip().strip("|").split("|")]


def _ratio(text: str) -> float:
    if not text.endswith("x"):
        raise ValueError(f"a recorded figure is a ratio such as 2.33x, not {text!r}")
    return float(text.removesuffix("x"))


def parse(markdown: str) -> list[Gate]:
    """The gates of the table between the markers; ValueError for a missing or malformed table."""
    start, end = markdown.find(BEGIN), markdown.find(END)
    if start < 0 or end < start:
        raise ValueError(f"no table between {BEGIN!r} and {END!r}")
    rows = [line for line in markdown[start:end].splitlines() if line.startswith("|")]
    gates = []
    for line in rows[2:]:  # after the header and its rule
        cells = _cells(line)
        if len(cells) != 7:
            raise ValueError(f"a gate has 7 cells (gate, this search, against, statistic, recorded, fails when, server): {line!r}")
        name, top, bottom, stat, recorded, rule, line_of = cells
        if stat not in STATISTICS:
            raise ValueError(f"unknown statistic {stat!r} in {line!r} (one of {STATISTICS})")
        found = _RULE.match(rule.removeprefix("fails when ").strip())
        if not found:
            raise ValueError(f"a rule is '+10%' (above the figure) or '>= 0.6x' (a floor), not {rule!r}")
        figure, server = _ratio(recorded), _server(line_of)
        if found["percent"]:
            gates.append(Gate(name, top, bottom, stat, figure, figure * (1 + float(found["percent"]) / 100), "<=", server))
        else:
            gates.append(Gate(name, top, bottom, stat, figure, float(found["floor"]), ">=", server))
    if not gates:
        raise ValueError("the gates table has no rows")
    for name, same in _grouped(gates, lambda g: g.name).items():
        _one_row_per_line(same, f"the gate {name!r}")
        if len({(g.top, g.bottom, g.stat, g.sense, round(g.limit / g.recorded, 6) if g.sense == "<=" else g.limit) for g in same}) > 1:
            raise ValueError(f"the rows of the gate {name!r} differ in more than the figure and the server")
    for (top, bottom, stat), same in _grouped(gates, lambda g: (g.top, g.bottom, g.stat)).items():
        _one_row_per_line(same, f"the {stat} of {top!r} against {bottom!r}")
    return gates


def _grouped(gates: list[Gate], key) -> dict:
    groups: dict = {}
    for gate in gates:
        groups.setdefault(key(gate), []).append(gate)
    return groups


def _one_row_per_line(rows: list[Gate], what: str) -> None:
    """Rows that would both hold on one server: two of one line, or one of any line beside another."""
    servers = [g.server for g in rows]
    if len(servers) != len(set(servers)) or (None in servers and len(servers) > 1):
        raise ValueError(f"{what} has two rows for one server")


def _server(text: str) -> int | None:
    if text == "any":
        return None
    if not re.fullmatch(r"\d+\.x", text):
        raise ValueError(f"a gate's server is 'any' or a major version such as '9.x', not {text!r}")
    return int(text.removesuffix(".x"))


def recorded(path: Path = DOC) -> list[Gate]:
    return parse(path.read_text())


def check(gates: list[Gate], results: dict[str, list[dict]], *, server: int) -> list[Verdict]:
    """A verdict per gate whose two candidates were run, with the row of its `server`'s line (the
    Elasticsearch major version): `results` maps a candidate's label to its rounds, each a dict
    with p50, p99 (any unit, the same for both) and rps."""
    verdicts = []
    for gate in gates:
        if gate.top not in results or gate.bottom not in results or gate.server not in (None, server):
            continue
        rounds = tuple(a[gate.stat] / b[gate.stat] for a, b in zip(results[gate.top], results[gate.bottom], strict=True))
        verdicts.append(Verdict(gate, statistics.median(rounds), rounds))
    return verdicts


def unrecorded(gates: list[Gate], results: dict[str, list[dict]], *, server: int) -> list[str]:
    """The gates whose candidates were run but that have no row for `server`'s line (a new major
    version): a figure to measure and record, never a gate silently skipped."""
    ran = {g.name for g in gates if g.top in results and g.bottom in results}
    held = {g.name for g in gates if g.server in (None, server)}
    return sorted(ran - held)


def major(version: str) -> int:
    """The line of an Elasticsearch version: 9 for "9.2.4"."""
    return int(version.split(".")[0])
