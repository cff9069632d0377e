"""How a word is judged and corrected: the one place that decides (pure; issues 36 and 48).

In order, for each word of a query:

1. **Known words stay.** A word the blog's dictionary holds is searched as typed (plan.unknown_words).
2. **Candidates.** For a word it lacks, the dictionary proposes its words up to two edits away,
   and the word split in two (search/querying/candidates.py).
3. **Scores.** The typo model scores each candidate: slips by a weighted edit distance, a word
   that sounds the same at most one cheap edit (search/querying/typo_model.py). The best few
   per word make the scored alternatives of the query (search/querying/suggestions.py).
4. **Sure or not.** An alternative is searched in the reader's place only when each word it
   changes is a sure correction (`sure`):
   - a slip, at any length: a key next to the typed one, two neighbours swapped, a letter
     dropped, a letter doubled or an extra key next to its neighbour;
   - spelled by sound, from `sound_min_length` letters ("jurny": journey, "exersize": exercise),
     a first vowel heard for another too, the rest as typed ("ascape": escape), and any one vowel
     for another ("suger": sugar, though Double Metaphone says "shugar");
   - any other single edit from `weak_typo_min_length` letters ("opague": opaque, "imgage":
     image), never at the first letter ("xamarin" is no "tamarin");
   - two edits from `two_typos_min_length` letters, not letters added or left out at either end
     ("eleventy", "pygithub": names made on a word), or when both double or undouble a letter
     ("ocassion", "tommorow"), or two slips from `two_slips_min_length` ("minumun": minimum;
     the first two letters may be swapped: "arckett", racket);
   - two neighbouring letters written for one that sounds the same ("swipht": swift, "machros":
     makros), from `sound_min_length` letters;
   - two letters exchanged that are not neighbours, from `exchange_min_length` letters, the first
     letter kept ("vefiry": verify, "espace": escape);
   - a word split in two when each half has `split_min_part` letters ("hotwire": hot wire).
5. **Real words stay.** A word English uses often (wordfreq's Zipf `real_word_min_zipf`:
   "unity", "orchestra") is never corrected; a rarer real word (from `rare_word_min_zipf`:
   "cobol", "kotlin", but also "recieve") only by a slip or by sound, the ways people misspell
   (search/realwords.py). So too when a few posts hold it ("git" is no "get"), and a software
   name ("memray", search/names.py) is a real word. Not a held word
   with its apostrophes left out: "aujourdhui".
6. **Never an empty page by mistake.** When the sure alternatives find nothing, the best other
   correction is searched too if it is `likely`: one edit from `LIKELY_MIN_LENGTH` letters, or
   two slips from `likely_two_slips_min_length` into a word `did_you_mean_min_docs` documents
   hold, not two letters more or less at its end ("fpemat": format; not "blazor" as "blair", one
   post's name, nor "eleventy" as "eleven"), the first letter kept; a word the language could not
   write ("szvze", "halpyy": realwords.spelled_so), unless it starts with a held word ("npmjs"),
   into any held word from 5 letters; no
   real word changed and no unknown word kept. Its results are shown as "Showing results for ...". A real
   word the blog lacks keeps its honest empty page, with "Did you mean ...?". An unfinished last
   word is judged by the start of its completion when that start is a slip of it and the
   completion adds NAME_TAIL letters or fewer.
7. **The words typed, in the likely order.** When a word stays as typed beside words the blog
   holds, those words alone find posts, which "blog enginin" would rank by "blog" alone. The best
   correction that is `hinted` is searched beside them, weighed least: it changes no real word,
   keeps the first letter, and is one edit away, or two from `HINT_FAR_MIN_LENGTH` letters. The
   posts holding the blog engine come first ("Showing results for blog engine"); the others follow.
   A German or French word taken for a form of a held word, that the language does not use, is
   corrected only so ("navigateure firefox"; service._run).
8. **A far guess on an empty page.** When still nothing is found, each word the index lacks of
   `far_guess_min_length` letters or more, no real word and no name made on a word the blog
   holds, is guessed three or more edits away: the word of the blog the typo model scores best,
   at least `far_guess_min_score`, among those starting like it (candidates.far_guesses:
   "behavoueir": behaviour, "traslalate": translate). Every such word or none; shown as step 6's are.
"""

