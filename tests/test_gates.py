"""The load benchmark's gates (bench/gates.py): pure, plain dicts, no service."""

import pytest

from bench import gates
from bench.load import CANDIDATES

TABLE = """
<!-- gates: begin -->
| gate | this search | against | statistic | recorded | fails when | server |
| --- | --- | --- | --- | --- | --- | --- |
| misspelled, p50 | this search, misspelled | multi_match, misspelled | p50 | 4.00x | +10% | any |
| misspelled, p99 | this search, misspelled | multi_match, misspelled | p99 | 3.00x | +10% | any |
| cached | this search, one cached query | hello | rps | 0.65x | >= 0.6x | any |
<!-- gates: end -->
"""


def rounds(*values: dict) -> list[dict]:
    return [{"p50": 10.0, "p99": 20.0, "rps": 1000.0, **v} for v in values]


def results(*, p50: float = 40.0, p99: float = 60.0, rps: float = 650.0) -> dict:
    """One round each: this search's misspelled p50 and p99 against multi_match's 10 and 20 ms,
    the cached query's requests/s against hello-world's 1000."""
    return {
        "this search, misspelled": rounds({"p50": p50, "p99": p99}),
        "multi_match, misspelled": rounds({}),
        "this search, one cached query": rounds({"rps": rps}),
        "hello": rounds({}),
    }


def failed(found: dict) -> list[str]:
    return [v.gate.name for v in gates.check(gates.parse(TABLE), found, server=9) if not v.passed]


def test_the_table_gives_figures_limits_and_senses():
    p50, p99, cached = gates.parse(TABLE)
    assert (p50.stat, p50.recorded, p50.sense) == ("p50", 4.0, "<=") and p50.limit == pytest.approx(4.4)
    assert p99.limit == pytest.approx(3.3)
    assert (cached.stat, cached.recorded, cached.limit, cached.sense) == ("rps", 0.65, 0.6, ">=")


def test_passes_at_the_recorded_figures():
    assert failed(results()) == []


def test_passes_up_to_ten_percent_above_and_fails_beyond():
    assert failed(results(p50=43.9, p99=65.9)) == []
    assert failed(results(p50=44.5)) == ["misspelled, p50"]
    assert failed(results(p99=66.5)) == ["misspelled, p99"]


def test_the_cached_query_has_a_floor_not_a_margin():
    assert failed(results(rps=600.0)) == []  # 8% under the figure, at the floor
    assert failed(results(rps=590.0)) == ["cached"]
    assert failed(results(rps=2000.0)) == []  # faster is never a failure


def test_a_ratio_is_the_median_of_the_rounds():
    found = results()
    found["this search, misspelled"] = rounds({"p50": 30.0}, {"p50": 50.0}, {"p50": 42.0})
    found["multi_match, misspelled"] = rounds({}, {}, {})
    (verdict,) = [v for v in gates.check(gates.parse(TABLE), found, server=9) if v.gate.name == "misspelled, p50"]
    assert verdict.rounds == (3.0, 5.0, 4.2) and verdict.value == pytest.approx(4.2) and verdict.passed


def test_only_the_candidates_run_are_gated():
    cached_only = {k: v for k, v in results(p50=99.0).items() if k in ("this search, one cached query", "hello")}
    assert [v.gate.name for v in gates.check(gates.parse(TABLE), cached_only, server=9)] == ["cached"]
    assert gates.check(gates.parse(TABLE), {"this search, misspelled": rounds({})}, server=9) == []


def test_a_failure_says_what_failed_its_value_the_figure_and_the_limit():
    (verdict,) = [v for v in gates.check(gates.parse(TABLE), results(p50=50.0), server=9) if not v.passed]
    assert verdict.line() == "FAIL misspelled, p50: measured 5.00x, recorded 4.00x, limit <= 4.40x (rounds: 5.00)"


