"""What to ask Elasticsearch for a reader's query, as plain request bodies (pure, no I/O).

With the process's dictionary of the index's words (search/vocabulary.py) the service decides
before any request:

- every word known (or never corrected: a number, too short, past the suggesters' reach):
  `typed_request`, one plain search for what was typed; nothing can be corrected.
- some words unknown: `local_suggestions` gets their candidates from the dictionary
  (search/querying/candidates.py), then `alternatives_request`: still one search.
- a word the dictionary cannot answer for (hyphens, accents, other scripts), or every unknown
  word while no dictionary is stored: `suggest_request` asks the suggesters about those words
  only, with their document counts, and fetches no hits.

`choose_alternatives` turns the suggestions (either source, or the word cache's copy) into alternatives.
"""

from collections.abc import Callable, Iterable, Mapping

from search import compounds, languages, realwords, symbols
from search.alternative import Alternative
from search.conf import SearchSettings
from search.querying import candidates, facets, groups, syntax
from search.querying.facets import Filters
from search.querying.query import RELEVANCE, build_query, comments_body, highlight_query, search_body, without_stop_words, without_symbols
from search.querying.suggestions import (
    KNOWN_WORDS,
    alternatives,
    in_code_points,
    known_spans,
    known_words_aggregation,
    suggest_block,
)
from search.stopwords import is_stop_word, is_stop_word_of
from search.words import key_word, one_joined_token, words


def _body(
    alts: list[Alternative],
    *,
    page: int,
    cfg: SearchSettings,
    completing: bool = False,
    sort: str = RELEVANCE,
    filters: Filters = facets.NONE,
    detail: bool = False,
    snippets: bool = True,
    parsed: syntax.Parsed | None = None,
    excluded: tuple[int, ...] = (),
    fuzzy: bool = False,
    holding: Mapping[str, int] | None = None,
    untitled: frozenset[str] = frozenset(),
    formed_last: bool = False,
    many: bool = False,
) -> dict:
    """One entry per post; with `detail` the tag and year facets (the comments: comments_request());
    `filters` narrow the entries; without `snippets` only titles are highlighted. `formed_last`: _completion_weight.
    `many`: the query may match more documents than spellings are counted apart for (serving.count_apart_up_to)."""
    ranking = cfg.ranking
    query = build_query(
        alts,
        tiers=ranking.tiers,
        title_boost=ranking.title_boost,
        relevance_weight=ranking.relevance_weight,
        most_words=(ranking.most_words_from, ranking.most_words_match),
        completion_weight=_completion_weight(ranking, completing=completing, formed_last=formed_last),
        fuzzy_completion=ranking.fuzzy_title_completion if fuzzy and completing else "",
        title_weight=0.0 if snippets else ranking.instant_title_weight,  # the dropdown shows titles: title matches first
        frequent=(holding or {}, ranking.frequent_word_ratio, untitled),
    )
    query, serving = syntax.restricted(query, parsed, excluded), cfg.serving  # the phrases and -exclusions (search/querying/syntax.py)
    counts = _aggregations(query, alts, filters=filters, sort=sort, page=page, detail=detail, snippets=snippets, many=many, serving=serving)
    return search_body(
        query,
        page=page,
        page_size=serving.page_size,
        fragment_size=serving.highlight_fragment_size,
        highlight=highlight_query(alts, completing=completing),
        sort=sort,
        entries=True,
        count_up_to=max(serving.count_bound, serving.max_page * serving.page_size + 1),  # past the pages' reach
        snippets=snippets,
        post_filter=facets.post_filter(filters),
        aggs=counts,
    )