import functools
import re
from dataclasses import dataclass, replace

from search import sounds
from search.alternative import Alternative
from search.querying.typo_model import FIRST_VOWELS, KEY, exchanged, keys_of, osa, osa_alignments, sounds_alike, within_sound_reach
from search.stopwords import is_stop_word
from search.words import key_word, words

# A real word among other words is kept as typed only from this length (sure_rewrite()).
REAL_WORD_IN_CONTEXT = 6


def _adjacent(a: str, b: str, keys: dict = KEY) -> bool:
    ka, kb = keys.get(a), keys.get(b)
    return ka is not None and kb is not None and a != b and abs(ka[0] - kb[0]) <= 1 and abs(ka[1] - kb[1]) <= 1


# The dictionary's own distance (an adjacent swap is one edit): one definition of it.
edits = osa


def _single(word: str) -> str:
    """The word with each run of one letter written once ("occasion" -> "ocasion")."""
    return "".join(ch for i, ch in enumerate(word) if i == 0 or word[i - 1] != ch)


def _one_edit(typed: str, candidate: str, keys: dict = KEY) -> tuple[bool, int]:
    """(whether the one edit from `typed` to `candidate` is strong, where it is)."""
    if len(typed) < len(candidate):  # a letter dropped
        return True, next((i for i, (x, y) in enumerate(zip(typed, candidate, strict=False)) if x != y), len(typed))
    if len(typed) > len(candidate):  # an extra letter: strong when doubled or next to a neighbour's key
        i = next(i for i in range(len(typed)) if typed[:i] + typed[i + 1 :] == candidate)
        near = typed[max(0, i - 1) : i] + typed[i + 1 : i + 2]
        return any(ch == typed[i] or _adjacent(ch, typed[i], keys) for ch in near), i
    i = next(i for i, (x, y) in enumerate(zip(typed, candidate, strict=True)) if x != y)
    swapped = i + 1 < len(typed) and typed[i] == candidate[i + 1] and typed[i + 1] == candidate[i]
    return swapped or _adjacent(typed[i], candidate[i], keys), i


def _slip(typed: str, candidate: str, edit: tuple[str, int, int], keys: dict = KEY) -> bool:
    """Whether one edit of an alignment is a slip: a key next to the right one, two letters
    swapped, a letter dropped, or an extra letter that doubles a neighbour or sits next to its key."""
    kind, i, j = edit
    if kind in ("swap", "drop"):
        return True
    if kind == "sub":
        return _adjacent(typed[i], candidate[j], keys)
    near = typed[max(0, i - 1) : i] + typed[i + 1 : i + 2]
    return any(ch == typed[i] or _adjacent(ch, typed[i], keys) for ch in near)


@functools.lru_cache(maxsize=4096)  # pure, ~0.1 ms; the words of a query being typed come back at every keystroke
def two_slips(typed: str, candidate: str, keyboard: str = "qwerty") -> bool:
    """Whether `candidate` is two edits from `typed`, each a slip ("minumun": minimum, two
    neighbouring keys; "polical": political, two letters dropped), the first letter kept: two
    letters more or less at the start make another word ("pyright" is no "copyright"). The first
    two letters swapped keep it too ("rfageen": fragen, "wssift": swift)."""
    kept = typed[:1] == candidate[:1] or (len(typed) > 1 and typed[1::-1] == candidate[:2])
    return kept and any(len(path) == 2 and all(_slip(typed, candidate, edit, keys_of(keyboard)) for edit in path) for path in osa_alignments(typed, candidate))


