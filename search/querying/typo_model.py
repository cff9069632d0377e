"""The typo model: how likely a typed word is a misspelling of a word the blog holds (pure).

Two ways people misspell, each scored here:

- **Slips**: a key next to the right one, two letters swapped, a letter dropped or doubled. A
  weighted edit distance counts them (`typo_cost`), each kind at its own cost (search/conf.py
  TypoCosts), cheapest for the slips people make most.
- **Letters exchanged**: two letters that are not neighbours trade places ("vefiry": verify,
  "espace": escape, "updrages": upgrades). Two edits by the count, one slip of the mind: it costs
  `TypoCosts.exchange` (`exchanged`).
- **Spelling by sound**: "exersize", "jurny", "schedual" are two edits from the word but sound
  the same. Two words sound alike when their sound keys are equal (`sounds_alike`;
  search/sounds.py: Double Metaphone, or French Phonetic for a French blog). A sound-alike costs at most `TypoCosts.sound_alike`, so
  "jurny" is "journey" before "jury".

`typo_score` turns a cost into a score from 0 to 1, like the term suggester's own.
"""

import functools

from search import sounds
from search.conf import TypoCosts

# The typo model's keyboards (TypoCosts.keyboard; the blog's language picks one): its edit costs
# are settings (search/conf.py TypoCosts).
LAYOUTS = {
    "qwerty": ("qwertyuiop", "asdfghjkl", "zxcvbnm"),
    "qwertz": ("qwertzuiop", "asdfghjkl", "yxcvbnm"),
    "azerty": ("azertyuiop", "qsdfghjklm", "wxcvbn"),
}
QWERTY = LAYOUTS["qwerty"]
KEYS = {name: {ch: (r, c) for r, row in enumerate(rows) for c, ch in enumerate(row)} for name, rows in LAYOUTS.items()}
KEY = KEYS["qwerty"]
VOWELS = frozenset("aeiouy")
COSTS = TypoCosts()  # the defaults, which an English site runs unless settings.SEARCH overrides them


def keys_of(keyboard: str) -> dict:
    """The key positions of a keyboard (TypoCosts.keyboard)."""
    return KEYS[keyboard]


def near_key(a: str, b: str, keys: dict = KEY) -> bool:
    """Whether two letters sit on the same or neighbouring keys."""
    ka, kb = keys.get(a), keys.get(b)
    return ka is not None and kb is not None and abs(ka[0] - kb[0]) <= 1 and abs(ka[1] - kb[1]) <= 1


def _indels(s: str, doubled: float, insert_delete: float, stray: float | None = None, keys: dict = KEY) -> list[float]:
    """[k]: the cost of dropping or adding s[k - 1], cheap when it doubles a neighbour. With
    `stray` (the typed word's own letters), a letter that neither doubles a neighbour nor sits next
    to one's key costs that: a key hit by mistake lands near the intended one ("jurny" is rather
    "journey" than "jury" with a stray "n")."""
    out = [0.0]
    for k in range(1, len(s) + 1):
        ch, before, after = s[k - 1], s[k - 2] if k >= 2 else "", s[k] if k < len(s) else ""
        if ch == before or ch == after:
            out.append(doubled)
        elif stray is None or near_key(ch, before, keys) or near_key(ch, after, keys):
            out.append(insert_delete)
        else:
            out.append(stray)
    return out


def typo_cost(typed: str, candidate: str, costs: TypoCosts = COSTS) -> float:
    """Weighted optimal-string-alignment distance between what was typed and a candidate word
    (`_aligned`), or costs.exchange when two letters that are not neighbours trade places, the
    first kept (`exchanged`: "train" is no cheap "artin").

    An edit at the start of the typed word (substituting or dropping its first letter, adding one
    before it, swapping its first two) costs costs.first_letter more.
    """
    a, b = typed.lower(), candidate.lower()
    cost = _aligned(a, b, costs)
    return round(min(cost, costs.exchange), 4) if exchanged(a, b) else cost


