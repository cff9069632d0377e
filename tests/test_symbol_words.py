"""Words written with symbols ("c#", "c++", "f#", ".net": search/symbols.py), indexed and searched
as themselves. The patterns and splits as plain values, then the search with the real services:
each finds its own posts first, "c" still finds the C posts, highlighting marks the word whole,
phrases, exclusions and the instant box honour them, and none is ever "corrected"."""

import re

import pytest
from django.urls import reverse

from search import symbols
from search.querying.service import search
from search.words import plain_words, words
from tests.factories import make_post

API = reverse("search:api")
SHIPPED = ("c#", "c++", "f#", ".net")


@pytest.mark.parametrize(
    ("word", "token"),
    [("c#", "csharp"), ("C++", "cplusplus"), ("F#", "fsharp"), (".NET", "dotnet"), ("j#", "jsharp")],
)
def test_a_symbol_word_is_written_as_one_plain_token(word, token):
    assert symbols.token(word) == token


@pytest.mark.parametrize(
    ("text", "indexed"),
    [
        ("One-page C# intro", "One-page csharp intro"),
        ("C++ and c#, then .NET core", "cplusplus and csharp, then dotnet core"),
        ("ASP.NET and abc# and libc++ and c++11", "ASP.NET and abc# and libc++ and c++11"),  # not whole words
        ("(c#) c#'s C#-based", "(csharp) csharp's csharp-based"),
        ("c", "c"),
    ],
)
def test_only_whole_words_are_rewritten_any_case(text, indexed):
    assert symbols.indexed(text, SHIPPED) == indexed


def test_the_character_filters_are_the_same_patterns_longest_first():
    filters = symbols.char_filters(("c#", "c++", "C#"))
    assert [f["name"] for f in filters] == ["symbol_cplusplus", "symbol_csharp"]
    assert all(f["type"] == "pattern_replace" and f["flags"] == "CASE_INSENSITIVE" for f in filters)
    assert re.fullmatch(filters[0]["pattern"], "c++") and not re.search(filters[0]["pattern"], "libc++")


@pytest.mark.parametrize("word", ["", "c #", "csharp", "#", "é#", "c$", "net."])
def test_a_word_that_cannot_be_one_token_is_refused(word):
    assert symbols.problem(word)


def test_the_readers_words_keep_a_symbol_word_whole():
    assert [w for _, _, w in words("c# and .net core")] == ["c#", "and", ".net", "core"]
    assert [w for _, _, w in words("asp.net")] == ["asp", "net"]  # a dot inside a word still splits
    assert plain_words("c++ tips for c#") == ["c++", "tips", "for", "c#"]


# With the real services.


@pytest.fixture
def blog(build_index):
    posts = {
        "csharp": make_post("One-page C# intro", "Classes and LINQ in a page."),
        "cpp": make_post("Interactive Workflows for C++ with Jupyter", "Notebooks for compiled code."),
        "c": make_post("10 Uses for Blocks in C/Objective-C", "Blocks are closures in C."),
        "dotnet": make_post("Hosting .NET services", "Kestrel behind a proxy."),
        "asp": make_post("ASP.NET routing", "Controllers and routes."),
        "fsharp": make_post("Type providers in F#", "Data access with F# and C# side by side."),
    }
    for i in range(3):
        make_post(f"Pointers in C, part {i}", "Memory in C is yours to manage.")
    build_index()
    return posts


def ranked(query: str, **kwargs) -> list[int]:
    return [h.post_id for h in search(query, use_cache=False, **kwargs).hits]


@pytest.mark.django_db
def test_each_symbol_word_finds_its_own_posts_first(blog):
    assert ranked("c#")[:2] == [blog["csharp"].pk, blog["fsharp"].pk]  # the title, then the body
    assert ranked("c++") == [blog["cpp"].pk]
    assert ranked("f#")[0] == blog["fsharp"].pk and blog["csharp"].pk not in ranked("f#")
    assert ranked(".net") == [blog["dotnet"].pk]
    assert ranked("C# intro")[0] == blog["csharp"].pk
    assert ranked("c++ jupyter")[0] == blog["cpp"].pk


@pytest.mark.django_db
def test_c_alone_still_finds_the_c_posts_and_not_the_others(blog):
    c_posts = {blog["c"].pk, *(p.pk for p in type(blog["c"]).objects.filter(title__startswith="Pointers"))}
    found = ranked("c ")  # a finished word: "c" only
    assert set(found) == c_posts
    # Unfinished, "c" may be the start of a longer word ("csharp" too), ranked below the word itself.
    found = ranked("c")
    assert set(found[: len(c_posts)]) == c_posts


@pytest.mark.django_db
def test_asp_net_is_still_two_words(blog):
    assert ranked("asp.net")[0] == blog["asp"].pk
    assert ranked("asp net")[0] == blog["asp"].pk


@pytest.mark.django_db
def test_the_word_is_highlighted_whole_and_never_corrected(blog):
    result = search("c#", use_cache=False)
    assert result.hits[0].title_html == "One-page <mark>C#</mark> intro"
    assert result.showing_for == ""
    assert search("f#", use_cache=False).showing_for == ""
    corrected = search("pointrs c#", use_cache=False).showing_for
    assert corrected in ("", "pointers c#")  # another word may be corrected; c# stays as typed
    nothing = search("j# tips", use_cache=False)
    assert "jsharp" not in str(nothing.requests)  # not a symbol word: no token of its own


@pytest.mark.django_db
def test_phrases_exclusions_and_the_instant_box_honour_them(client, blog):
    data = client.get(API, {"q": '"c# intro"'}).json()
    assert [r["post_id"] for r in data["results"]] == [blog["csharp"].pk]
    data = client.get(API, {"q": "type providers -c#"}).json()
    assert blog["fsharp"].pk not in [r["post_id"] for r in data["results"]]  # its body holds "C#"
    data = client.get(API, {"q": "blocks -c++"}).json()
    assert [r["post_id"] for r in data["results"]][0] == blog["c"].pk
    # As the instant box asks: the last word unfinished, titles only.
    data = client.get(API, {"q": "c#", "snippets": 0}).json()
    assert data["results"][0]["post_id"] == blog["csharp"].pk
    data = client.get(API, {"q": "interactive c++", "snippets": 0}).json()
    assert data["results"][0]["post_id"] == blog["cpp"].pk
