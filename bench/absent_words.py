"""How often a real word the blog does not hold is rewritten into another word (issue 36).

    PYTHONPATH=. .venv/bin/python bench/absent_words.py
    PYTHONPATH=. .venv/bin/python bench/absent_words.py --names bench/data/pypi_names.txt

WORDS is our own pick. `--names` reads a file of names no model of ours made instead (words
split by blanks, `#` lines left out): bench/data/pypi_names.txt holds the 600 most downloaded
PyPI packages named as one word, bench/data/npm_names.txt npm's, which no rule was read off.
Our 61 words said "as before" of a rule that rewrote "fastify" as fastly and "gitlab" as github
(docs/benchmarks.md, measured and not adopted). `--set` overrides a SEARCH setting
(bench/overrides.py); `--quiet` prints only the rewrites.

Needs the corpus imported and indexed (bench/relevance.py does both). For each word of WORDS that
no post or comment holds (checked in PostgreSQL as a whole word), one search: a word counts as
rewritten when the page says "Showing results for" another word. Each word is searched as a
reader submits it (no space after it: the last word may be unfinished, as on the results page
and in the instant box) and finished (a space after it); a word counts as rewritten when either
form is. Prints the rates and the rewrites; the words the blog does hold are listed, unused.
"""

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from bench import overrides  # noqa: E402
from blog.models import Comment, Post  # noqa: E402
from search.querying.service import search  # noqa: E402

# Real words (languages, tools, products, names) picked to be plausible on a tech blog.
WORDS = (
    "kotlin cobol godot keras nuxt svelte deno flutter elixir erlang fortran prolog ocaml clojure "
    "tensorflow pytorch kubernetes terraform ansible grafana kafka mongodb graphql webpack vite "
    "tailwind figma tiktok discord wasm jupyter pandas numpy angular vuejs nginx docker podman "
    "lambda serverless typescript blazor xamarin unity unreal roblox minecraft fortnite zoom slack "
    "fastapi pydantic vercel netlify supabase firebase flask laravel symfony rails django spring quarkus "
    "micronaut ktor gradle maven bazel cmake meson ninja conda poetry pipenv tox nox ruff mypy pyright "
    "eslint prettier babel rollup esbuild parcel remix gatsby hugo eleventy astro solidjs qwik htmx alpinejs "
    "stimulus turbo hotwire phoenix liveview gleam crystal nim vlang odin carbon mojo julia matlab simulink "
    # Everyday words a tech blog may never use (the list holds such words too): one cheap
    # edit from a word it does use is common ("unity": unit, "lobster": lobste).
    "giraffe tulip croissant harpsichord origami tambourine avalanche flamingo lasagna mosquito saxophone "
    "volcano yoghurt zucchini pancake kayak cathedral marathon orchestra pyramid snorkel tornado umbrella "
    "walrus wedding willow zebra hamster cactus ballet lettuce parrot dolphin spinach cinnamon gazebo igloo "
    "jellyfish lobster meadow nectar oyster pumpkin quilt raccoon sardine turnip vinegar waffle"
).split()


def held(word: str) -> bool:
    """Whether a post's title or body or a comment holds the word (PostgreSQL's word boundaries)."""
    pattern = rf"\m{word}\M"
    posts = Post.objects.filter(body_text__iregex=pattern) | Post.objects.filter(title__iregex=pattern)
    return posts.exists() or Comment.objects.filter(comment__iregex=pattern).exists()


def names(path: str) -> list[str]:
    """The words of a names file, in order, once each; `#` lines are comments."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return list(dict.fromkeys(w for line in lines if not line.startswith("#") for w in line.split()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--names", help="a file of names to search instead of WORDS")
    parser.add_argument("--quiet", action="store_true", help="print only the rewrites")
    overrides.add_argument(parser)
    args = parser.parse_args()
    overrides.apply(args.set)
    words = names(args.names) if args.names else WORDS
    absent = [w for w in words if not held(w)]
    print(f"{len(absent)} of {len(words)} words absent; held (unused): {', '.join(w for w in words if w not in absent)}")
    rewritten = {"as submitted": [], "finished": []}
    for word in absent:
        for form, typed in (("as submitted", word), ("finished", word + " ")):
            result = search(typed, use_cache=False)
            if result.showing_for:
                rewritten[form].append((word, result.showing_for))
            if not args.quiet or result.showing_for:
                print(f"  {typed!r:14} showing_for={result.showing_for!r:20} total={result.total} did_you_mean={result.did_you_mean!r}")
    either = {w for found in rewritten.values() for w, _ in found}
    for form, found in rewritten.items():
        print(f"rewritten {form}: {len(found)} of {len(absent)} = {len(found) / max(1, len(absent)):.2f}")
    print(f"rewritten either way: {len(either)} of {len(absent)} = {len(either) / max(1, len(absent)):.2f}: {', '.join(sorted(either))}")
    other = {w for found in rewritten.values() for w, shown in found if not split_only(w, shown)}
    print(f"into other letters (not a split): {len(other)} of {len(absent)} = {len(other) / max(1, len(absent)):.2f}: {', '.join(sorted(other))}")


def split_only(word: str, shown: str) -> bool:
    """Whether `shown` is `word` with spaces put in ("cachetools": cache tools): its own letters."""
    return shown.replace(" ", "").lower() == word.lower()


if __name__ == "__main__":
    main()
