"""Turning stored HTML and Markdown into what pages and the index need.

Post bodies are the blog author's own HTML and are shown as written. Comments are written by
readers, so their HTML is always passed through a safelist sanitizer before it is stored.
"""

import html
import re

import markdown
import nh3
from django.utils.html import strip_tags

_BLOCK_END = re.compile(r"</(p|div|li|h[1-6]|pre|blockquote|tr|table|ul|ol)>|<br\s*/?>", re.IGNORECASE)
_SPACES = re.compile(r"[ \t\r\f\v]+")
_BLANK_LINES = re.compile(r"\n\s*\n+")

COMMENT_TAGS = {"p", "br", "a", "em", "strong", "code", "pre", "blockquote", "ul", "ol", "li", "img"}
COMMENT_ATTRIBUTES = {"a": {"href", "title"}, "img": {"src", "alt", "title"}}


def html_to_text(body_html: str) -> str:
    """Plain text of an HTML body: tags dropped, entities decoded, a newline between blocks."""
    marked = _BLOCK_END.sub(lambda m: m.group(0) + "\n", body_html or "")
    text = html.unescape(strip_tags(marked))
    lines = (_SPACES.sub(" ", line).strip() for line in text.split("\n"))
    return _BLANK_LINES.sub("\n", "\n".join(line for line in lines if line)).strip()


def summarize(text: str, *, length: int = 240) -> str:
    """The first `length` characters of a text, cut at a word boundary."""
    flat = " ".join((text or "").split())
    if len(flat) <= length:
        return flat
    cut = flat[:length].rsplit(" ", 1)[0]
    return cut.rstrip(",.;:") + "…"


def sanitize_comment_html(raw_html: str) -> str:
    """Reader-written HTML reduced to a small safelist; links get rel=nofollow."""
    return nh3.clean(raw_html or "", tags=COMMENT_TAGS, attributes=COMMENT_ATTRIBUTES, link_rel="nofollow noopener")


def render_comment(markdown_text: str) -> str:
    """A reader's Markdown comment as safe HTML."""
    return sanitize_comment_html(markdown.markdown(markdown_text or ""))