def sure(
    typed: str,
    candidate: str,
    *,
    weak_min_length: int,
    two_min_length: int,
    sound_min_length: int = 5,
    two_slips_min_length: int = 7,
    exchange_min_length: int = 5,
    slips_only: bool = False,
    keyboard: str = "qwerty",
    sound_key: str = sounds.DEFAULT,
) -> bool:
    """Whether `candidate` is a sure correction of the word `typed` (module docstring, step 4).
    With `slips_only` (a rare real word: step 5) only a slip or a sound-alike one edit away is
    ("seperate": separate, but "cobol" is no "cabel")."""
    typed, candidate = typed.lower(), candidate.lower()
    n = edits(typed, candidate)
    if n == 0:
        return True
    if slips_only and (candidate == typed + "s" or typed == candidate + "s"):
        return False  # a real word's plural or singular: the stemmed fields find it as typed ("turnip")
    # By sound: one edit, or more within the sound-alikes' reach that do not shorten the word
    # ("jurny": journey, "bisnes": business; but "keras" is no "kris"). A scheme that spells vowels
    # may shorten it ("auteau": auto, in French).
    longer = len(candidate) >= len(typed) or sounds.spells_vowels(sound_key)
    far = n > 1 and not slips_only and longer and within_sound_reach(typed, candidate, scheme=sound_key)
    if (n == 1 or far) and sounds_alike(typed, candidate, min_length=sound_min_length, scheme=sound_key):
        return True
    if n == 2 and not slips_only and _pair_for_letter(typed, candidate) and sounds_alike(typed, candidate, min_length=sound_min_length, scheme=sound_key):
        return True  # two letters written for one that sounds the same ("swipht": swift, "machros": makros)
    if n == 2 and (_ends_apart(typed, candidate) or _starts_apart(typed, candidate)):
        return False  # two letters more or less at an end: another word ("eleventy", "pygithub"), not a typo
    if n == 2 and not slips_only and len(typed) >= two_slips_min_length and two_slips(typed, candidate, keyboard):
        return True  # two slips ("hnalder": handler, "opemess": openness)
    if n == 2 and not slips_only and len(typed) >= exchange_min_length and exchanged(typed, candidate):
        return True  # two letters exchanged, the first kept ("vefiry": verify)
    if n > 1:
        # Two edits from `two_min_length` letters, or at any length when both double or undouble a
        # letter, the misspelling people make most ("ocassion", "tommorow"): a slip, for a rare
        # real word too.
        return n == 2 and ((len(typed) >= two_min_length and not slips_only) or _single(typed) == _single(candidate))
    strong, at = _one_edit(typed, candidate, keys_of(keyboard))
    # A vowel written for another past the first letter, from `sound_min_length`: heard so, even
    # where the sound key tells the words apart ("suger": sugar, which Double Metaphone says "shugar").
    vowel = len(typed) == len(candidate) and len(typed) >= sound_min_length and typed[at] in FIRST_VOWELS and candidate[at] in FIRST_VOWELS
    return strong or (not slips_only and at > 0 and (len(typed) >= weak_min_length or vowel))


# The fewest letters on each side of an apostrophe put back (_apostrophe_left_out).
APOSTROPHE_PART = 3


def _apostrophe_left_out(typed: str, candidate: str) -> bool:
    """Whether `candidate` is `typed` with its apostrophe put back between two parts of three
    letters or more ("aujourdhui": aujourd'hui, "presquile": presqu'île folded). wordfreq counts
    such spellings as words, people write them so often. Not a contraction: "hell" is no "he'll",
    "shed" no "she'd"."""
    parts = re.split("['’]", candidate)
    return len(parts) == 2 and all(len(part) >= APOSTROPHE_PART for part in parts) and "".join(parts) == typed


def _pair_for_letter(typed: str, candidate: str) -> bool:
    """Whether `candidate` is `typed` with two neighbouring letters written as one ("swipht":
    swift, "racchet": racket), as a sound is spelled: a shortening sound-alike of any other shape
    is as often another word ("keras" is no "kris")."""
    return len(typed) == len(candidate) + 1 and any(typed[:i] + candidate[i] + typed[i + 2 :] == candidate for i in range(len(candidate)))


