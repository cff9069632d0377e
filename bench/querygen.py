"""A seeded set of test queries made from the corpus the way readers misspell (pure, no I/O but
reading the corpus file).

Each query comes from one post's title and expects the posts whose title holds the intended words
*as written* (as tokens: "pelicans" is not "pelican"; phrases as consecutive tokens, shuffled words
in any order), at most MAX_EXPECTED of them so the answer is specific. A query counts as found
only when such a post is the first hit (a comment first is a miss). Kinds:

- control: a correctly spelled 1-3 word title phrase (must never get worse)
- stem_control: a correctly spelled title word whose (porter) stem another title shares with a
  different word ("pelicans" vs "pelican", "confusion" vs "confuse"): stemming must not win
- control_phrase2: a correctly spelled two-word title phrase
- shuffled: 2-3 correctly spelled title words in another order (no phrase matches)
- human: a real human misspelling (from a list of common ones) of a title word
- adjacent_key, transposition, dropped, doubled: one mechanical typo in a single title word
- phrase2, phrase3: a 2- or 3-word title phrase with one typo
- two_typos: a 2-3 word title phrase with typos in two different words
- stop_wrapped: "how to ...", "what is the ..." around a phrase with one typo
- stop_title: a whole title of 4-9 words, at least two of them stop words ("testing things in
  fedora using docker"), one typo in a content word, wrapped half the time ("about the ..."): the
  independent sets' kind of stop-word titles (issue 36, item 5)
- real_word, real_phrase: one title word, or a 2-3 word title phrase, with one word spelled as
  people really misspell it: a misspelling codespell's list gives for it (bench/misspellings.py),
  from the list's `tune` half; real_word_heldout, real_phrase_heldout: the same from its `heldout`
  half, which no rule is tuned on (issue 48)
- real_far, real_far_heldout: one title word misspelled by a codespell entry two or more edits
  away (`tune` and `heldout` halves). Most of the list is one edit, so the kinds above hold about
  20 far cases a seed; people who spell by sound make far ones most ("jurny", "schedual")
- birkbeck_word, birkbeck_phrase (`tune` half), birkbeck_word_heldout, birkbeck_phrase_heldout:
  one word or a 2-3 word phrase misspelled from the Birkbeck list, a second published list kept
  outside the repository (bench/misspellings.py); empty unless `BIRKBECK_LIST` names its file
- body_word, body_birkbeck: a word no title holds, only the text of 1 to BODY_MAX_EXPECTED posts,
  misspelled from the `heldout` half of codespell's list or Birkbeck's. It expects any post whose
  title or text holds the word. Every kind above takes its word from a title, so the posts meant
  always reach the title's tiers; a reader's review found "relevent" shown as "element", a worse
  correction a title holds, while "relevant" was only in the posts' text (issue 48). Their
  sources are "codespell, body" and "birkbeck, body": rows of their own, outside ALL (bench/relevance.py)

Each query records its typo's source (keyboard: our own slip model; list: HUMAN below; codespell; birkbeck)
and its edit distance, so bench/relevance.py can report both apart.

A typo that happens to be a real word of the corpus is rejected: that is a different problem
(a real-word error) that no spelling suggester can see.
"""

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

from bench.misspellings import LISTS
from search.querying.typo_model import osa  # pure: bench/load.py calls generate() without Django set up

MAX_EXPECTED = 3
MIN_WORD = 4
# Title tokens roughly as our analyzers make them: "don't", "pragma_function_list" and "o3" stay
# whole, a dot or a colon splits ("node.js" is node, js: search/documents.py); a possessive 's is
# dropped ("kirby's" is the word "kirby"), as the index does.
WORD = re.compile(r"[a-z0-9_]+(?:['’][a-z0-9_]+)*")
POSSESSIVE = re.compile(r"['’]s$")


def tokens(text: str) -> list[str]:
    return [POSSESSIVE.sub("", w) for w in WORD.findall(text.lower())]


