"""Grow the corpus N-fold with realistic variation (seeded), in the same NDJSON format.

    .venv/bin/python bench/grow_corpus.py --factor 10 --out .state/corpus-10x

Every original post is kept; each of its N-1 variants gets a new id and slug, a date shifted by
up to two years, a title that swaps one word (two in titles of four words or more) for words of other titles, and a body that
keeps most of the original's sentences (shuffled a little) and mixes in sentences of other posts
of the same source. Comments are copied onto their post's variants with their sentences
reordered. So the vocabulary, the word frequencies and the body lengths keep the corpus's shape
while the index holds N times the documents.
"""

import argparse
import json
import random
import re
from datetime import datetime, timedelta
from pathlib import Path

SENTENCE = re.compile(r"(?<=[.!?])\s+")
ID_STEP = 100_000


def sentences(text: str) -> list[str]:
    return [s for s in SENTENCE.split(text or "") if s.strip()]


def vary_text(text: str, pool: list[str], rng: random.Random) -> str:
    parts = sentences(text)
    if not parts:
        return text
    keep = [s for s in parts if rng.random() < 0.85] or parts[:1]
    if len(keep) > 2 and rng.random() < 0.5:
        i = rng.randrange(len(keep) - 1)
        keep[i], keep[i + 1] = keep[i + 1], keep[i]
    for _ in range(rng.randint(0, 2)):
        keep.insert(rng.randrange(len(keep) + 1), rng.choice(pool))
    return " ".join(keep)


def vary_title(title: str, title_words: list[str], rng: random.Random) -> str:
    words = title.split()
    for _ in range(1 if len(words) <= 3 else rng.randint(1, 2)):
        if words:
            words[rng.randrange(len(words))] = rng.choice(title_words)
    return " ".join(words)


def grow(corpus: Path, out: Path, *, factor: int, seed: int) -> tuple[int, int]:
    rng = random.Random(seed)
    posts = [json.loads(line) for line in (corpus / "posts.ndjson").open(encoding="utf-8") if line.strip()]
    comments = [json.loads(line) for line in (corpus / "comments.ndjson").open(encoding="utf-8") if line.strip()]
    title_words = [w for p in posts for w in p["title"].split() if w.isalpha() and len(w) > 3]
    pools = {}
    for p in posts:
        pools.setdefault(p["source"], []).extend(sentences(p.get("body_text", ""))[:5])
    out.mkdir(parents=True, exist_ok=True)
    n_posts = n_comments = 0
    with (out / "posts.ndjson").open("w", encoding="utf-8") as fh:
        for p in posts:
            fh.write(json.dumps(p) + "\n")
            n_posts += 1
            for k in range(1, factor):
                text = vary_text(p.get("body_text", ""), pools[p["source"]], rng)
                date = datetime.fromisoformat(p["pub_date"]) + timedelta(days=rng.randint(-730, 730))
                date = min(date, datetime.now(date.tzinfo) - timedelta(days=1))
                v = {
                    **p,
                    "id": p["id"] + k * ID_STEP,
                    "slug": f"{p['slug']}-v{k}",
                    "title": vary_title(p["title"], title_words, rng),
                    "pub_date": date.isoformat(),
                    "body_text": text,
                    "body_html": "".join(f"<p>{s}</p>" for s in sentences(text)),
                }
                fh.write(json.dumps(v) + "\n")
                n_posts += 1
    with (out / "comments.ndjson").open("w", encoding="utf-8") as fh:
        for c in comments:
            fh.write(json.dumps(c) + "\n")
            n_comments += 1
        for k in range(1, factor):
            for c in comments:
                text = vary_text(c["comment"], [c["comment"]], rng)
                v = {
                    **c,
                    "id": c["id"] + k * ID_STEP,
                    "post_id": c["post_id"] + k * ID_STEP,
                    "parent_id": c["parent_id"] + k * ID_STEP if c["parent_id"] else None,
                    "comment": text,
                    "comment_html": f"<p>{text}</p>",
                }
                fh.write(json.dumps(v) + "\n")
                n_comments += 1
    return n_posts, n_comments


def main():
    root = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=root.parent / "shared" / "corpus")
    parser.add_argument("--out", type=Path, default=root / ".state" / "corpus-10x")
    parser.add_argument("--factor", type=int, default=10)
    parser.add_argument("--seed", type=int, default=20261121)
    args = parser.parse_args()
    n_posts, n_comments = grow(args.corpus, args.out, factor=args.factor, seed=args.seed)
    print(f"wrote {n_posts} posts and {n_comments} comments to {args.out}")


if __name__ == "__main__":
    main()