def _ends_apart(typed: str, candidate: str) -> bool:
    """Whether one word is the other with letters added at its end ("eleventy": eleven). Not
    when they repeat its last letter: a key held down ("sommerrr": sommer), no name."""
    return (candidate.startswith(typed) or typed.startswith(candidate)) and _single(typed) != _single(candidate)


def _starts_apart(typed: str, candidate: str) -> bool:
    """Whether one word is the other with letters put before it: a name made on a word
    ("pygithub": github, "nbconvert": convert), which typos seldom make. Not when they repeat
    its start: a stutter ("mememory": memory) or a key held down ("sssommer"), no name."""
    short, long = sorted((typed, candidate), key=len)
    extra = long[: len(long) - len(short)]
    return bool(extra) and long.endswith(short) and not short.startswith(extra) and _single(typed) != _single(candidate)


def _pairs(a: list[str], b: list[str]) -> list[tuple[str, str]] | None:
    """The typed words and what the correction made of each; a word split in two ("hotwire": hot
    wire) pairs with both, space kept. None when they do not pair up (left to the typo model)."""
    if len(a) == len(b):
        return list(zip(a, b, strict=True))
    if len(b) == len(a) + 1:
        for i, word in enumerate(a):
            if word.lower() == (b[i] + b[i + 1]).lower():
                return [*zip(a[:i], b[:i], strict=True), (word, f"{b[i]} {b[i + 1]}"), *zip(a[i + 1 :], b[i + 2 :], strict=True)]
    return None


def _sure_pair(typed: str, corrected: str, *, split_min_part: int, slips_only: bool = False, **limits) -> bool:
    """`limits`: sure()'s."""
    if " " in corrected:  # a split: sure when both halves are words of their own, not a stray "go" or "js"
        return not slips_only and all(len(part) >= split_min_part for part in corrected.split(" "))
    return sure(typed, corrected, slips_only=slips_only, **limits)


def _sure_start(typed: str, corrected: str, **limits) -> bool:
    """Whether an unfinished word's correction is sure: some start of it, one letter shorter to
    one longer than what was typed, is a sure correction of it ("firfo": firefo, so "firefox";
    "firef" starts "firefox"). A reader pressing Enter after "kotlin" has not typed the start of
    "hotlink" (a first letter changed), so the page does not show it in their place."""
    if " " in corrected:
        return _sure_pair(typed, corrected, **limits)
    n = len(typed)
    # As long as what was typed or one letter longer (a letter dropped); shorter only by a doubled
    # letter written once ("spaarkl": sparkl, so "sparkle"), the typo people make most. Never by
    # any other letter, which would read the last typed one as a stray key and complete past it
    # ("cobol": cobo, "cobos").
    if any(_sure_pair(typed, corrected[:k], **limits) for k in range(n, min(len(corrected), n + 1) + 1)):
        return True
    start = corrected[: n - 1]
    return len(start) == n - 1 and any(typed[i] == typed[i - 1] and typed[:i] + typed[i + 1 :] == start for i in range(1, n))


