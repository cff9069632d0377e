"""A real blog's Markdown posts as a corpus (posts.ndjson), for the German and French relevance
benchmark (bench/language_relevance.py; issue 53, point 6).

    .venv/bin/python bench/blog_corpus.py fp-de GIT_DIR_OR_CHECKOUT --commit SHA --out .state/corpus-de
    .venv/bin/python bench/blog_corpus.py hoizey-fr GIT_DIR_OR_CHECKOUT --commit SHA --out .state/corpus-fr
    .venv/bin/python bench/blog_corpus.py go-en GIT_DIR_OR_CHECKOUT --commit SHA --out .state/corpus-go

The blogs' text is never copied into this repository: this reads a checkout (a work tree, or a
bare git directory at a commit) and writes the corpus format of ../shared/corpus/README.md (beside the checkout)
under .state/, which git ignores. Which blogs, at which commits, and their licences:
docs/benchmarks.md#german-and-french-blogs.

Each blog is a `Layout`: where its posts are, which of them are in the blog's language, and how
its addresses are built. Front matter is YAML (PyYAML, a benchmark-only dependency); bodies are
rendered with Python-Markdown as the shared corpus's are, template tags dropped first.
"""

import argparse
import json
import logging
import re
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

log = logging.getLogger(__name__)

# Liquid and Nunjucks tags ({% ... %}, {{ ... }}) and Eleventy's containers (`::: lead`).
TEMPLATE_TAG = re.compile(r"\{%.*?%\}|\{\{.*?\}\}", re.DOTALL)
CONTAINER = re.compile(r"^:::.*$", re.MULTILINE)
FRONT_MATTER = re.compile(r"\A---\s*\n(.*?)\n---\s*\n", re.DOTALL)


@dataclass(frozen=True)
class Layout:
    """Where a blog keeps its posts and how it names them."""

    source: str  # the blog's host, the corpus's `source`
    language: str
    pattern: re.Pattern  # a post's path; groups year, month, day, slug, or the slug alone
    url: str  # the address, formatted with the groups


LAYOUTS = {
    # funktionale-programmierung.de: Jekyll, _posts/YYYY-MM-DD-slug.md, every post in German.
    "fp-de": Layout(
        source="funktionale-programmierung.de",
        language="de",
        pattern=re.compile(r"^_posts/(\d{4})-(\d{2})-(\d{2})-(.+)\.(?:md|markdown)$"),
        url="https://funktionale-programmierung.de/{0}/{1}/{2}/{3}.html",
    ),
    # nicolas-hoizey.com: Eleventy, src/articles/YYYY/MM/DD/slug/index.md, a `lang` per post.
    "hoizey-fr": Layout(
        source="nicolas-hoizey.com",
        language="fr",
        pattern=re.compile(r"^src/articles/(\d{4})/(\d{2})/(\d{2})/([^/]+)/index\.md$"),
        url="https://nicolas-hoizey.com/articles/{0}/{1}/{2}/{3}/",
    ),
    # The Go blog (go.dev/blog): golang/website, _content/blog/slug.md, the date in the front
    # matter only. An English blog for bench/relevance.py's --corpus, a third beside the shared one.
    "go-en": Layout(
        source="go.dev/blog",
        language="en",
        pattern=re.compile(r"^_content/blog/([^/]+)\.md$"),
        url="https://go.dev/blog/{0}",
    ),
}


class Source:
    """The files of a checkout or of a bare git directory at a commit."""

    def __init__(self, path: Path, commit: str | None):
        self.path, self.commit = path, commit
        self.git = commit is not None

    def paths(self) -> list[str]:
        if self.git:
            out = subprocess.run(["git", "--git-dir", str(self.path), "ls-tree", "-r", "--name-only", self.commit], check=True, capture_output=True)
            return out.stdout.decode().splitlines()
        return [str(p.relative_to(self.path)) for p in self.path.rglob("*") if p.is_file()]

    def read(self, name: str) -> str:
        if self.git:
            out = subprocess.run(["git", "--git-dir", str(self.path), "show", f"{self.commit}:{name}"], check=True, capture_output=True)
            return out.stdout.decode("utf-8")
        return (self.path / name).read_text(encoding="utf-8")


def split_front_matter(text: str) -> tuple[dict, str]:
    import yaml

    match = FRONT_MATTER.match(text)
    if not match:
        return {}, text
    meta = yaml.safe_load(match.group(1)) or {}
    return (meta if isinstance(meta, dict) else {}), text[match.end() :]


def render(body: str) -> tuple[str, str]:
    """The body as HTML and as text (tags stripped, a newline between blocks)."""
    import markdown

    from blog.text import html_to_text

    cleaned = CONTAINER.sub("", TEMPLATE_TAG.sub("", body))
    html = markdown.markdown(cleaned, extensions=["fenced_code", "tables", "footnotes"])
    return html, html_to_text(html)


def pub_date(meta: dict, groups: tuple[str, ...]) -> str | None:
    """The front matter's date when it has one ("2024-4-09" too), else the path's, at noon UTC;
    None when neither says."""
    value = meta.get("date")
    if isinstance(value, datetime):
        return (value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day, 12, tzinfo=UTC).isoformat()
    if isinstance(value, str) and (day := re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", value.strip())):
        groups = day.groups()
    if len(groups) < 3:
        return None
    return datetime(int(groups[0]), int(groups[1]), int(groups[2]), 12, tzinfo=UTC).isoformat()


def tags_of(meta: dict) -> list[str]:
    tags = meta.get("tags") or []
    if isinstance(tags, str):
        tags = tags.split()
    return [str(t) for t in tags]


def posts(layout: Layout, source: Source) -> list[dict]:
    """The blog's posts in its language, oldest first, ids from 1."""
    rows = []
    for name in sorted(source.paths()):
        match = layout.pattern.match(name)
        if not match:
            continue
        meta, body = split_front_matter(source.read(name))
        language = str(meta.get("lang") or layout.language).strip()
        if language != layout.language or meta.get("published") is False or not meta.get("title"):
            continue
        groups = match.groups()
        published = pub_date(meta, groups)
        if published is None:
            log.warning("%s: no date, left out", name)
            continue
        html, text = render(body)
        rows.append(
            {
                "source": layout.source,
                "type": "post",
                "source_id": name,
                "slug": groups[-1],
                "title": str(meta["title"]).strip(),
                "pub_date": published,
                "tags": tags_of(meta),
                "url": layout.url.format(*groups),
                "body_html": html,
                "body_text": text,
            }
        )
    rows.sort(key=lambda r: (r["pub_date"], r["source_id"]))
    return [{"id": i, **row} for i, row in enumerate(rows, start=1)]


def write(rows: list[dict], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with (out / "posts.ndjson").open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    (out / "comments.ndjson").write_text("", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("layout", choices=sorted(LAYOUTS))
    parser.add_argument("path", type=Path, help="the blog's checkout, or its bare git directory with --commit")
    parser.add_argument("--commit", help="read the git directory PATH at this commit")
    parser.add_argument("--out", type=Path, required=True, help="the corpus folder to write (under .state/)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    try:
        import markdown  # noqa: F401
        import yaml  # noqa: F401
    except ImportError as exc:
        sys.exit(f"{exc.name} is missing: .venv/bin/pip install pyyaml (a benchmark-only dependency)")
    rows = posts(LAYOUTS[args.layout], Source(args.path, args.commit))
    write(rows, args.out)
    log.info("%d posts of %s written to %s", len(rows), LAYOUTS[args.layout].source, args.out / "posts.ndjson")


if __name__ == "__main__":
    main()