@pytest.mark.parametrize(
    "row",
    [
        "| a | b | c | p75 | 2.00x | +10% | any |",
        "| a | b | c | p50 | 2.00 | +10% | any |",
        "| a | b | c | p50 | 2.00x | 10% | any |",
        "| a | b | c | p50 | 2.00x | +10% |",
        "| a | b | c | p50 | 2.00x | +10% | nine |",
        "| a | b | c | p50 | 2.00x | +10% | 9.x |\n| a | b | c | p50 | 2.50x | +10% | 9.x |",
        "| a | b | c | p50 | 2.00x | +10% | any |\n| a | b | c | p50 | 2.50x | +10% | 9.x |",
        "| a | b | c | p50 | 2.00x | +10% | 8.x |\n| a | b | d | p50 | 2.50x | +10% | 9.x |",
        "| a | b | c | p50 | 2.00x | +10% | 8.x |\n| a | b | c | p50 | 2.50x | +20% | 9.x |",
        "| a | b | c | p50 | 2.00x | +10% | any |\n| e | b | c | p50 | 2.50x | +10% | any |",
        "| a | b | c | p50 | 2.00x | +10% | any |\n| e | b | c | p50 | 2.50x | +10% | 9.x |",
    ],
)
def test_a_malformed_row_is_refused(row):
    with pytest.raises(ValueError):
        gates.parse(f"{gates.BEGIN} -->\n| h |\n| --- |\n{row}\n{gates.END} -->")


LINES = """
<!-- gates: begin -->
| gate | this search | against | statistic | recorded | fails when | server |
| --- | --- | --- | --- | --- | --- | --- |
| misspelled, p50 | this search, misspelled | multi_match, misspelled | p50 | 4.00x | +10% | 8.x |
| misspelled, p50 | this search, misspelled | multi_match, misspelled | p50 | 5.00x | +10% | 9.x |
| misspelled, p99 | this search, misspelled | multi_match, misspelled | p99 | 3.00x | +10% | any |
<!-- gates: end -->
"""


def test_a_gate_of_one_line_is_checked_on_that_line_only_with_its_figure():
    """A baseline faster on a new line (multi_match on 9.x) moves the ratio of the same code: the
    gate's row for that line holds there, the other line keeps its own."""
    found = results(p50=48.0)  # 4.8x multi_match: over 8.x's 4.4x limit, under 9.x's 5.5x
    on_8 = {v.gate.name: v for v in gates.check(gates.parse(LINES), found, server=8)}
    on_9 = {v.gate.name: v for v in gates.check(gates.parse(LINES), found, server=9)}
    assert sorted(on_8) == sorted(on_9) == ["misspelled, p50", "misspelled, p99"]
    assert (on_8["misspelled, p50"].gate.recorded, on_8["misspelled, p50"].passed) == (4.0, False)
    assert (on_9["misspelled, p50"].gate.recorded, on_9["misspelled, p50"].passed) == (5.0, True)
    assert gates.unrecorded(gates.parse(LINES), found, server=9) == []


def test_a_line_with_no_row_is_named_not_skipped():
    """A new major version (10.x) has no figure for the gates recorded per line: the run says so."""
    found = results()
    assert [v.gate.name for v in gates.check(gates.parse(LINES), found, server=10)] == ["misspelled, p99"]
    assert gates.unrecorded(gates.parse(LINES), found, server=10) == ["misspelled, p50"]
    assert gates.unrecorded(gates.parse(LINES), {"this search, one cached query": rounds({})}, server=10) == []  # not run
    assert (gates.major("9.2.4"), gates.major("8.19.21"), gates.major("10.0.0-SNAPSHOT")) == (9, 8, 10)