def sure_rewrite(typed: str, corrected: str, *, absent, unfinished: bool, held=None, real=None, rare=None, completion_min_docs: int = 0, **limits) -> bool:
    """Whether every word a correction changes is a sure one. Words the index lacks (`absent(word)`)
    are judged, an unfinished last word by its start (`_sure_start`); a word a few documents hold
    may be changed unless it is a real word (below); words that do not pair up are left to the typo
    model as before. A corrected start completed into a word
    of fewer than `completion_min_docs` documents (`held(word)`) is no sure guess of what the reader
    is typing ("godot": godof, a one-post "godofgrunts"). A real word (`real(word)`, folded as the
    analyzers fold it: search/realwords.py) is neither corrected nor completed: "unity" is not a
    typo of "unit", and "lobster" needs no "lobsters" (the stemmed fields match it as typed). A
    rare real word (`rare(word)`: "cobol") is corrected only by a slip or by sound.
    `limits`: _sure_pair()'s."""
    pairs = _pairs([w for _, _, w in words(typed)], [w for _, _, w in words(corrected)])
    if pairs is None:
        return True
    last = len(pairs) - 1

    def ok(i: int, x: str, y: str) -> bool:
        if x.lower() == y.lower():
            return True
        lacked = absent(x)
        x, y = key_word(x), key_word(y)  # as the analyzers fold them: "extensón" is "extenson"
        # A word the language uses. Alone, or long: a typo that spells another real word is likelier
        # the shorter the word, and the other words of a query (the phrase the correction makes)
        # are the evidence for it ("tae more": take more, "naps history").
        real_here = real is not None and (len(pairs) == 1 or len(x) >= REAL_WORD_IN_CONTEXT) and real(x)
        if not lacked:  # a word a few posts hold: meant as typed when real ("session", not "version")
            started = unfinished and i == last and y.startswith(x)  # "star": start
            if real_here or started:
                return started
            # A rarer real word the blog holds too (rare: Zipf 2 or more, so short common words among
            # others too): only by a slip or by sound ("git" is no "get", "bible study" no "bubble study").
            return rare is None or not rare(x) or _sure_pair(x, y, **{**limits, "slips_only": True})
        if _apostrophe_left_out(x, y):  # a way of typing the word, as accents left out are: "aujourdhui"
            return True
        if real_here:  # which this blog lacks: offered, never put in the reader's place
            return False
        shape = {**limits, "slips_only": rare is not None and rare(x)}
        if _sure_pair(x, y, **shape):  # a sure correction of the word as typed
            return True
        if not (unfinished and i == last) or " " in y:
            return False
        if y.startswith(x):  # a completion of what was typed, but not a real word's plural (sure())
            return not (shape["slips_only"] and y == x + "s")
        # A completion of a corrected start: only into a word enough documents hold, and never for
        # a rare real word, which was typed whole ("cobol" is no start of "cobble").
        return not shape["slips_only"] and _sure_start(x, y, **shape) and (held is None or held(y) >= completion_min_docs)

    return all(ok(i, x, y) for i, (x, y) in enumerate(pairs))


# The shortest word a correction that is not sure may replace when nothing else is found: a
# shorter one is as likely a name the blog lacks ("nuxt") as a typo ("next").
LIKELY_MIN_LENGTH = 5


def likely(typed: str, corrected: str, *, absent, real, rare, unfinished: bool = False, sure_start=None, slipped=None) -> bool:
    """Whether a correction that is not sure is still the likely meaning of a query that finds
    nothing as typed (module docstring, step 6): it changes every word the blog lacks (it keeps
    no unknown word), each into a word one edit away with the same first letter, and none of them
    is a real word (`real` or `rare`) or shorter than LIKELY_MIN_LENGTH. Two edits of any kind are as
    often another name as a typo ("vuejs": views: bench/absent_words.py); two slips are likely
    where `slipped(typed_word, corrected_word)` says so (Judge._slipped: a longer word, into one
    enough posts hold; "blazor" is no "blair"). An
    `unfinished` last word completed by at most NAME_TAIL letters is judged by the start of its
    completion, when that start is a sure slip of it (`sure_start(typed, completed)`: _sure_start):
    "clearahc" is "clearanc" with a neighbouring key, so "clearances", held by one post, fills an
    empty dropdown. Not "podman" as "podmaster": "podmas" is one edit but no slip."""
    pairs = _pairs([w for _, _, w in words(typed)], [w for _, _, w in words(corrected)])
    if pairs is None:
        return False
    same, changed, last = [], [], len(pairs) - 1
    for i, (x, y) in enumerate(pairs):
        if x.lower() == y.lower():
            same.append(x)
            continue
        x, y = key_word(x), key_word(y)
        started = unfinished and i == last and sure_start is not None and 0 < len(y) - len(x) <= NAME_TAIL
        changed.append((x, _nearest_start(x, y) if started and sure_start(x, y) else y))
    return bool(changed) and not any(absent(key_word(x)) for x in same) and _guesses(changed, absent=absent, real=real, rare=rare, slipped=slipped)