QWERTY = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
# Common English misspellings (correct -> misspelled), as people type them.
HUMAN = {
    "receive": "recieve",
    "separate": "seperate",
    "definitely": "definately",
    "occurred": "occured",
    "accommodate": "accomodate",
    "environment": "enviroment",
    "necessary": "neccessary",
    "address": "adress",
    "beginning": "begining",
    "believe": "beleive",
    "calendar": "calender",
    "category": "catagory",
    "committed": "commited",
    "existence": "existance",
    "familiar": "familar",
    "government": "goverment",
    "independent": "independant",
    "knowledge": "knowlege",
    "library": "libary",
    "maintenance": "maintainance",
    "occasion": "ocassion",
    "performance": "preformance",
    "possession": "posession",
    "privilege": "priviledge",
    "publicly": "publically",
    "recommend": "reccomend",
    "reference": "refrence",
    "relevant": "relevent",
    "restaurant": "restaraunt",
    "schedule": "schedual",
    "successful": "succesful",
    "tomorrow": "tommorow",
    "until": "untill",
    "weird": "wierd",
    "javascript": "javscript",
    "python": "pyhton",
    "django": "djnago",
    "database": "databse",
    "browser": "broswer",
    "function": "funtion",
    "parameter": "paramter",
    "argument": "arguement",
    "asynchronous": "asyncronous",
    "compatible": "compatable",
    "dependency": "dependancy",
    "permanent": "permanant",
    "immediately": "immediatly",
    "interface": "inteface",
    "language": "langauge",
    "management": "managment",
    "message": "mesage",
    "process": "proccess",
    "programming": "programing",
    "release": "relase",
    "request": "reqest",
    "response": "responce",
    "security": "securty",
    "software": "sofware",
    "template": "templete",
    "together": "togehter",
    "version": "verison",
    "writing": "writting",
    "search": "serach",
    "server": "sever",
    "simple": "simpel",
    "google": "gogle",
    "firefox": "firefix",
    "extension": "extention",
    "tutorial": "tutoral",
    "sqlite": "sqllite",
    "datasette": "datasete",
    "compiler": "complier",
    "async": "asnyc",
    "announcing": "anouncing",
}
STOP_WRAPS = ["how to {}", "what is the {}", "how do i {}", "the {}", "{} in the", "why is {}"]
TITLE_WRAPS = ["about the {}", "{}", "a post on {}", "the one about {}"]


@dataclass
class Query:
    kind: str
    text: str
    correct: str
    expected: list[int] = field(default_factory=list)
    source: str = "none"  # where its typos come from: none (a control), keyboard, list, codespell
    edits: int = 0  # the most edits (an adjacent swap is one) between a typo and its word


def neighbours(ch: str, rows=QWERTY) -> str:
    """The keys next to `ch` on a keyboard of `rows` (QWERTY unless told: bench/langgen.py types
    on QWERTZ and AZERTY)."""
    for r, row in enumerate(rows):
        c = row.find(ch)
        if c >= 0:
            near = row[max(c - 1, 0) : c] + row[c + 1 : c + 2]
            for other in (r - 1, r + 1):
                if 0 <= other < len(rows):
                    near += rows[other][max(c - 1, 0) : c + 1]
            return near
    return ""


def typo(word: str, kind: str, rng: random.Random, rows=QWERTY) -> str:
    i = rng.randrange(len(word))
    if kind == "adjacent_key":
        near = neighbours(word[i], rows)
        return word[:i] + rng.choice(near) + word[i + 1 :] if near else word
    if kind == "transposition":
        i = min(i, len(word) - 2)
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    if kind == "dropped":
        return word[:i] + word[i + 1 :]
    if kind == "doubled":
        return word[:i] + word[i] + word[i:]
    if kind == "human":
        return HUMAN.get(word, word)
    raise ValueError(kind)


MECHANICAL = ["adjacent_key", "transposition", "dropped", "doubled"]


def load_posts(corpus: Path) -> list[dict]:
    with (corpus / "posts.ndjson").open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


CONTROL_KINDS = ("control", "stem_control", "control_phrase2", "shuffled")
# The kinds whose typo is a real misspelling from a published list: the list and its half.
REAL_KINDS = {
    "real_word": ("codespell", "tune"),
    "real_phrase": ("codespell", "tune"),
    "real_word_heldout": ("codespell", "heldout"),
    "real_phrase_heldout": ("codespell", "heldout"),
    "real_far": ("codespell", "tune"),
    "real_far_heldout": ("codespell", "heldout"),
    "birkbeck_word": ("birkbeck", "tune"),
    "birkbeck_phrase": ("birkbeck", "tune"),
    "birkbeck_word_heldout": ("birkbeck", "heldout"),
    "birkbeck_phrase_heldout": ("birkbeck", "heldout"),
}
PHRASE_KINDS = ("real_phrase", "real_phrase_heldout", "birkbeck_phrase", "birkbeck_phrase_heldout")
# A word only posts' text holds, misspelled from a list's `heldout` half: its list.
BODY_KINDS = {"body_word": "codespell", "body_birkbeck": "birkbeck"}
# The most posts a body word may be in: enough to be a reader's word, few enough to be specific.
BODY_MAX_EXPECTED = 20
# The real kinds whose misspelling is two or more edits from its word.
FAR_KINDS = ("real_far", "real_far_heldout")


