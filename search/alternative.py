"""One spelling alternative of a reader's whole query: the value the read path passes around.

The suggestions make them (search/querying/suggestions.py), the query ranks documents by them
(search/querying/query.py), the result cache stores them and the debug table shows them. What
the reader typed is always the first, with `typed` set and the fixed TYPED_SCORE. A synonym
alternative (search/querying/expand.py) is another alternative searched again with the blog's
synonym rules applied by Elasticsearch: its `text` is that alternative's, `synonym_of` names it
(it is not a correction, so "Showing results for" never names it) and `rewrites` says what the
rules make of it, for the debug table and the API (`label`). A `hint` orders the posts the
typed words find and finds none of its own (search/querying/corrections.py, step 7). A
`started` alternative's last word completes a corrected start of the typed one ("triubl": troubl,
so "trouble"): the search completes it again, as it completes what was typed. A `form_of`
alternative is what was typed with a word in the form the blog holds of it, one its stemmer keeps
apart ("sommers": sommer; plan.form_alternatives): counted as the typed spelling like a synonym,
but analysed like any spelling and never listed as a synonym.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Alternative:
    score: float
    text: str
    typed: bool = False
    synonym_of: str = ""
    rewrites: tuple[str, ...] = ()
    hint: bool = False
    started: bool = False
    form_of: str = ""

    @property
    def label(self) -> str:
        """What a reader is shown: the text, or for a synonym alternative what the rules make of it."""
        return " / ".join(self.rewrites) if self.synonym_of and self.rewrites else self.text
