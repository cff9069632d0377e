"""Writes search/data/real_words_en.txt.gz: English words and how often English uses them, from
wordfreq (https://github.com/rspeer/wordfreq), for search/realwords.py.

    .venv/bin/pip install wordfreq==3.1.1 && .venv/bin/python scripts/export_real_words.py

Why a file made once rather than wordfreq at run time: wordfreq loads its whole frequency table
(tens of megabytes in every gunicorn worker); the app needs one fact about ~28,000 words, which
this list gives in 0.4 MB, searched in place (search/realwords.py). Why
wordfreq: it is the list issue 36 names, kept up by its author from eight sources (Wikipedia,
subtitles, news, books, web text, Twitter, Reddit), and it ranks words by how often people use
them, which is what tells a real word from a typo.

Kept: the "large" English list's words of ASCII letters only with a Zipf frequency of at least
MIN_ZIPF (once per hundred million words), one per line as "<word> <Zipf x 100>", in byte order (the
app binary-searches the lines).
The data is wordfreq's (Apache-2.0 code; its word lists derive from CC BY-SA 4.0 sources:
attribution in docs/search.md).
"""

import gzip
import re
from pathlib import Path

from wordfreq import iter_wordlist, zipf_frequency

# Words from 3 up are real words the app never corrects; those from 2 to 3 (kotlin, cobol, godot,
# and the misspellings people make most: recieve, seperate) are corrected only by the edits people
# make (search/querying/corrections.py).
MIN_ZIPF = 2.0
OUT = Path(__file__).resolve().parent.parent / "search" / "data" / "real_words_en.txt.gz"


def main() -> None:
    found = []
    for word in iter_wordlist("en", wordlist="large"):
        if not re.fullmatch(r"[a-z]+", word):
            continue
        zipf = zipf_frequency(word, "en", wordlist="large")
        if zipf < MIN_ZIPF:
            break  # iter_wordlist goes from the most frequent down
        found.append((word, round(zipf * 100)))
    lines = [f"{word} {zipf}" for word, zipf in sorted(found)]
    # mtime=0: the same list gives the same bytes, so a regenerated file shows no diff.
    with OUT.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as out:
        out.write(("\n".join(lines) + "\n").encode())
    print(f"{len(lines)} words, {OUT.stat().st_size} bytes: {OUT}")


if __name__ == "__main__":
    main()
