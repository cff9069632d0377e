"""What a sound-key scheme costs a search, in-process (issue 53: French sound-alikes).

    DATABASE_URL=.../blogsearch_fr SEARCH_INDEX_PREFIX=blogfr SEARCH_LANGUAGE=fr \\
      .venv/bin/python bench/sound_key_cost.py --corpus .state/corpus-fr --lists .state/lists

Runs bench/langgen.py's typo queries through search.querying.service.search (the result and word
caches off, DEBUG off) with TypoCosts.sound_key set to each scheme in turn. The schemes take
alternate queries, then swap on a second seed's queries, so no query runs twice (Elasticsearch's
caches would flatter the second run). After a warm-up, prints the median wall and CPU time a
search per scheme and their ratio, from the same run. The sound-key cache stays on, as it ships.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SCHEMES = ("double_metaphone", "phonetic_fr")
TYPO_KINDS = {"adjacent_key", "transposition", "dropped", "doubled", "phrase2", "two_typos", "confusion", "confusion_heldout"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, required=True, help="the blog's corpus folder (bench/blog_corpus.py)")
    parser.add_argument("--lists", type=Path, default=Path("/"), help="the folder Debian's list packages were unpacked into")
    parser.add_argument("--per-kind", type=int, default=60)
    parser.add_argument("--warmup", type=int, default=40)
    args = parser.parse_args()
    from bench import inprocess

    inprocess.setup(SEARCH_CACHE_SECONDS="0")
    import json

    from bench.langgen import Generator
    from bench.language_relevance import AUTOCORRECT, HUNSPELL
    from search import conf
    from search.querying.service import search

    language = conf.get().index.language
    with (args.corpus / "posts.ndjson").open(encoding="utf-8") as fh:
        posts = [json.loads(line) for line in fh if line.strip()]
    generator = Generator(posts, language, autocorrect=args.lists / AUTOCORRECT / f"acor_{language}.dat", hunspell=args.lists / HUNSPELL)
    conf.override(WORD_CACHE_SECONDS=0)
    pools = [[q.text for q in generator.generate(seed=seed, per_kind=args.per_kind) if q.kind in TYPO_KINDS] for seed in (11, 12, 13)]
    for text in pools[0][: args.warmup]:  # connections, the dictionary, the JIT of Elasticsearch
        search(text, use_cache=False)
    wall = {s: [] for s in SCHEMES}
    cpu = {s: [] for s in SCHEMES}
    for swap, pool in enumerate(pools[1:]):
        for i, text in enumerate(pool):
            scheme = SCHEMES[(i + swap) % 2]
            conf.override(TYPO_COSTS={"sound_key": scheme})
            c, w = time.process_time(), time.perf_counter()
            search(text, use_cache=False)
            cpu[scheme].append(time.process_time() - c)
            wall[scheme].append(time.perf_counter() - w)
    base = SCHEMES[0]
    print(f"language {language}, {sum(len(v) for v in wall.values())} typo queries, one each, schemes alternating")
    print("| sound_key | n | median wall ms | vs double_metaphone | median CPU ms | vs double_metaphone |")
    print("| --- | --- | --- | --- | --- | --- |")
    for s in SCHEMES:
        mw, mc = statistics.median(wall[s]), statistics.median(cpu[s])
        bw, bc = statistics.median(wall[base]), statistics.median(cpu[base])
        print(f"| {s} | {len(wall[s])} | {1000 * mw:.2f} | {mw / bw:.2f}x | {1000 * mc:.2f} | {mc / bc:.2f}x |")


if __name__ == "__main__":
    main()