def _aggregations(query: dict, alts: list[Alternative], *, filters: Filters, sort: str, page: int, detail: bool, snippets: bool, many: bool, serving) -> dict:
    """What a search aggregates (facets.aggregations). Each spelling counted apart; for a keystroke too unless
    serving.instant_counts is off (a third more of its Elasticsearch time, for "See all N"), and not where the query may
    match `many` documents (an aggregation visits each: no skipping) unless facets visit them anyway: then every page and
    order lists and counts every spelling's posts, up to the bound. Where the page's first hit may not be the query's
    best (a filter, newest first, a later page), that hit too."""
    wanted = groups.filters(query, alts) if snippets or serving.instant_counts else {}
    spellings = {} if many and not (detail and serving.page_facets) else wanted
    top = bool(wanted) and bool(filters or sort != RELEVANCE or page > 1)
    return facets.aggregations(filters, facets=detail and serving.page_facets, top_tags=serving.facet_tags, spellings=spellings, top=top)


def _completion_weight(ranking, *, completing: bool, formed_last: bool) -> float:
    """What an unfinished last word's completions weigh: none for a finished one; less when the
    blog holds the word in other forms (held_forms): a word of the language, likely finished."""
    if not completing:
        return 0.0
    return min(ranking.completion_weight, ranking.form_completion_weight) if formed_last else ranking.completion_weight


def several_spellings(alts: list[Alternative]) -> bool:
    """Whether `alts` stand for more than one spelling (groups.source): each with words to search."""
    return len({groups.source(alts, i) for i, alt in enumerate(alts) if without_symbols(alt.text).strip()}) > 1


def matches_at_most(alts: list[Alternative], held: Callable[[str], int], *, unfinished: str = "", started: Callable[[str], int] | None = None) -> int:
    """An estimate of the documents a search of `alts` matches, from the dictionary: every tier
    requires a word, so a match holds one of the non-stop words of some alternative (`held`
    counts a word's documents). An `unfinished` last word also counts its likeliest completion's
    (`started`). Not a promise: `held` misses stemmed forms and synonyms' words. Decides whether
    spellings are counted apart (_body's `many`)."""
    found = {key_word(w) for alt in alts for w in without_stop_words(alt.text).split()}
    total = sum(held(word) for word in found if word)
    return total + (started(key_word(unfinished)) if unfinished and started is not None else 0)


def holdings(alts: list[Alternative], held: Callable[[str], int], *, unfinished: str = "", started: Callable[[str], int] | None = None) -> dict[str, int]:
    """Documents holding each non-stop word of what was typed and its held forms (`held`, by
    key_word()), for the frequent words of query.build_query. An `unfinished` last word whose
    likeliest completion (`started`) is commoner than itself is likely a start: it counts 0, which
    turns the rule off ("perf" in "python perf" would otherwise make "python" optional)."""
    found: dict[str, int] = {}
    for alt in (a for a in alts if a.typed or a.form_of):
        for key in (key_word(w) for w in without_stop_words(alt.text).split()):
            if key not in found:
                found[key] = held(key)
    last = key_word(unfinished)
    if started is not None and last in found and started(last) > found[last]:
        found[last] = 0
    return found


def untitled(alts: list[Alternative], holding: Mapping[str, int], titled: Callable[[str], int]) -> frozenset[str]:
    """Of the words typed that `holding` counts, those documents hold and no title does
    (`titled(word)`: titles holding it), for the frequent words of query.build_query. Not a held
    form's or compound's own word: "grossteil" for "teil" would leave "haskell" alone in a title."""
    typed_words = {key_word(w) for alt in alts if alt.typed for w in without_stop_words(alt.text).split()}
    return frozenset(word for word, n in holding.items() if n > 0 and word in typed_words and not titled(word))


def typed(query: str, cfg: SearchSettings) -> list[Alternative]:
    return [Alternative(cfg.ranking.typed_score, query, typed=True)]


def typed_request(query: str, *, page: int, cfg: SearchSettings, completing: bool = False, sort: str = RELEVANCE, **shape) -> dict:
    return _body(typed(query, cfg), page=page, cfg=cfg, completing=completing, sort=sort, **shape)


