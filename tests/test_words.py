"""search/words.py against Elasticsearch's own analysis: each way of splitting a text into words,
on tricky inputs, compared with `_analyze` by the `exact_text` analyzer of a live test index.

Where a split differs from the analyzer, the difference is written out below with why it is there
(deliberate) or what it costs (a known gap, kept as it was: this module only gathered the
patterns, it changed no behaviour).
"""

import pytest

from search.aliases import alias_name
from search.words import key_spans, key_word, one_joined_token, tokens, words

TRICKY = [
    # Letters asciifolding writes as others that NFKD leaves alone (a French "cœur" is "coeur").
    "Cœur Æther Straße Łódź Øre",
    "node.js",
    "Node.JS tips",
    "C++",
    "C#",
    "f#",
    ".NET core",
    "ASP.NET",
    "libc++",
    "(c#)",
    "e-mail",
    "E-Mail",
    "Kirby's",
    "Kirby\u2019s",  # a typographic apostrophe
    "O'Reilly's",
    "3.14",
    "v1.2.3",
    "10:30",
    "2,000",
    "café",
    "Naïve résumé",
    "über-cool",
    "l'été",
    "Straße",
    "node\uff0ejs",  # a full-width dot
    "Wikipedia\uff1aCanvassing",  # a full-width colon
    "wikipedia:canvassing",
    "e.g.",
    "U.S.A.",
    "well-known",
    "self-hosting",
    "jean-luc's",
    "co-op's",
    "ab--cd",
    "hello-",
    "-world",
    "don't",
    "don\u2019t",
    "it's",
    "rock'n'roll",
    "'quoted'",
    "mod_python",
    "日本語",
    "東京タワー",
    "ภาษาไทย",
]

# key_spans() (a rule's side and a query compared, search/querying/expand.py) where it differs.
KEY_DIFFERENCES = {
    # Deliberate: RULE_WORD keeps "+" and "#" so that the grammar can refuse a rule naming "c++"
    # (the analyzer reads "c", and the rule would rewrite every "c"); no rule's key holds one, so
    # such a query key matches no rule.
    # The analyzers write a symbol word as one token ("csharp": search/symbols.py); its key stays
    # as written, and a rule may not name it either (search/synonym_rules.py).
    "C++": ["c++"],
    "C#": ["c#"],
    "f#": ["f#"],
    ".NET core": ["net", "core"],
    "(c#)": ["c#"],
    "libc++": ["libc++"],  # as "c++" (not a symbol word here: the analyzer reads "libc")
    # Known gaps, harmless: a query key a rule could never name ("," inside a number; the
    # typographic apostrophe the analyzer folds to "'") is split, so at most a synonym alternative
    # is sent that Elasticsearch then leaves unchanged, or none where one would apply.
    "Kirby\u2019s": ["kirby", "s"],
    "don\u2019t": ["don", "t"],
    "2,000": ["2", "000"],
    # Known gap: the tokenizer splits ideographs one by one; a rule of them matches no query key.
    "日本語": ["日本語"],
    "東京タワー": ["東京タワー"],
}

# TOKEN (normalize.py's cap on a query's tokens) where it differs: never fewer tokens than the
# analyzer's (checked for every input), so the cap errs on the safe side.
TOKEN_DIFFERENCES = {
    # Counted as the word without its symbols: as many tokens as the analyzer's one.
    "C++": ["c"],
    "C#": ["c"],
    "f#": ["f"],
    ".NET core": ["net", "core"],
    "(c#)": ["c"],
    "Kirby\u2019s": ["kirby", "s"],
    "don\u2019t": ["don", "t"],
    "2,000": ["2", "000"],
    "東京タワー": ["東", "京", "タ", "ワ", "ー"],
    "ภาษาไทย": ["ภ", "า", "ษ", "า", "ไ", "ท", "ย"],
}


@pytest.fixture
def analyze(es, build_index):
    build_index()

    def run(text: str) -> list[dict]:
        return es.indices.analyze(index=alias_name("posts"), analyzer="exact_text", text=text)["tokens"]

    return run


def test_the_splits_agree_with_the_exact_analyzer_but_where_the_differences_say(analyze):
    keys, counted, different = {}, {}, []
    for text in TRICKY:
        expected = [t["token"] for t in analyze(text)]
        keys[text] = [key for _, _, key in key_spans(text)]
        counted[text] = [key_word(m.group()) for m in tokens(text)]
        if keys[text] != KEY_DIFFERENCES.get(text, expected) or counted[text] != TOKEN_DIFFERENCES.get(text, expected):
            different.append((text, expected, keys[text], counted[text]))
        assert len(counted[text]) >= len(expected), text  # the token cap never lets more through
    assert different == []
    assert set(KEY_DIFFERENCES) | set(TOKEN_DIFFERENCES) <= set(TRICKY)


def test_a_typed_word_never_splits_a_token_of_the_analyzer(analyze):
    """words() separates at whitespace, dots and colons only, so every token the analyzer makes
    lies inside one word the reader typed (offsets: the inputs are in the Basic Multilingual
    Plane, where Elasticsearch's UTF-16 offsets are Python's)."""
    for text in TRICKY:
        spans = [(start, end) for start, end, _ in words(text)]
        for token in analyze(text):
            assert any(start <= token["start_offset"] and token["end_offset"] <= end for start, end in spans), (text, token)


@pytest.mark.parametrize("word", ["don't", "rock'n'roll", "O'Reilly", "Node"])
def test_a_joined_word_is_one_token_of_the_analyzer_as_one_joined_token_says(analyze, word):
    assert one_joined_token(word) or word.isalnum()
    assert [t["token"] for t in analyze(word)] == [word.lower()]


@pytest.mark.parametrize("word", ["kirby's", "node.js", "mod_python", "x_y_z", "e-mail", "café"])
def test_a_word_the_analyzer_changes_is_not_one_joined_token(analyze, word):
    assert not one_joined_token(word)
    assert [t["token"] for t in analyze(word)] != [word.lower()]