def real_misspellings(kind: str, word: str) -> tuple[str, ...]:
    """The misspellings of `word` a real kind may use: its half's, only the far ones for FAR_KINDS."""
    source, half = REAL_KINDS[kind]
    wrongs = LISTS[source](half).get(word, ())
    return tuple(w for w in wrongs if osa(w, word) >= 2) if kind in FAR_KINDS else wrongs


KINDS = [
    "control",
    "stem_control",
    "control_phrase2",
    "shuffled",
    "human",
    *MECHANICAL,
    "phrase2",
    "phrase3",
    "two_typos",
    "stop_wrapped",
    "stop_title",
    *REAL_KINDS,
    *BODY_KINDS,
]
# The kinds before the real-misspelling ones: the load benchmark's repeated queries stay the set
# its gates were recorded with.
LOAD_KINDS = [k for k in KINDS if k not in REAL_KINDS and k not in BODY_KINDS]


def source(kind: str) -> str:
    """Where a kind's typos come from."""
    if kind in CONTROL_KINDS:
        return "none"
    if kind in REAL_KINDS:
        return REAL_KINDS[kind][0]
    if kind in BODY_KINDS:
        return f"{BODY_KINDS[kind]}, body"
    return "list" if kind == "human" else "keyboard"


def title_words(posts: list[dict]) -> set[str]:
    return {w for p in posts for w in tokens(p["title"])}


