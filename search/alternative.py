"""One spelling alternative of a reader's whole query: the value the read path passes around.

The suggestions make them (search/querying/suggestions.py), the query ranks documents by them
(search/querying/query.py), the result cache stores them and the debug table shows them. What
the reader typed is always the first, with `typed` set and the fixed TYPED_SCORE. A rewrite by
one of the blog's synonym rules (search/querying/expand.py) names the alternative it rewrote in
`synonym_of`: it is not a correction, so "Showing results for" never names it.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Alternative:
    score: float
    text: str
    typed: bool = False
    synonym_of: str = ""
