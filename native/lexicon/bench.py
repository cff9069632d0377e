"""Size and speed of the dictionary extension (`search._lexicon`) at the scale of a large index vocabulary (550,000 words).

    .venv/bin/python native/lexicon/bench.py [--words N] [--queries N]

Words come from /usr/share/dict/words when the machine has it, topped up with generated
English-like words (syllables plus common suffixes, so prefixes are shared as in real text), some
with accented letters, plus mistyped variants of them (a real index keeps its readers' typos).
Counts follow a Zipf-like law. Prints the build time, the bytes held, the process's RSS growth,
and the median (and 99th percentile) microseconds per call over random queries.
"""

import argparse
import ctypes
import random
import statistics
import time
from pathlib import Path

from search._lexicon import Lexicon

ONSETS = "b c d f g h j k l m n p r s t v w z bl br ch cl cr dr fl fr gl gr pl pr sh sk sl sp st str th tr".split()
VOWELS = "a e i o u a e i o ou ea ai ie é ü".split()
CODAS = ["", "", "", "n", "r", "s", "t", "l", "m", "nd", "st", "ck", "ng", "rt", "ss"]
SUFFIXES = ["", "", "", "s", "ing", "ed", "er", "ers", "ly", "tion", "ment", "ness", "able", "ize"]
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def release_free_memory() -> bool:
    """glibc keeps freed blocks of the build for reuse, which RSS counts; malloc_trim returns them."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
        return True
    except (OSError, AttributeError):
        return False


def typo(rng: random.Random, word: str) -> str:
    """One random edit: delete, insert, substitute or swap two neighbours."""
    i = rng.randrange(len(word) + 1)
    kind = rng.randrange(4)
    if kind == 0 and i < len(word):
        return word[:i] + word[i + 1 :]
    if kind == 1:
        return word[:i] + rng.choice(LETTERS) + word[i:]
    if kind == 2 and i < len(word):
        return word[:i] + rng.choice(LETTERS) + word[i + 1 :]
    if i + 1 < len(word):
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    return word + rng.choice(LETTERS)


def vocabulary(rng: random.Random, n: int) -> list[str]:
    words: set[str] = set()
    dictionary = Path("/usr/share/dict/words")
    if dictionary.exists():
        words.update(w.lower() for w in dictionary.read_text(errors="ignore").split() if w.isalpha())
    base = n * 8 // 10
    while len(words) < base:
        syllables = rng.choice((1, 2, 2, 3, 3, 4))
        stem = "".join(rng.choice(ONSETS) + rng.choice(VOWELS) + rng.choice(CODAS) for _ in range(syllables))
        words.add(stem + rng.choice(SUFFIXES))
    pool = sorted(words)  # sorted: a set's order changes with the hash seed, and the run would too
    while len(words) < n:
        words.add(typo(rng, rng.choice(pool)))
    return sorted(words)[:n]


def median_us(fn, args_list) -> tuple[float, float]:
    times = []
    for args in args_list:
        t = time.perf_counter_ns()
        fn(*args)
        times.append((time.perf_counter_ns() - t) / 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.99) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=550_000)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    opts = parser.parse_args()
    rng = random.Random(opts.seed)

    words = vocabulary(rng, opts.words)
    # Zipf-like document frequencies: most words are rare, a few are everywhere.
    entries = [(w, tuple(int(rng.paretovariate(1.1)) - 1 for _ in range(3))) for w in words]

    rss_before = rss_kb()
    t = time.perf_counter()
    data = Lexicon.build(entries)
    build_s = time.perf_counter() - t
    rss_built = rss_kb()
    t = time.perf_counter()
    lex = Lexicon(data)
    load_ms = (time.perf_counter() - t) * 1000
    rss_both = rss_kb()
    del data
    rss_loaded = rss_kb()
    trimmed = release_free_memory()
    rss_trimmed = rss_kb()

    print(f"words            {len(lex):>10,}")
    print(f"build            {build_s:>10.2f} s   (Lexicon.build from a list of tuples)")
    print(f"load             {load_ms:>10.1f} ms  (copy, checksum, head indexes)")
    print(f"nbytes           {lex.nbytes / 2**20:>10.2f} MB")
    print(f"RSS growth       {(rss_both - rss_built) / 1024:>10.2f} MB  by Lexicon(data)")
    after_build = (rss_built - rss_before) / 1024
    print(f"RSS growth       {(rss_loaded - rss_before) / 1024:>10.2f} MB  by build + load, the bytes then freed (after build alone: {after_build:.1f} MB)")
    if trimmed:
        print(f"RSS growth       {(rss_trimmed - rss_before) / 1024:>10.2f} MB  the same once malloc_trim(0) hands freed heap back (what stays is the lexicon)")

    q = opts.queries
    sample = [rng.choice(words) for _ in range(q)]
    cases = {
        "get (hit or miss)": (lex.get, [(w if i % 2 else typo(rng, w),) for i, w in enumerate(sample)]),
        "completions(1-3 letters, 10)": (lex.completions, [(w[: rng.randint(1, 3)], 10) for w in sample]),
        "within(d=1)": (lex.within, [(typo(rng, w), 1) for w in sample]),
        "within(d=2, prefix_length=1)": (lex.within, [(typo(rng, typo(rng, w)), 2, 1) for w in sample]),
        "prefix_within(d=1, 50)": (lex.prefix_within, [(typo(rng, w[: rng.randint(3, 8)]), 1, 50) for w in sample]),
        "prefix_within(d=2, 50)": (lex.prefix_within, [(typo(rng, typo(rng, w[: rng.randint(4, 8)])), 2, 50) for w in sample]),
        # Drawn last so that the queries above stay those of earlier runs.
        "within(d=1, prefix_length=1)": (lex.within, [(typo(rng, w), 1, 1) for w in sample]),
        "within(d=2)": (lex.within, [(typo(rng, typo(rng, w)), 2) for w in sample]),
    }
    print(f"\nmicroseconds per call over {q} random queries:   median      p99")
    for name, (fn, args) in cases.items():
        med, p99 = median_us(fn, args)
        print(f"  {name:<44} {med:>8.1f} {p99:>8.1f}")


if __name__ == "__main__":
    main()
