"""The site's own nouns in the search templates: `{% load search_words %}{% search_words as words %}`,
then `{{ words.entries }}` (search/conf.py SiteWords, the `WORDS` setting). A tag rather than a
context processor: the box is included by the site's own pages, whose views search never sees.

A noun the site leaves at its default is the default in the page's language (search/locale/):
a German blog that sets no WORDS says "Beiträge", not "posts"."""

import json
from dataclasses import fields
from datetime import date

from django import template
from django.utils import dateformat, translation
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext, pgettext

from search import conf
from search.conf import SiteWords

register = template.Library()

_DEFAULTS = SiteWords()


def _default_words() -> dict:
    """The default nouns in the active language (replies_anchor is a URL's anchor: never translated)."""
    return {
        "entry": pgettext("site word: one result", "post"),
        "entries": pgettext("site word: results", "posts"),
        "reply": pgettext("site word: one reply", "comment"),
        "replies": pgettext("site word: replies", "comments"),
        "site": pgettext("site word: the site", "blog"),
    }


def _translated(words: SiteWords) -> dict:
    """The site's nouns, those it left at their defaults in the active language."""
    defaults = _default_words()
    own = {f.name: getattr(words, f.name) for f in fields(SiteWords)}
    return {name: defaults[name] if name in defaults and value == getattr(_DEFAULTS, name) else value for name, value in own.items()}


@register.simple_tag
def search_words():
    return _translated(conf.get().serving.words)


@register.simple_tag
def count_of(count, one: str, many: str) -> str:
    """The noun that goes with `count`: `{% count_of hit.more_comments words.reply words.replies %}`."""
    return one if count == 1 else many


@register.simple_tag
def instant_texts() -> str:
    """The box's `data-texts` attribute: the instant results' words in the active language that
    differ from the script's English defaults (its TEXTS: each a template with {named} places),
    as JSON, escaped as any attribute value. An English page sends none."""
    with translation.override("en"):
        english = _instant_texts()
    texts = {key: value for key, value in _instant_texts().items() if value != english[key]}
    return format_html(' data-texts="{}"', json.dumps(texts, ensure_ascii=False)) if texts else ""


# Django's date letters that name a month in words (its `date` filter).
MONTH_LETTERS = "MNbEF"


def _instant_texts() -> dict:
    # The script writes j, M and Y: the month as the language's format names it ("N" in French:
    # "juil.", where "M" gives "Jul" and "Jui" for June), under the letter M.
    written = gettext("j M Y")
    month = next((letter for letter in written if letter in MONTH_LETTERS), "M")
    texts = {
        "months": [dateformat.format(date(2000, m, 1), month) for m in range(1, 13)],
        "date": written.replace(month, "M"),
        "reply_by": gettext("{reply} by {author} on "),
        "reply_on": gettext("{reply} on "),
        "found_as": gettext("found as “{spelling}”"),
        "in_reply": gettext("a {reply}"),
        "in_text": gettext("the text"),
        "together": gettext("the words together in {where}"),
        "every_word": gettext("every word, in the title or {where}"),
        "some_words": gettext("some of the words, in {where}"),
        "result_one": ngettext("{n} result", "{n} results", 1),
        "result_other": ngettext("{n} result", "{n} results", 2),
        "result_more": gettext("{n}+ results"),
        # French says "0 résultat": the language's plural rule, asked of its own catalogue.
        "zero_is_one": ngettext("{n} result", "{n} results", 0) == ngettext("{n} result", "{n} results", 1),
        "see_all": gettext("See all {count}"),
        "see_all_results": gettext("See all results"),
        "did_you_mean": gettext("Did you mean {suggestion}?"),
        "showing_for": gettext("Showing results for {shown}"),
        "no_results": gettext("No results for {query}"),
        "shown": gettext("{n} shown"),
        "arrows": gettext("Use the up and down arrow keys to choose one"),
        "arrow_down": gettext("Use the down arrow key to choose it"),
    }
    return texts
