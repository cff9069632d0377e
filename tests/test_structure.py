"""The house's rules, checked on the source (no service needed): the two wings never import each
other, the blog never imports search, and no product function grows past 50 lines."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("blog", "search", "insights", "config")


def imports_of(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("wing, other", [("querying", "sync"), ("sync", "querying")])
def test_a_wing_never_imports_the_other(wing, other):
    for path in (ROOT / "search" / wing).rglob("*.py"):
        crossing = {name for name in imports_of(path) if name.startswith(f"search.{other}")}
        assert not crossing, f"{path.relative_to(ROOT)} imports {sorted(crossing)}"


def test_the_shared_floor_imports_no_wing():
    """Only the entry points at the root (views, health, admin, commands) may use the wings."""
    entry_points = {"views.py", "health.py", "admin.py", "urls.py", "apps.py"}
    for path in (ROOT / "search").glob("*.py"):
        if path.name in entry_points:
            continue
        wings = {n for n in imports_of(path) if n.startswith(("search.querying", "search.sync"))}
        assert not wings, f"{path.relative_to(ROOT)} imports {sorted(wings)}"


def test_no_product_function_is_longer_than_50_lines():
    long = []
    for package in PRODUCT:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    length = node.end_lineno - node.lineno + 1
                    if length > 50:
                        long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({length} lines)")
    assert not long, long