def _aligned(a: str, b: str, costs: TypoCosts) -> float:
    """The weighted optimal-string-alignment distance of two lowercased words (typo_cost).

    Written for speed (it runs for every option of every misspelled word, on the request path): the
    per-position costs are computed once and the cell loop makes no calls, 36 instead of 60 us a
    word pair; the arithmetic is the same, term by term, so the result is too (tests/test_properties.py
    checks it against the plain version).
    """
    n, m = len(a), len(b)
    first = costs.first_letter
    doubled, insert_delete, transpose = costs.doubled, costs.insert_delete, costs.transpose
    adjacent_key, vowel, substitute = costs.adjacent_key, costs.vowel, costs.substitute

    keys = keys_of(costs.keyboard)
    indel_a, indel_b = _indels(a, doubled, insert_delete, costs.stray, keys), _indels(b, doubled, insert_delete)
    prev2: list[float] = []
    prev = [0.0] * (m + 1)
    for j in range(1, m + 1):
        prev[j] = prev[j - 1] + indel_b[j] + first
    for i in range(1, n + 1):
        ai = a[i - 1]
        ai_key = keys.get(ai)
        ai_vowel = ai in VOWELS
        first_i = first if i == 1 else 0.0
        drop = indel_a[i]
        row = [prev[0] + drop + first_i] + [0.0] * m
        for j in range(1, m + 1):
            bj = b[j - 1]
            if ai == bj:
                diagonal = prev[j - 1] + 0.0
            else:
                bj_key = keys.get(bj)
                if ai_key is not None and bj_key is not None and abs(ai_key[0] - bj_key[0]) <= 1 and abs(ai_key[1] - bj_key[1]) <= 1:
                    sub = adjacent_key
                elif ai_vowel and bj in VOWELS:
                    sub = vowel
                else:
                    sub = substitute
                diagonal = prev[j - 1] + ((sub + (first if i == 1 or j == 1 else 0.0)) if sub else 0.0)
            best = min(diagonal, prev[j] + drop + first_i, row[j - 1] + indel_b[j])
            if i > 1 and j > 1 and ai == b[j - 2] and a[i - 2] == bj and ai != a[i - 2]:
                best = min(best, prev2[j - 2] + transpose + (first if i == 2 else 0.0))
            row[j] = best
        prev2, prev = prev, row
    return round(prev[m], 4)


def exchanged(typed: str, candidate: str) -> bool:
    """Whether `candidate` is `typed` with two letters exchanged that are not neighbours, the first
    letter kept ("vefiry", "verify"). Neighbours swapped are a transposition; a first letter
    exchanged makes another word as often as a typo ("sauce", "cause"), and people rarely get the
    first letter wrong."""
    if len(typed) != len(candidate) or typed[:1] != candidate[:1]:
        return False
    at = [i for i, (x, y) in enumerate(zip(typed, candidate, strict=True)) if x != y]
    return len(at) == 2 and at[1] - at[0] >= 2 and typed[at[0]] == candidate[at[1]] and typed[at[1]] == candidate[at[0]]


@functools.lru_cache(maxsize=4096)  # pure; the words of a query being typed come back at every keystroke (~1 MB full)
def typo_score(typed: str, candidate: str, costs: TypoCosts = COSTS) -> float:
    """Like the term suggester's own score (1 - edits / length), with the typo model's costs.

    Divided by the typed word's length, not the shorter one's as Lucene does: the options for one
    typed word are then ranked by their cost alone, and a longer candidate gains nothing. A word
    that sounds like what was typed costs at most costs.sound_alike.
    """
    cost = typo_cost(typed, candidate, costs)
    scheme = costs.sound_key
    if cost > costs.sound_alike and sounds_alike(typed, candidate, scheme=scheme) and within_sound_reach(typed, candidate, scheme=scheme):
        cost = costs.sound_alike
    return round(max(0.0, 1.0 - cost / (len(typed) or 1)), 4)


@functools.lru_cache(maxsize=1024)  # the typed words and their nearest candidates come back at every keystroke
def sound_key(word: str, scheme: str = sounds.DEFAULT) -> str:
    """The word's sound key ("exersize" and "exercise": AKSRSS; search/sounds.py); empty for other
    scripts. ~2 us a word; the cache is small (~0.2 MB), where 8,192 keys held ~1.7 MB a worker."""
    return sounds.key(word, scheme)


# The fewest consonant sounds that tell a word: shorter keys collide too often ("vuejs" and "views"
# are both FS, "feeze" and "fuzzy" too).
MIN_KEY = 3


