"""Writes search/data/real_words_<language>.txt.gz: the words of a language (en, de, fr) and how
often it uses them, from wordfreq (https://github.com/rspeer/wordfreq), for search/realwords.py.

    .venv/bin/pip install wordfreq==3.1.1 && .venv/bin/python scripts/export_real_words.py [en|de|fr]

Why a file made once rather than wordfreq at run time: wordfreq loads its whole frequency table
(tens of megabytes in every gunicorn worker); the app needs one fact about ~28,000 words, which
this list gives in 0.4 MB, searched in place (search/realwords.py). Why
wordfreq: it is the list issue 36 names, kept up by its author from eight sources (Wikipedia,
subtitles, news, books, web text, Twitter, Reddit), and it ranks words by how often people use
them, which is what tells a real word from a typo.

Kept: the "large" list's words of letters only with a Zipf frequency of at least MIN_ZIPF (once
per hundred million words), one per line as "<word> <Zipf x 100>", in byte order (the app
binary-searches the lines). English keeps its words of ASCII letters only; German and French words are written folded as the analyzers fold them
("müller": muller, "café": cafe), the commonest form's frequency kept, because the query's words
are looked up folded.
The data is wordfreq's (Apache-2.0 code; its word lists derive from CC BY-SA 4.0 sources:
attribution in docs/search.md).
"""

import gzip
import re
import sys
import unicodedata
from pathlib import Path

from wordfreq import iter_wordlist, zipf_frequency

# Words from 3 up are real words the app never corrects; those from 2 to 3 (kotlin, cobol, godot,
# and the misspellings people make most: recieve, seperate) are corrected only by the edits people
# make (search/querying/corrections.py).
MIN_ZIPF = 2.0
DATA = Path(__file__).resolve().parent.parent / "search" / "data"


def fold(word: str) -> str:
    word = word.replace("ß", "ss")
    return "".join(ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch))


def main() -> None:
    language = sys.argv[1] if len(sys.argv) > 1 else "en"
    out_path = DATA / f"real_words_{language}.txt.gz"
    found: dict[str, int] = {}
    for word in iter_wordlist(language, wordlist="large"):
        folded = word if language == "en" else fold(word)  # English: its ASCII words only, as before
        if not re.fullmatch(r"[a-z]+", folded):
            continue
        zipf = zipf_frequency(word, language, wordlist="large")
        if zipf < MIN_ZIPF:
            break  # iter_wordlist goes from the most frequent down
        found.setdefault(folded, round(zipf * 100))  # the commonest form first
    lines = [f"{word} {zipf}" for word, zipf in sorted(found.items())]
    # mtime=0: the same list gives the same bytes, so a regenerated file shows no diff.
    with out_path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as out:
        out.write(("\n".join(lines) + "\n").encode())
    print(f"{len(lines)} words, {out_path.stat().st_size} bytes: {out_path}")


if __name__ == "__main__":
    main()
