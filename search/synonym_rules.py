"""The grammar of the blog's synonym rules: what a rule may say and what it means (pure, no I/O).

Apart from their copy in Elasticsearch and their loading in each process (search/synonyms.py):
the admin's validation (search.models.SynonymRule.clean), the query's expansion
(search/querying/expand.py) and the copy all read a rule through `parse`, and none of them needs
the others' I/O to do it. A rule's words are split and keyed as the exact analyzer keeps them
(search/words.py), so that what a rule names is what Elasticsearch's synonym filter will see.
"""

from dataclasses import dataclass

from search import conf, symbols
from search.stopwords import is_stop_word
from search.words import key_word, rule_words

MAX_WORDS = 4  # per side: a rule names a term, not a sentence


@dataclass(frozen=True)
class Rule:
    """`sides`: each a tuple of lowercase words. Equivalent rules map any side to every other; an
    explicit (`=>`) rule maps its left sides to its one right side only."""

    sides: tuple[tuple[str, ...], ...]
    explicit: bool = False

    @property
    def text(self) -> str:
        words = [" ".join(side) for side in self.sides]
        return f"{', '.join(words[:-1])} => {words[-1]}" if self.explicit else ", ".join(words)

    def targets(self, side: tuple[str, ...]) -> list[tuple[str, ...]]:
        """What `side` may be rewritten to."""
        if self.explicit:
            return [self.sides[-1]] if side in self.sides[:-1] else []
        return [other for other in self.sides if other != side] if side in self.sides else []


def _side(text: str) -> tuple[str, ...]:
    words = tuple(w.lower() for w in rule_words(text))
    if not text.strip():  # "js, , javascript", "=> kubernetes": a reader must see which part is missing
        raise ValueError("a term is empty: write one or more words between the commas and on each side of =>")
    if not words:
        raise ValueError(f"{text.strip()!r} holds no word (letters or digits)")
    # The stemmed fields drop stop words before the rules apply (a stop filter after a synonym
    # graph breaks the graph), and Elasticsearch then skips a side that held one: refused here.
    stop = [w for w in words if is_stop_word(key_word(w))]  # "what's": the possessive filter runs first
    if stop:
        raise ValueError(f"{text.strip()!r} holds the stop word {stop[0]!r}, which the search ignores: a term may not hold one")
    # The analyzers read "c#" as the word "c" unless it is a configured symbol word (search/symbols.py):
    # a rule naming another would rewrite every "c". A symbol word is searched as itself, and
    # whether Elasticsearch's rule parser applies the character filters that make it one token is
    # not something a rule should depend on: refused too.
    symbol = next((w for w in words if "+" in w or "#" in w), None)
    if symbol and symbols.is_symbol_word(symbol, conf.get().index.symbol_words):
        raise ValueError(f"{symbol!r} is searched as itself (SYMBOL_WORDS), so a rule cannot name it")
    if symbol:
        raise ValueError(f"{symbol!r}: the search reads a word without + or # ({symbol.rstrip('+#')!r}), so a rule cannot name it")
    if len(words) > MAX_WORDS:
        raise ValueError(f"{text.strip()!r}: at most {MAX_WORDS} words a side")
    return words


def parse(text: str) -> Rule:
    """A rule from its text (`a, b, c` or `a, b => c`); ValueError says what is wrong."""
    if text.count("=>") > 1:
        raise ValueError("one => at most")
    left, arrow, right = text.partition("=>")
    sides = list(dict.fromkeys(_side(part) for part in left.split(",") if part.strip()))
    if arrow:
        if "," in right:
            raise ValueError("one term after =>")
        target = _side(right)
        sides = [side for side in sides if side != target]  # "k8s, kubernetes => kubernetes": k8s => kubernetes
        if not sides:
            raise ValueError("nothing before => but the term after it")
        sides.append(target)
    if len(sides) < 2:
        raise ValueError("a rule needs two different terms, separated by a comma or =>")
    return Rule(sides=tuple(sides), explicit=bool(arrow))