def strangers_to_titles(query: str, dictionary, cfg: SearchSettings) -> bool:
    """Whether a word before the last (not a stop word) is in no title: a typo left uncorrected or
    a word only bodies hold, so no title holds what was typed and a keystroke's completion tiers
    find none. Then the instant box also matches titles fuzzily (query._fuzzy_completion); only
    then, for what that costs, and only in a query of at most MAX_SUGGEST_WORDS words: a fuzzy word
    is a correction's work, bounded as corrections are (twelve misspelled words took 1.3x the
    Elasticsearch time with it: bench/hostile.py)."""
    found = words(query)
    if len(found) > cfg.ranking.max_suggest_words:
        return False
    for _, _, word in found[:-1]:
        if is_stop_word(word):
            continue
        counts = dictionary.counts(symbols.indexed(word.lower(), cfg.index.symbol_words))
        if counts is None or counts[0] == 0:
            return True
    return False


def unknown_words(query: str, known, cfg: SearchSettings) -> list[int]:
    """Indices (in words(query)) of the words the suggesters must be asked about.

    At most MAX_SUGGEST_WORDS of them, the first the vocabulary does not answer for: what bounds a
    query's correction work is the number of words corrected (twelve misspelled words cost 6x a
    search: bench/hostile.py), not where they sit. Counting positions instead left a typo after a
    few words the reader added unread ("the one about hack day at the guardizn": "guardizn" is the
    eighth word). Never a word longer than MAX_SUGGEST_WORD_LENGTH; nor
    plain ASCII letters-and-digits words that cannot be corrected: with a digit (never corrected),
    shorter than the suggester's min_word_length, or in `known`. Such a word is exactly one token
    of the exact analyzer, the word lowercased, so the vocabulary answers for it.

    Nor an ASCII word joined by `_` or `'` ("don't", "mod_python") that
    `known` holds as written: the vocabulary's words are tokens the standard tokenizer made, and
    whether it splits a word at such a character depends only on the characters next to it (Unicode
    word-break rules WB6-WB13), which are the same in the typed word; so the word is that one token,
    lowercased (ASCII: nothing to fold). Not one ending in "'s", which the possessive filter cuts.
    (A dot or a colon splits words here as in the analyzers: "node.js" is two words.)
    Any other word (hyphens, accents, scripts) is left to Elasticsearch's own analysis. A symbol
    word ("c#": search/symbols.py) is never corrected: it is typed on purpose, and its token is
    no word a reader would recognise as a correction. Nor a French word whose elided article
    leaves a word `known` holds or a stop word ("c'est"): the analyzers take the article off."""
    return scan_words(query, known, cfg)[0]


def scan_words(query: str, known, cfg: SearchSettings) -> tuple[list[int], list[int]]:
    """unknown_words, and the indices of the words the blog lacks as typed but holds in another
    form its stemmed fields find ("photographies": photographie, photographe). Those are never
    corrected; they are searched in the lexicon's forms too (held_forms), so the same lemma ranks
    before the same stem alone."""
    min_length = cfg.ranking.suggester.min_word_length
    held = _held(known)  # by any document: the stemmed fields then find another form of it as typed
    out, inflected = [], []
    for i, (start, end, word) in enumerate(words(query)):
        if len(out) >= cfg.ranking.max_suggest_words:
            break
        if end - start > cfg.ranking.max_suggest_word_length:
            continue
        if symbols.is_symbol_word(word, cfg.index.symbol_words):  # "c#": typed on purpose, never corrected
            continue
        bare = languages.without_article(word, cfg.index.language)  # "c'est": est, which the blog holds
        if bare != word and bare.isalnum() and (bare.lower() in known or is_stop_word_of(bare, cfg.index.language)):
            continue
        if word.isascii() and word.isalnum():
            if len(word) < min_length or any(ch.isdigit() for ch in word) or word in known:
                continue
        elif one_joined_token(word) and (word in known or key_word(word) in known):  # "Rückblick": ruckblick
            continue
        # "tartes" beside "tarte", "givrées" beside "givre": an inflection the stemmed fields find
        # as typed. Folded as the dictionary holds words (an accented one was corrected, 2026-12-03).
        folded = key_word(word)
        if folded.isalnum() and languages.another_form_held(folded, cfg.index.language, held):
            inflected.append(i)
            continue
        out.append(i)
    return out, inflected


