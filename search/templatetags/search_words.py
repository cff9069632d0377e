"""The site's own nouns in the search templates: `{% load search_words %}{% search_words as words %}`,
then `{{ words.entries }}` (search/conf.py SiteWords, the `WORDS` setting). A tag rather than a
context processor: the box is included by the site's own pages, whose views search never sees."""

from django import template

from search import conf

register = template.Library()


@register.simple_tag
def search_words():
    return conf.get().serving.words


@register.simple_tag
def count_of(count, one: str, many: str) -> str:
    """The noun that goes with `count`: `{% count_of hit.more_comments words.reply words.replies %}`."""
    return one if count == 1 else many