def generate(
    corpus: Path, *, seed: int = 20261121, per_kind: int = 60, stems: dict[str, str] | None = None, posts: list[dict] | None = None, kinds=None
) -> list[Query]:
    """`stems` maps title words to their porter stems (bench/relevance.py asks Elasticsearch); without
    it there are no stem_control queries. `kinds`: those made (default KINDS)."""
    posts = posts if posts is not None else load_posts(corpus)
    from search.stopwords import is_stop_word_of

    def is_stop_word(word: str) -> bool:  # the corpus is English; no settings read (bench/load.py)
        return is_stop_word_of(word, "en")

    titles = {p["id"]: tokens(p["title"]) for p in posts}
    vocabulary = set()
    bodies: dict[int, list[str]] = {}
    for p in posts:
        vocabulary.update(tokens(p["title"]))
        bodies[p["id"]] = tokens(p.get("body_text", ""))
        vocabulary.update(bodies[p["id"]])
    stems = stems or {}
    stem_family: dict[str, set[str]] = {}
    for word, stem in stems.items():
        stem_family.setdefault(stem, set()).add(word)

    def holders(words: list[str], *, any_order: bool = False) -> list[int]:
        n = len(words)
        if any_order:
            return [pid for pid, t in titles.items() if set(words) <= set(t)]
        return [pid for pid, t in titles.items() if any(t[i : i + n] == words for i in range(len(t) - n + 1))]

    def content(w: str) -> bool:
        return len(w) >= MIN_WORD and w.isalpha() and not is_stop_word(w)

    rng = random.Random(seed)
    order = list(titles)
    rng.shuffle(order)
    queries: list[Query] = []
    in_text: dict[str, set[int]] | None = None
    for kind in kinds or KINDS:
        if kind in BODY_KINDS:
            if in_text is None:
                in_text = _text_holders(titles, bodies)
            queries += _body_words(kind, order, bodies, in_text, vocabulary, content, rng, per_kind)
            continue
        made, tries = 0, 0
        for pid in order:
            if made >= per_kind or tries > 20000:
                break
            tries += 1
            words = titles[pid]
            length = {
                "phrase2": 2,
                "phrase3": 3,
                "two_typos": rng.choice([2, 3]),
                "control": rng.choice([1, 2, 3]),
                "stop_wrapped": rng.choice([1, 2]),
                "control_phrase2": 2,
                "shuffled": rng.choice([2, 3]),
                "real_phrase": rng.choice([2, 3]),
                "real_phrase_heldout": rng.choice([2, 3]),
            }.get(kind, 1)
            if kind in PHRASE_KINDS[2:]:  # drawn apart: the kinds before keep their random stream
                length = rng.choice([2, 3])
            if kind == "stop_title":
                if not 4 <= len(words) <= 9 or sum(is_stop_word(w) for w in words) < 2:
                    continue
                length = len(words)
            if len(words) < length:
                continue
            start = rng.randrange(len(words) - length + 1)
            phrase = words[start : start + length]
            if kind == "shuffled":  # words from anywhere in the title, none repeated
                phrase = rng.sample(sorted(set(words)), min(length, len(set(words))))
            if not all(content(w) for w in phrase) and kind not in ("control", "stop_title"):
                continue
            if kind == "stem_control" and len(stem_family.get(stems.get(phrase[0], ""), ())) < 2:
                continue  # no other title word shares its stem
            if kind in REAL_KINDS and not any(real_misspellings(kind, w) for w in phrase):
                continue
            if kind == "human":
                candidates = [w for w in phrase if w in HUMAN]
                if not candidates:
                    # Prefer posts with a commonly misspelled word anywhere in the title.
                    hits = [w for w in words if w in HUMAN]
                    if not hits:
                        continue
                    phrase = [rng.choice(hits)]
            expected = holders(phrase, any_order=kind == "shuffled")
            if not expected or len(expected) > MAX_EXPECTED:
                continue
            if kind == "shuffled":
                if len(phrase) < 2 or holders(phrase):
                    continue  # the words must not stand in this order in any title
            wrong, edits = list(phrase), 0
            if kind not in CONTROL_KINDS:
                n_typos = 2 if kind == "two_typos" else 1
                positions = [i for i, w in enumerate(phrase) if content(w)]
                if kind in REAL_KINDS:
                    positions = [i for i in positions if real_misspellings(kind, phrase[i])]
                if len(positions) < n_typos:
                    continue
                ok = True
                for i in rng.sample(positions, n_typos):
                    if kind in REAL_KINDS:
                        bad = rng.choice(real_misspellings(kind, phrase[i]))
                    else:
                        mech = "human" if kind == "human" else (kind if kind in MECHANICAL else rng.choice(MECHANICAL))
                        bad = typo(phrase[i], mech, rng)
                    if bad == phrase[i] or bad in vocabulary:
                        ok = False
                        break
                    wrong[i] = bad
                    edits = max(edits, osa(bad, phrase[i]))
                if not ok:
                    continue
            text = " ".join(wrong)
            if kind == "stop_wrapped":
                text = rng.choice(STOP_WRAPS).format(text)
            if kind == "stop_title":
                text = rng.choice(TITLE_WRAPS).format(text)
            queries.append(Query(kind, text, " ".join(phrase), expected, source=source(kind), edits=edits))
            made += 1
    return queries


def _text_holders(titles: dict[int, list[str]], bodies: dict[int, list[str]]) -> dict[str, set[int]]:
    """The posts holding each word no title holds, by their text."""
    titled = {w for t in titles.values() for w in t}
    holding: dict[str, set[int]] = {}
    for pid, body in bodies.items():
        for w in set(body) - titled:
            holding.setdefault(w, set()).add(pid)
    return holding


def _body_words(kind, order, bodies, in_text, vocabulary, content, rng, per_kind) -> list[Query]:
    """A body kind's queries: for posts in `order`, one word of its text that no title holds and
    few posts do, misspelled from its list's `heldout` half (querygen's module docstring)."""
    source, made, seen = BODY_KINDS[kind], [], set()
    wrongs = LISTS[source]("heldout")
    for pid in order:
        if len(made) >= per_kind:
            break
        words = sorted({w for w in bodies[pid] if content(w) and w in wrongs and w not in seen and 0 < len(in_text.get(w, ())) <= BODY_MAX_EXPECTED})
        if not words:
            continue
        word = rng.choice(words)
        bad = rng.choice(wrongs[word])
        if bad == word or bad in vocabulary:
            continue
        seen.add(word)
        made.append(Query(kind, bad, word, sorted(in_text[word]), source=f"{source}, body", edits=osa(bad, word)))
    return made
