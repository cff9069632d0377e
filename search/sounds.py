"""How a word sounds: its sound key in the blog's language's scheme (pure).

People spell by sound ("exersize", "jurny", "bisnes"; French "otres", "alphred"): a misspelling
sounds like the word meant, however many letters differ. Two schemes (TypoCosts.sound_key):

- `double_metaphone` (Lawrence Philips, 2000), for English: a word's consonant sounds, English
  spelling rules included ("design" and "dezine" are both TSN, where the original Metaphone drops
  the silent "gn" and keys "design" TS). The `doublemetaphone` package wraps the reference C++
  code. Only the primary key is used: one key a word keeps the dictionary's index small
  (search/soundalikes.py).
- `phonetic_fr`, for French: Édouard Bergé's "Phonetic" (SOUNDEX FR, 2007), ported by the
  `phonetic-fr` package. It writes a word as it is said, vowels included: "autres" and "otres"
  are both OTR, "alfred" and "alphred" both ALFR, but "moyen" is no "mayen".
- `cologne`, for German: the Kölner Phonetik (Hans Joachim Postel, 1969), by the
  `cologne-phonetics` package. A digit per sound, vowels one digit at the start only: "swipht"
  and "swift" are both 8332, "dest" and "test" both 282. The
  key's first digit is the word's first sound, so "d" and "t" start alike (`first_sound`).

A key that spells the vowels too may be shorter than the typed word ("auteau": auto): its letters
tell the same sounds, not merely the same consonants (`spells_vowels`).
"""

import cologne_phonetics
from doublemetaphone import doublemetaphone
from phonetic_fr import phonetic

SCHEMES = ("double_metaphone", "phonetic_fr", "cologne")
DEFAULT = "double_metaphone"


def key(word: str, scheme: str = DEFAULT) -> str:
    """The word's sound key in `scheme`; empty for a word of other than letters (and, for Double
    Metaphone, other than ASCII ones)."""
    if not word.isalpha():
        return ""
    if scheme == "phonetic_fr":
        return phonetic(word.lower())  # ~0.2 ms a word: typo_model.sound_key caches
    if scheme == "cologne":
        return cologne_phonetics.encode(word)[0][1]
    return doublemetaphone(word)[0] if word.isascii() else ""


def spells_vowels(scheme: str) -> bool:
    """Whether the scheme's keys spell vowels too (then a sound-alike may shorten the word)."""
    return scheme == "phonetic_fr"


def first_sound(scheme: str) -> bool:
    """Whether the scheme's key begins with the word's first sound, so two words whose keys are
    equal start alike whatever their first letters ("otres": autres; "dail": tail)."""
    return scheme in ("phonetic_fr", "cologne")