def _held(known):
    """Whether any document holds a word, by the dictionary (or a plain set of words)."""
    return (lambda w: known.counts(w) is not None) if hasattr(known, "counts") else known.__contains__


def held_forms(query: str, unknown: list[int], known, cfg: SearchSettings, *, inflected: Iterable[int] = ()) -> dict[int, list[str]]:
    """Of the unknown words, those the blog holds in forms their stemmer keeps apart ("sommers":
    sommer, "listait": liste, "donneront": donne), each with up to `ranking.held_forms` of them:
    the forms of its lemma by the language's lexicon first, its lemma first (`known.forms_of`,
    search/lemmas.py), then the nearest by ending (languages.held_forms). Searched in those forms
    too, as typed (service._run). Not a word the blog holds as typed ("ronda", in one post).
    The `inflected` words (scan_words) take the lexicon's forms only: the stemmer finds the
    others, and "photographies" then ranks a title's "photographie" before "photographe". Empty
    for English."""
    found, held, language = words(query), _held(known), cfg.index.language
    if language not in languages.APART_ENDINGS:  # English: its plural rule lives in the corrections
        return {}
    folded = {i: key_word(found[i][2]) for i in unknown}  # as the dictionary holds words: "créant": creant
    # A one-letter ending only off a word the language uses (rare_word_min_zipf): "racet" is a
    # slip of "racket", no form of "race"; "listait" is rare and a form of "liste".
    real = lambda word: realwords.is_real(word, cfg.ranking.rare_word_min_zipf, language)  # noqa: E731
    asked = {i: word for i, word in folded.items() if word.isascii() and word.isalnum() and not held(word)}
    limit = cfg.ranking.held_forms
    # The lexicon's forms first (search/lemmas.py), of a word the language uses only: a slip may
    # be some rare form ("casera" for "camera" is no form of "caser").
    lexical = lambda word: [*filter(held, known.forms_of(word))] if hasattr(known, "forms_of") and real(word) else []  # noqa: E731
    forms = {
        i: list(dict.fromkeys([*lexical(word), *languages.held_forms(word, language, held, letter=real(word), limit=limit)]))[:limit]
        for i, word in asked.items()
    }
    for i in inflected:
        word = key_word(found[i][2])
        if i not in forms and word.isalnum() and not held(word):
            forms[i] = lexical(word)[:limit]
    return {i: held_ for i, held_ in forms.items() if held_}


def compound_alternatives(
    query: str, asked: list[int], index_of: Callable, held: Callable[[str], int], titled: Callable[[str], int], cfg: SearchSettings
) -> list[Alternative]:
    """A German query with one of its `asked` words in a compound of the blog that ends in it
    ("migration": datenbankmigration; search/compounds.py), the other words as typed: up to
    `ranking.compound_forms` alternatives, each word's best compound first, then the next. Each
    counts as the typed spelling, as a held form does (form_alternatives). `index_of()`: the
    dictionary's compound index, asked for only on a German blog; `held(word)`, `titled(word)`:
    how many documents, and titles, hold a word. Empty for other languages."""
    limit = cfg.ranking.compound_forms
    if cfg.index.language not in compounds.LANGUAGES or not limit or not asked:
        return []
    index, found = index_of(), words(query)
    each = {i: compounds.compounds(key_word(found[i][2]), index, held, limit=limit, titled=titled) for i in asked}
    score = round(cfg.ranking.typed_score * cfg.ranking.synonym_score_factor, 4)
    texts = [query[: found[i][0]] + each[i][n] + query[found[i][1] :] for n in range(limit) for i in asked if n < len(each[i])]
    return [Alternative(score, text, form_of=query) for text in texts[:limit]]


def real_words(query: str, indices, cfg: SearchSettings) -> set[int]:
    """Of `indices`, the words the blog's language uses (rare_word_min_zipf), folded."""
    found, language = words(query), cfg.index.language
    return {i for i in indices if realwords.is_real(key_word(found[i][2]), cfg.ranking.rare_word_min_zipf, language)}


