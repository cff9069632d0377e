"""One spelling alternative of a reader's whole query: the value the read path passes around.

The suggestions make them (search/querying/suggestions.py), the query ranks documents by them
(search/querying/query.py), the result cache stores them and the debug table shows them. What
the reader typed is always the first, with `typed` set and the fixed TYPED_SCORE.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Alternative:
    score: float
    text: str
    typed: bool = False