def _nearest_start(typed: str, completed: str) -> str:
    """The start of `completed` one edit from `typed`, as long as it or one letter longer
    (_sure_start's lengths), or `completed` itself when none is."""
    n = len(typed)
    return next((completed[:k] for k in range(n, min(len(completed), n + 1) + 1) if edits(typed, completed[:k]) <= 1), completed)


def _same_and_changed(typed: str, corrected: str) -> tuple[list[str], list[tuple[str, str]]] | None:
    """(the typed words a correction keeps, the (typed, corrected) pairs it changes, as the analyzers
    fold them); None when the words do not pair up."""
    pairs = _pairs([w for _, _, w in words(typed)], [w for _, _, w in words(corrected)])
    if pairs is None:
        return None
    return [x for x, y in pairs if x.lower() == y.lower()], [(key_word(x), key_word(y)) for x, y in pairs if x.lower() != y.lower()]


def _guesses(changed: list[tuple[str, str]], *, absent, real, rare, far_from: int = 0, slipped=None) -> bool:
    """Whether each changed word is a guess a correction may make though it is not sure: a word the
    blog lacks, no real word, of LIKELY_MIN_LENGTH letters or more, into one word with the same
    first letter, one edit away (two from `far_from` letters; 0: never; or two slips: `slipped(x, y)`)."""

    def near(x: str, y: str) -> bool:
        return edits(x, y) <= (2 if far_from and len(x) >= far_from else 1) or (slipped is not None and slipped(x, y))

    return all(absent(x) and " " not in y and len(x) >= LIKELY_MIN_LENGTH and x[:1] == y[:1] and near(x, y) and not real(x) and not rare(x) for x, y in changed)


# A word two edits from the hinted correction has at least this many letters ("phyton": python).
HINT_FAR_MIN_LENGTH = 6


def hinted(typed: str, corrected: str, *, absent, real, rare) -> bool:
    """Whether a correction that is not sure may still order the posts the typed words find
    (module docstring, step 7): it keeps a word the blog holds, and changes every word the blog
    lacks into a word one edit away (two from HINT_FAR_MIN_LENGTH letters), the first letter
    kept, none of them a real word or shorter than LIKELY_MIN_LENGTH."""
    split = _same_and_changed(typed, corrected)
    if split is None:
        return False
    same, changed = split
    if not changed or any(absent(key_word(x)) for x in same) or all(is_stop_word(x) for x in same):
        return False
    return _guesses(changed, absent=absent, real=real, rare=rare, far_from=HINT_FAR_MIN_LENGTH)