def formed_last(query: str, inflected: Iterable[int], real: Iterable[int]) -> bool:
    """Whether the last word is a word of the language the blog holds in another form: one its
    stemmer finds (`inflected`: "micros" beside "micro") or a real word with held forms (`real`,
    of held_forms). Such a word is likely finished, so on the results page its completions weigh
    less (_completion_weight). Not a start with a form by ending ("informa": informe)."""
    last = len(words(query)) - 1
    return last >= 0 and (last in inflected or last in real)


def form_alternatives(query: str, forms: dict[int, list[str]], cfg: SearchSettings) -> list[Alternative]:
    """The typed query with each word of `forms` in a held form, one alternative per form: the
    n-th holds each word's n-th form, or its last. Each counts as the typed spelling
    (groups.source), is never named by "Showing results for" and is analysed like any spelling.
    They score as a synonym alternative does against what was typed (SYNONYM_SCORE_FACTOR)."""
    found, score = words(query), round(cfg.ranking.typed_score * cfg.ranking.synonym_score_factor, 4)
    out = []
    for n in range(max(map(len, forms.values()), default=0)):
        text = query
        for i in sorted(forms, key=lambda i: -found[i][0]):  # from the end: the offsets before stay
            start, end, _ = found[i]
            text = text[:start] + forms[i][min(n, len(forms[i]) - 1)] + text[end:]
        out.append(Alternative(score, text, form_of=query))
    return out


def suggest_request(query: str, unknown: list[int], *, cfg: SearchSettings) -> dict:
    """The suggesters over the unknown words only (the others blanked, so offsets stay the query's)
    and their document counts; no hits, no highlighting."""
    text = list(query)
    for i, (start, end, _) in enumerate(words(query)):
        if i not in unknown:
            text[start:end] = " " * (end - start)
    return {
        "size": 0,
        "track_total_hits": False,
        "suggest": suggest_block("".join(text), options=cfg.ranking.suggester.as_dict()),
        "aggs": known_words_aggregation(query, only=unknown),
    }


def alternatives_request(alts: list[Alternative], *, page: int, cfg: SearchSettings, completing: bool = False, sort: str = RELEVANCE, **shape) -> dict:
    """The search: every alternative in the tiers; with `completing`, the last word as typed may
    also be the start of a longer word (the reader has not typed a space after it). `shape`:
    _body()'s filters and detail."""
    return _body(alts, page=page, cfg=cfg, completing=completing, sort=sort, **shape)


def spellings_of(body: dict) -> dict[str, dict]:
    """The filter of each spelling a search counts apart (groups.filters), by bucket name; empty for one."""
    return body.get("aggs", {}).get(facets.SPELLINGS, {}).get("filters", {}).get("filters", {})


def counts_request(body: dict) -> dict:
    """Newest first with several spellings, the first of two requests: `body`'s counts, facets and
    deciding hit (facets.TOP), no hits. The page's spelling is known only from its answer."""
    return {**{k: v for k, v in body.items() if k not in ("highlight", "sort", "collapse", "_source", "post_filter")}, "from": 0, "size": 0}


def spelling_request(body: dict, spelling: str, highlight: dict | None) -> dict:
    """The second: `body`'s page of the posts of `spelling` alone (the posts the page counts), no
    counts, marking `highlight`'s words (that spelling's). Its query narrows the matching comments too."""
    listed = {k: v for k, v in body.items() if k != "aggs"}
    listed["query"] = {"bool": {"must": [body["query"]], "filter": [spellings_of(body)[spelling]]}}
    listed["highlight"] = {k: v for k, v in body["highlight"].items() if k != "highlight_query"}
    if highlight:
        listed["highlight"]["highlight_query"] = highlight
    return listed


def comments_request(search: dict, post_ids: list[int], *, cfg: SearchSettings) -> dict:
    """The best matching comments of the entries of a results page (query.comments_body), for the
    search `search` that found them."""
    serving = cfg.serving
    highlight = search.get("highlight", {}).get("highlight_query")
    return comments_body(search["query"], post_ids, per_post=serving.entry_comments, fragment_size=serving.highlight_fragment_size, highlight=highlight)


