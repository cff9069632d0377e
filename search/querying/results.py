"""What a reader sees of a hit: the result types of the read wing and how a raw hit becomes one.

They live in the read wing (the write wing never builds a result); search/documents.py owns only
what is indexed, and RESULT_FIELDS, the one list of what `_source` a result needs."""

from dataclasses import dataclass
from datetime import date

from search.documents import Kind


@dataclass
class CommentMatch:
    """A matching comment shown inside its post's entry."""

    id: int
    author: str
    url: str  # the post's page, at the comment's anchor
    snippet_html: str  # highlighted, HTML-escaped by Elasticsearch


@dataclass
class Hit:
    """One result: a document (result_of), or one entry per post (search/querying/reader.py:
    type "post", `matched` saying whether the post itself or one of its comments put it there)."""

    type: str  # "post" | "comment"
    id: int
    post_id: int
    title: str
    url: str
    score: float
    title_html: str  # highlighted, HTML-escaped by Elasticsearch
    snippet_html: str  # highlighted, HTML-escaped by Elasticsearch
    pub_date: str = ""
    author: str = ""
    tier: str = ""  # the best tier of the query it reached (search/querying/query.py), for the debug table
    matched: str = "post"  # an entry: what put it at its rank, the post or one of its comments
    comments: tuple[CommentMatch, ...] = ()  # an entry: its best matching comments
    more_comments: int = 0  # an entry: how many more of its comments match
    spelling: str = ""  # found only through another spelling than the one the page stands for: that spelling
    post_url: str = ""  # a comment: its post's own URL (the declaration's url()), which an entry it leads links

    @property
    def published(self) -> date | None:
        """The publication day, so that every page writes dates one way (pub_date is ISO 8601 text)."""
        try:
            return date.fromisoformat(self.pub_date[:10])
        except ValueError:
            return None


MARK = "<mark>"


def result_of(raw: dict) -> Hit:
    """A hit of either document type as the result a reader sees, from RESULT_FIELDS only. A post
    whose title and text hold none of the words was found by its comments' text, which its
    document holds: it says so (`matched`), and its snippet is theirs."""
    src, hl = raw["_source"], raw.get("highlight", {})
    is_comment = src.get("doc_type") == Kind.COMMENTS.entry
    title_html, text, comment = (hl.get("title") or [""])[0], (hl.get("text") or [""])[0], (hl.get("comment") or [""])[0]
    by_comments = not is_comment and MARK in comment and MARK not in text and MARK not in title_html
    return Hit(
        type=Kind.COMMENTS.entry if is_comment else Kind.POSTS.entry,
        id=int(src["comment_id"] if is_comment else src["post_id"]),
        post_id=int(src["post_id"]),
        title=src.get("post_title" if is_comment else "title", ""),
        url=src.get("url", ""),
        score=round(float(raw.get("_score") or 0.0), 4),
        title_html="" if is_comment else title_html,
        snippet_html=comment if is_comment or by_comments else (text or comment),
        matched=Kind.COMMENTS.entry if by_comments else Kind.POSTS.entry,
        pub_date=src.get("pub_date", ""),
        author=src.get("author", ""),
        post_url=src.get("post_url", "") if is_comment else "",
    )
