"""One module a site imports from (issue 51, build item 4): search.api, and search.testing in
its tests. The blog, config/ and the example site use nothing else of search, nor does the guide."""

import ast
import re
from pathlib import Path

import search.api

ROOT = Path(__file__).resolve().parent.parent
SITES = ("blog", "config", "examples/notebook")
PUBLIC = {"search.api"}
FOR_TESTS = {"search.testing"}


def search_imports(path: Path) -> set[str]:
    """The modules of search a Python file imports (`from search import api` counts as search.api)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.split(".")[0] == "search"}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "search":
            found |= {f"search.{alias.name}" for alias in node.names} if node.module == "search" else {node.module}
    return found


def test_the_sites_import_only_the_public_api():
    wrong = []
    for site in SITES:
        for path in (ROOT / site).rglob("*.py"):
            if "migrations" in path.parts:  # written by makemigrations, which names the field's own module
                continue
            allowed = PUBLIC | (FOR_TESTS if "tests" in path.relative_to(ROOT).parts else set())
            wrong += [f"{path.relative_to(ROOT)} imports {name}" for name in sorted(search_imports(path) - allowed)]
    assert not wrong, wrong


def test_the_guide_imports_only_the_public_api():
    guide = (ROOT / "docs" / "adopting.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", guide, flags=re.S)
    imported = {m for block in blocks for m in re.findall(r"^\s*(?:from|import) (search[\w.]*)", block, flags=re.M)}
    assert imported and imported <= PUBLIC | FOR_TESTS, imported


def test_every_public_name_is_there():
    for name in search.api.__all__:
        assert getattr(search.api, name) is not None, name
    assert search.api.search.__module__ == "search.querying.service" and search.api.Hit.__name__ == "Hit"