def test_each_node_is_checked_against_the_rows_of_its_version():
    """bench/load.py: the dev node's candidates and the other node's twins, each by its own version."""
    from bench.load import gated

    found = results(p50=48.0)
    (on_8, missing_8), (on_9, missing_9) = gated(gates.parse(LINES), found, "8.19.21"), gated(gates.parse(LINES), found, "9.2.4")
    assert [(v.gate.recorded, v.passed) for v in on_8 if v.gate.name == "misspelled, p50"] == [(4.0, False)]
    assert [(v.gate.recorded, v.passed) for v in on_9 if v.gate.name == "misspelled, p50"] == [(5.0, True)]
    assert missing_8 == missing_9 == []
    _, missing_10 = gated(gates.parse(LINES), found, "10.0.0")
    assert missing_10 == ["misspelled, p50: no row for Elasticsearch 10.x in the table (measure it, then record it)"]


def test_the_recorded_table_gates_what_issue_40_asks_with_candidates_of_the_benchmark():
    """docs/benchmarks.md's gates: each pair one bench/load.py runs; p50 and p99 of the three kinds
    of fresh query against multi_match, and the cached query's floor (the figures are the table's)."""
    recorded = gates.recorded()
    labels = {c[0] for c in CANDIDATES}
    assert all(g.top in labels and g.bottom in labels for g in recorded)
    gated = {(g.top, g.bottom, g.stat) for g in recorded}
    for kind in ("correctly spelled", "misspelled", "keystroke"):
        assert {(f"this search, {kind}", f"multi_match, {kind}", stat) for stat in ("p50", "p99")} <= gated
    (cached,) = [g for g in recorded if g.stat == "rps"]
    assert (cached.top, cached.bottom, cached.limit, cached.sense) == ("this search, one cached query", CANDIDATES[0][0], 0.6, ">=")
    assert all(g.limit == pytest.approx(g.recorded * 1.1) for g in recorded if g.sense == "<=")
    for line in (8, 9):  # the dev node's line and the oldest corner's: every gate once on each
        names = [g.name for g in recorded if g.server in (None, line)]
        assert len(names) == len(set(names)) == len({g.name for g in recorded})


def plan(**given):
    from argparse import Namespace

    from bench.load import plan_candidates

    args = {"redis_port": 0, "redis_servers": 1, "scale_database_url": None, "scale_prefix": "x", "cluster_url": None, "ref": None, "node_url": None}
    return plan_candidates(Namespace(**{**args, **given}))


def test_a_second_node_runs_a_twin_of_every_gated_fresh_candidate_on_servers_of_its_own():
    """bench/load.py --node-url (make bench-versions, issue 50): every gate's two candidates get a
    twin on that node, so the same gates are checked there, each twin against its own multi_match."""
    from bench.load import baseline_of

    recorded = [g for g in gates.recorded() if g.stat != "rps"]
    only = sorted({g.top for g in recorded} | {g.bottom for g in recorded})
    url, database = "http://site:pw@127.0.0.1:9275", "postgres://127.0.0.1:54359/blogsearch_oldest"
    candidates, servers = plan(only=only, node_url=url, node_database_url=database, node_suffix="on 8.19.21")
    twins = {c[0]: c for c in candidates if c[0].endswith(", on 8.19.21")}
    assert sorted(label.removesuffix(", on 8.19.21") for label in twins) == only
    assert [c[0] for c in candidates[1::2]] == [f"{c[0]}, on 8.19.21" for c in candidates[::2]]  # each right after its own
    assert {c[1] for c in twins.values()} == {"shipped@node"} and {c[1] for c in candidates if c[0] not in twins} == {"shipped"}
    assert servers["shipped@node"] == {"ELASTICSEARCH_URL": url, "DATABASE_URL": database} and servers["shipped"] == {}
    for g in recorded:
        twin = twins[f"{g.top}, on 8.19.21"]
        assert baseline_of(twin[0], twin[3]) == f"{g.bottom}, on 8.19.21"
    with pytest.raises(SystemExit, match="no 'this search' or multi_match candidate"):  # a cached query has no twin
        plan(only=["this search, one cached query"], node_url=url, node_database_url=None, node_suffix="on 8.19.21")