@dataclass(frozen=True)
class Judge:
    """What the decision needs to know about words, from the process's dictionary and the
    real-word list (search/querying/service.py makes one per query), and the settings' limits."""

    absent: object  # word -> whether the blog's dictionary lacks it
    held: object  # word -> how many documents hold it (None: no dictionary)
    real: object  # word -> whether English uses it too often to be a typo
    rare: object  # word -> whether it is a rarer real word (corrected by slips and sound only)
    ranking: object  # search.conf.RankingSettings
    spelled: object = None  # word -> whether the language writes its letters so (realwords.spelled_so)

    def _limits(self) -> dict:
        """sure()'s limits, from the settings."""
        r = self.ranking
        return {
            "weak_min_length": r.weak_typo_min_length,
            "two_min_length": r.two_typos_min_length,
            "sound_min_length": r.sound_min_length,
            "two_slips_min_length": r.two_slips_min_length,
            "exchange_min_length": r.exchange_min_length,
            "keyboard": r.typo_costs.keyboard,
            "sound_key": r.typo_costs.sound_key,
            "split_min_part": r.split_min_part,
        }

    def sure(self, typed: str, corrected: str, *, completing: bool) -> bool:
        return sure_rewrite(
            typed,
            corrected,
            absent=self.absent,
            held=self.held,
            real=self.real,
            rare=self.rare,
            completion_min_docs=self.ranking.corrected_completion_min_docs,
            unfinished=completing,
            **self._limits(),
        )

    def likely(self, typed: str, corrected: str, *, completing: bool = False) -> bool:
        limits = self._limits()
        sure_start = (lambda x, y: _sure_start(x, y, slips_only=True, **limits)) if completing else None  # noqa: E731
        judged = {"absent": self.absent, "real": self.real, "rare": self.rare}
        return likely(typed, corrected, **judged, unfinished=completing, sure_start=sure_start, slipped=self._slipped)

    def _slipped(self, typed: str, corrected: str) -> bool:
        """Whether a word two edits from `typed` is still its likely meaning on an empty page: both
        are slips ("fpemat": format), `typed` has `likely_two_slips_min_length` letters or more, and
        `did_you_mean_min_docs` documents hold the word, as a guess that far needs ("blazor" is no
        "blair", which one post names). A word the language could not write (`spelled`: "szvze",
        "halpyy") is a typo, no name: from LIKELY_MIN_LENGTH letters, into a word one post holds;
        not one that starts with a word the blog holds ("npmjs").
        Not two letters more or less at the end: a name made on a word ("eleventy", "heroku"), as
        sure() says. Never without the dictionary's counts."""
        r = self.ranking
        if not r.likely_two_slips_min_length or self.held is None or _ends_apart(typed, corrected) or not two_slips(typed, corrected, r.typo_costs.keyboard):
            return False
        if len(typed) >= r.likely_two_slips_min_length and self.held(corrected) >= r.did_you_mean_min_docs:
            return True
        if self.spelled is None or self.spelled(typed):
            return False
        # A name made of a held word and more is spelled so at its join only ("npmjs": npm js).
        return not any(self.held(typed[:k]) >= r.known_word_min_docs for k in range(3, len(typed) - 1))

    def hinted(self, typed: str, corrected: str) -> bool:
        return hinted(typed, corrected, absent=self.absent, real=self.real, rare=self.rare)

    def finds_enough(self, typed: str, corrected: str) -> bool:
        """Whether a correction of the word `typed` is worth offering for what it finds: a real word
        the blog lacks (`rare` or `real`: kotlin, lettuce) was likely meant as typed, so its correction
        must be held by `ranking.did_you_mean_min_docs` documents, each word of a split too; any other
        word is a typo, whose correction one post is enough for ("althete": athlete). Without a
        dictionary nothing is counted and every correction passes. The counts are looked at first:
        they cost a microsecond, the real-word list some ten."""
        if self.held is None or all(self.held(word) >= self.ranking.did_you_mean_min_docs for word in corrected.split()):
            return True
        return not any(test is not None and test(typed) for test in (self.rare, self.real))


def sure_only(alts: list[Alternative], judge: Judge, *, completing: bool) -> tuple[list[Alternative], list[Alternative]]:
    """(the alternatives searched: what was typed and the sure corrections, the others best first)."""
    typed, kept, dropped = alts[0].text, alts[:1], []
    for alt in alts[1:]:
        (kept if judge.sure(typed, alt.text, completing=completing) else dropped).append(alt)
    return kept, dropped


def offered(kept: list[Alternative], dropped: list[Alternative], judge: Judge) -> str:
    """The "Did you mean ...?" of a query: the best correction not searched, only when none is, and
    only one that changes every word the blog lacks and keeps each word's first letter: "qzxvbnm
    plotkit" keeps the gibberish, "hotlink" is no guess at "kotlin" (issue 54). Never one that
    makes a word a stop word: "wis" is offered no "was", nor the worse guess after it. When that
    one finds almost nothing (Judge.finds_enough: "lattice", 1 post, for "lettuce") nothing is offered: the
    next is a worse guess still ("lecture")."""
    if not dropped or len(kept) != 1:
        return ""
    typed = kept[0].text
    for alt in dropped:
        split = _same_and_changed(typed, alt.text)
        if split is None:
            return alt.text  # left to the typo model, as before
        same, changed = split
        if any(is_stop_word(w) for _, y in changed for w in y.split()):
            return ""  # "wis": "was" searches nothing the reader could mean; the next is a worse guess ("teh": ten)
        if not any(judge.absent(key_word(x)) for x in same) and all(x[:1] == y[:1] for x, y in changed):
            return alt.text if all(judge.finds_enough(x, y) for x, y in changed) else ""
    return ""