def suggestions_of(body: dict, response: dict) -> tuple[dict, dict]:
    """(suggest, aggregations) of an answer to `body`, offsets in Python string indices.

    Offsets are UTF-16 positions in the text *sent* (words blanked one space per character, so
    an emoji in a blanked word is one unit there and two in the query): converted against that
    text, they are positions in the query too (blanking keeps Python lengths)."""
    sent = body.get("suggest", {}).get("text", "")
    return in_code_points(sent, response.get("suggest", {})), response.get("aggregations", {})


def with_known(query: str, aggregations: dict, unknown: list[int], *, min_docs: int) -> dict:
    """The counts of a suggest_request's answer, completed with the words it did not ask about:
    they count as known (the vocabulary knows them, or they are never corrected anyway)."""
    buckets = dict(aggregations.get(KNOWN_WORDS, {}).get("words", {}).get("buckets", {}))
    for i in range(len(words(query))):
        if i not in unknown:
            buckets[f"w{i}"] = {"doc_count": min_docs}
    return {KNOWN_WORDS: {"words": {"buckets": buckets}}}


def local_suggestions(query: str, unknown: list[int], dictionary, *, cfg: SearchSettings, completing: bool) -> tuple[dict, dict, list[int], bool]:
    """What the dictionary answers without a request: (suggest, aggregations) for the unknown words
    it can answer for, the indices of those it cannot (left to the suggesters), and whether an
    unfinished last word counts as present (the index holds it, or a word starting with it)."""
    spans = words(query)
    local = [i for i in unknown if candidates.resolvable(spans[i][2])]
    ranking = cfg.ranking
    suggest, aggregations = candidates.suggest(
        query,
        local,
        dictionary,
        options=ranking.suggester,
        limit=ranking.max_candidates,
        enough=ranking.max_options_per_word,
        costs=ranking.typo_costs,
        unsplit=len(spans) - 1 if completing else None,
        sound_min_length=ranking.sound_min_length,
    )
    present = True
    if completing:
        present, entry = candidates.unfinished_word(
            query, dictionary, min_length=ranking.fuzzy_completion_min_length, max_edits=1, limit=ranking.max_candidates
        )
        if entry is not None:
            suggest["title_terms"].append(entry)
    return suggest, aggregations, [i for i in unknown if i not in local], present


def merged(first: tuple[dict, dict], second: tuple[dict, dict]) -> tuple[dict, dict]:
    """Two (suggest, aggregations) answers about different words, as one."""
    suggest = {name: [*first[0].get(name, []), *second[0].get(name, [])] for name in {*first[0], *second[0]}}
    buckets = {**first[1].get(KNOWN_WORDS, {}).get("words", {}).get("buckets", {}), **second[1].get(KNOWN_WORDS, {}).get("words", {}).get("buckets", {})}
    return suggest, {KNOWN_WORDS: {"words": {"buckets": buckets}}}


def choose_alternatives(
    query: str, suggest: dict, aggregations: dict, *, cfg: SearchSettings, completing: bool = False, last_present: bool = True
) -> list[Alternative]:
    """What was typed, then the best corrections (search/querying/suggestions.py). An unfinished last word
    counts as present in the index (unless the dictionary says nothing starts with it): keeping it
    (for its completions) is as likely as keeping a word the blog holds, so "mozila firef" tries
    "mozilla firef" before "mozilla fire"."""
    present = known_spans(query, aggregations, min_docs=1)
    spans = words(query)
    if completing and spans and last_present:
        present = [*present, spans[-1][:2]]
    return alternatives(
        query,
        suggest,
        typed_score=cfg.ranking.typed_score,
        floor=cfg.ranking.min_suggestion_score,
        max_alternatives=cfg.ranking.max_alternatives,
        per_token=cfg.ranking.max_options_per_word,
        costs=cfg.ranking.typo_costs,
        known=known_spans(query, aggregations, min_docs=cfg.ranking.known_word_min_docs),
        present=present,
        keep_present=cfg.ranking.keep_present_score,
    )