# A first vowel heard for another, the rest as typed, is a misspelling by sound ("ascape": escape,
# "abvious": obvious); with more changed it is as often another word ("usind" is no "osint").
FIRST_VOWELS = frozenset("aeiou")


def sounds_alike(typed: str, candidate: str, *, min_length: int = 5, scheme: str = sounds.DEFAULT) -> bool:
    """Whether two different words with the same first letter sound the same, judged from
    `min_length` typed letters: shorter keys collide too often ("nuxt" and "next"), and people
    rarely misspell a first letter ("kotlin" is no "catlin") but for a vowel for another, the
    rest as typed ("ascape": escape). A scheme that spells vowels asks for the same first
    sound instead ("otres": autres; search/sounds.py), which its key begins with."""
    a, b = typed.lower(), candidate.lower()
    same_start = a[:1] == b[:1] or (a[:1] in FIRST_VOWELS and b[:1] in FIRST_VOWELS and a[1:] == b[1:]) or sounds.first_sound(scheme)
    if a == b or len(a) < min_length or not same_start:
        return False
    key = sound_key(a, scheme)
    return len(key) >= MIN_KEY and key == sound_key(b, scheme)


# A word that sounds like the typed one is the word meant at most this many edits away
# (bench/relevance.py's `tune` half: codespell's sound-spelled misspellings of three edits,
# "porshan": portion), three only from SOUND_FAR_MIN_LENGTH letters: shorter keys sound alike too
# easily ("feeze" is no "fuzzy").
SOUND_MAX_EDITS = 3
SOUND_FAR_MIN_LENGTH = 6


def within_sound_reach(typed: str, candidate: str, *, scheme: str = sounds.DEFAULT) -> bool:
    """Whether a sound-alike is near enough to be scored as one: up to two edits, or
    SOUND_MAX_EDITS that do not shorten the word (a scheme that spells vowels may), from
    SOUND_FAR_MIN_LENGTH letters ("porshan": portion). Farther ones are scored as the edits they are: "settled" sounds like "suttlety" but
    is no correction of it, and must not crowd out "subtlety", one edit away. Which are sure is
    search/querying/corrections.py's to judge."""
    n = osa(typed, candidate)
    longer = len(candidate) >= len(typed) or sounds.spells_vowels(scheme)
    return n <= 2 or (n <= SOUND_MAX_EDITS and longer and len(typed) >= SOUND_FAR_MIN_LENGTH)


def osa(a: str, b: str) -> int:
    """Optimal-string-alignment distance (an adjacent swap is one edit), as the dictionary counts."""
    prev2, prev = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], prev2[j - 2] + 1)
        prev2, prev = prev, row
    return prev[-1]


def osa_alignments(a: str, b: str) -> list[list[tuple[str, int, int]]]:
    """Every optimal alignment's edits from `a` to `b` (`a` and `b` a few edits apart), each edit
    (kind, i, j): "sub" a[i] for b[j], "swap" a[i:i+2] for b[j:j+2], "drop" (b[j] missing from a,
    before a[i]), "extra" (a[i] not in b)."""
    n, m = len(a), len(b)
    d = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        d[i][0] = i
    for j in range(m + 1):
        d[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)

    def back(i: int, j: int) -> list[list[tuple[str, int, int]]]:
        if not i and not j:
            return [[]]
        out = []
        if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1] and a[i - 1] != a[i - 2] and d[i][j] == d[i - 2][j - 2] + 1:
            out += [[*p, ("swap", i - 2, j - 2)] for p in back(i - 2, j - 2)]
        if i and j and d[i][j] == d[i - 1][j - 1] + (a[i - 1] != b[j - 1]):
            step = [("sub", i - 1, j - 1)] if a[i - 1] != b[j - 1] else []
            out += [[*p, *step] for p in back(i - 1, j - 1)]
        if i and d[i][j] == d[i - 1][j] + 1:
            out += [[*p, ("extra", i - 1, j)] for p in back(i - 1, j)]
        if j and d[i][j] == d[i][j - 1] + 1:
            out += [[*p, ("drop", i, j - 1)] for p in back(i, j - 1)]
        return out

    return back(n, m)