def fallback(alts: list[Alternative], dropped: list[Alternative], judge: Judge, *, completing: bool = False) -> list[Alternative]:
    """The alternatives to search when the sure ones found nothing (step 6): what was typed and the
    best likely correction; empty when none is likely. `completing`: the last word is unfinished."""
    best = next((alt for alt in dropped if judge.likely(alts[0].text, alt.text, completing=completing)), None)
    return [alts[0], best] if best is not None else []


# A far guess leaves alone a word that is a word the blog holds with this many letters or fewer
# added: a name made on it ("observablehq", "djangocon"), not a typo.
NAME_TAIL = 3


def far_guess(alts: list[Alternative], guesses, judge: Judge, *, unknown: list[int]) -> list[Alternative]:
    """What was typed (`alts[0]`) and its far guess (step 8), or empty. Every word the blog lacks
    (folded as indexed) must be one of the `unknown` ones the service may correct (not quoted, no
    number, no real word) and is replaced by its best guess (`guesses(word)`: [(score, word)], best
    first). Each must be long enough, no real word, no name made on a word the blog holds
    (NAME_TAIL) and guessed well enough; one that is not keeps the page empty. Scored as its
    worst word."""
    typed, r = alts[0].text, judge.ranking
    lacked = [(i, span) for i, span in enumerate(words(typed)) if judge.absent(key_word(span[2]))]
    if not r.far_guess_min_length or not lacked or any(i not in unknown for i, _ in lacked):
        return []
    text, scores = typed, []
    for _, (start, end, word) in reversed(lacked):
        x = key_word(word)
        if len(x) < r.far_guess_min_length or judge.real(x) or judge.rare(x) or _named_after(x, judge):
            return []
        best = next(iter(guesses(x)), None)
        if best is None or best[0] < r.far_guess_min_score:
            return []
        text, scores = text[:start] + best[1] + text[end:], [*scores, best[0]]
    return [alts[0], Alternative(min(scores), text)]


def _named_after(word: str, judge: Judge) -> bool:
    """Whether `word` is a word the blog holds, of LIKELY_MIN_LENGTH letters or more, with at most
    NAME_TAIL letters added at its end ("observablehq": observable)."""
    held, least = judge.held, judge.ranking.known_word_min_docs
    starts = range(max(LIKELY_MIN_LENGTH, len(word) - NAME_TAIL), len(word))
    return held is not None and any(held(word[:k]) >= least for k in starts)


def changing(alts: list[Alternative], typed: str, indices) -> tuple[list[Alternative], list[Alternative]]:
    """(the alternatives that keep the typed words at `indices`, those that change one of them);
    one whose words do not pair up with what was typed changes them."""
    if not indices:
        return alts, []
    keep, change = [], []
    for alt in alts:
        pairs = _pairs([w for _, _, w in words(typed)], [w for _, _, w in words(alt.text)])
        same = pairs is not None and all(pairs[i][0].lower() == pairs[i][1].lower() for i in indices if i < len(pairs))
        (keep if same else change).append(alt)
    return keep, change


def hint(kept: list[Alternative], dropped: list[Alternative], judge: Judge) -> Alternative | None:
    """The correction searched beside what was typed, weighed least (step 7): the best hinted one,
    only while no sure correction is searched (then "Did you mean" offers one)."""
    if len(kept) != 1:
        return None
    best = next((alt for alt in dropped if judge.hinted(kept[0].text, alt.text)), None)
    return None if best is None else replace(best, hint=True)
