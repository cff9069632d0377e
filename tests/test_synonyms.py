"""The blog's own synonym rules: parsing, the alternatives they add (pure), and the admin to the
next search against the real services."""

import io
import json
import threading
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

from search import conf, documents, generation, synonyms
from search.aliases import alias_name
from search.alternative import Alternative
from search.client import reset_client
from search.documents import EXACT_SYNONYMS, STEM_SYNONYMS, synonyms_set
from search.models import SynonymRule
from search.querying import reader
from search.querying.expand import rewrites, with_synonyms
from search.querying.query import build_query
from search.synonym_rules import parse
from tests.factories import make_comment, make_post
from tests.helpers import SHIPPED_SEARCH_TIMEOUT

# ---------------------------------------------------------------- pure


@pytest.mark.parametrize(
    ("text", "sides", "explicit", "canonical"),
    [
        ("js, javascript", (("js",), ("javascript",)), False, "js, javascript"),
        ("K8s =>  Kubernetes", (("k8s",), ("kubernetes",)), True, "k8s => kubernetes"),
        ("ml, machine learning, ML", (("ml",), ("machine", "learning")), False, "ml, machine learning"),
        ("e-mail, email", (("e-mail",), ("email",)), False, "e-mail, email"),
    ],
)
def test_rules_parse_to_lowercase_words(text, sides, explicit, canonical):
    rule = parse(text)
    assert (rule.sides, rule.explicit, rule.text) == (sides, explicit, canonical)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("js", "two different terms"),
        ("js, JS", "two different terms"),
        ("a => b => c", "one =>"),
        ("x => y, z", "one term after"),
        ("it, information technology", "the stop word 'it'"),  # the stemmed fields drop "it": no match there
        ("sign in, login", "the stop word 'in'"),  # Elasticsearch would skip the side in the stemmed fields
        ("c#, csharp", "searched as itself"),  # a symbol word (SYMBOL_WORDS) is one token of its own
        ("c++, cpp", "searched as itself"),
        ("j#, jsharp", "without \\+ or #"),  # not a symbol word: the tokenizer reads "j#" as "j"
        (", => x", "nothing before"),
        ("!!, js", "no word"),
    ],
)
def test_bad_rules_say_what_is_wrong(text, message):
    with pytest.raises(ValueError, match=message):
        parse(text)


def test_rewrites_replace_whole_words_each_way_an_explicit_rule_one_way():
    rules = (parse("js, javascript"), parse("k8s => kubernetes"), parse("ml, machine learning"))
    assert rewrites("JS tips", rules) == ["javascript tips"]
    assert rewrites("javascript tips", rules) == ["js tips"]
    assert rewrites("jsx tips", rules) == []  # whole words only
    assert rewrites("k8s on kubernetes", rules) == ["kubernetes on kubernetes"]  # never back to k8s
    assert rewrites("machine learning basics", rules) == ["ml basics"]
    assert rewrites("ml and js", rules) == ["ml and javascript", "machine learning and js"]  # one at a time
    # Words compared as the exact analyzer keeps them, so the rule is sent where Elasticsearch applies it.
    assert rewrites("Kirby's tips", (parse("kirby, kirbi"),)) == ["kirbi tips"]
    assert rewrites("Café menus", (parse("cafe, coffee shop"),)) == ["coffee shop menus"]
    assert rewrites("e mail tips", (parse("e-mail, email"),)) == ["email tips"]
    assert rewrites("e-mail tips", (parse("e-mail, email"),)) == ["email tips"]


def test_synonym_alternatives_come_after_every_alternative_and_score_below_their_source():
    alts = [Alternative(1.1, "js tuts", typed=True), Alternative(0.9, "react tests"), Alternative(0.8, "js tests")]
    out = with_synonyms(alts, (parse("js, javascript"),), limit=3, factor=0.8)
    # The same text, searched with the rules applied (query.py); what the rules make of it is shown.
    assert out == [
        *alts,
        Alternative(0.88, "js tuts", synonym_of="js tuts", rewrites=("javascript tuts",)),
        Alternative(0.64, "js tests", synonym_of="js tests", rewrites=("javascript tests",)),
    ]
    assert out[3].label == "javascript tuts" and alts[0].label == "js tuts"
    assert with_synonyms(alts, (parse("js, javascript"),), limit=1, factor=0.8)[3:] == out[3:4]
    assert with_synonyms(alts, (), limit=3, factor=0.8) == alts
    assert with_synonyms(alts[1:2], (parse("js, javascript"),), limit=3, factor=0.8) == alts[1:2]  # no rule touches it: nothing sent


def test_a_synonym_alternative_sends_the_same_tiers_through_the_synonym_analyzers():
    alts = [Alternative(1.1, "js tips", typed=True), Alternative(0.88, "js tips", synonym_of="js tips", rewrites=("javascript tips",))]
    body = build_query(alts, tiers=conf.get().ranking.tiers, title_boost=2.0, relevance_weight=0.01, completion_weight=0.5)
    clauses = {c["constant_score"]["_name"]: c["constant_score"] for d in body["bool"]["should"] if "dis_max" in d for c in d["dis_max"]["queries"]}
    typed = {n[5:]: c for n, c in clauses.items() if n.startswith("alt0.")}
    synonym = {n[5:]: c for n, c in clauses.items() if n.startswith("alt1.")}
    assert set(synonym) == set(typed)  # every tier
    assert not any(n.startswith("alt1c.") for n in clauses)  # no completion of a synonym alternative
    text = json.dumps(synonym)
    assert text.count(STEM_SYNONYMS) + text.count(EXACT_SYNONYMS) == len(synonym)  # every clause, its family's analyzer
    assert synonym["title.exact.phrase"]["filter"]["match_phrase"]["title.exact"]["analyzer"] == EXACT_SYNONYMS
    assert synonym["all.words"]["filter"]["multi_match"]["analyzer"] == STEM_SYNONYMS
    assert "analyzer" not in json.dumps(typed)  # what was typed is never expanded
    assert all(synonym[t]["boost"] < typed[t]["boost"] for t in synonym)


def test_a_synonym_is_never_shown_as_a_correction():
    alts = [
        Alternative(1.1, "js", typed=True),
        Alternative(0.9, "jsx"),
        Alternative(0.88, "js", synonym_of="js", rewrites=("javascript",)),
        Alternative(0.7, "jsx", synonym_of="jsx", rewrites=("react",)),
    ]

    def answer(alt):
        return {
            "hits": {"hits": [{"_source": {"doc_type": "post", "post_id": 1}, "matched_queries": [f"alt{alt}.title.exact.phrase"]}]},
            "aggregations": {"entries": {"doc_count": 1}},
        }

    assert reader.read(answer(2), alts)[3] == ""  # found through the synonym of what was typed
    assert reader.read(answer(3), alts)[3] == "jsx"  # through a synonym of a correction: the correction


# ---------------------------------------------------------------- through the admin and the search


@pytest.fixture
def blog(build_index):
    posts = {
        "js_title": make_post("Fast js bundles", "Bundling scripts."),
        "js_title_2": make_post("Learning js the hard way", "Notes."),
        "javascript_title": make_post("JavaScript closures explained", "Scopes and functions."),
        "js_comment": make_post("Weekend notes", "Nothing about code."),
        "kubernetes": make_post("Kubernetes on a laptop", "A small cluster."),
    }
    make_comment(posts["js_comment"], "I wrote some js for this.")
    build_index()
    return posts


def api(client, q):
    return client.get(reverse("search:api"), {"q": q}).json()


@pytest.mark.django_db(transaction=True)
def test_a_rule_saved_in_the_admin_changes_the_next_search(admin_client, client, blog):
    before = [r["post_id"] for r in api(client, "js ")["results"]]
    assert blog["javascript_title"].pk not in before
    response = admin_client.post(reverse("admin:search_synonymrule_add"), {"rule": "JS,  javascript", "note": "the blog's usage"})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert SynonymRule.objects.get().rule == "js, javascript"  # stored as parsed
    data = api(client, "js ")  # the cached answer of the old rules is never served
    ids = [r["post_id"] for r in data["results"]]
    # What was typed first: "js" in a title, then the synonym in a title, then "js" in a comment.
    assert set(ids[:2]) == {blog["js_title"].pk, blog["js_title_2"].pk}
    assert ids[2] == blog["javascript_title"].pk and blog["js_comment"].pk in ids[3:]
    assert data["showing_for"] == "" and ["0.88", "javascript"] in [[f"{s:.2f}", t] for s, t in data["search_terms"]]
    html = client.get(reverse("search:results"), {"q": "js"}).content.decode()
    assert "<mark>JavaScript</mark>" in html and "Showing results for" not in html
    admin_client.post(reverse("admin:search_synonymrule_delete", args=[SynonymRule.objects.get().pk]), {"post": "yes"})
    assert [r["post_id"] for r in api(client, "js ")["results"]] == before


@pytest.mark.django_db(transaction=True)
def test_an_explicit_rule_rewrites_one_way_and_a_bad_rule_is_refused(admin_client, client, blog):
    response = admin_client.post(reverse("admin:search_synonymrule_add"), {"rule": "k8s => kubernetes => kube"})
    assert response.status_code == 200 and "one =&gt; at most" in response.content.decode()
    admin_client.post(reverse("admin:search_synonymrule_add"), {"rule": "k8s => kubernetes"})
    assert [r["post_id"] for r in api(client, "k8s laptop")["results"]][:1] == [blog["kubernetes"].pk]
    assert blog["kubernetes"].pk not in [r["post_id"] for r in api(client, "weekend")["results"]]


def test_an_explicit_rule_whose_target_is_also_on_the_left_keeps_its_direction():
    rule = parse("kubernetes, k8s => kubernetes")
    assert (rule.text, rule.targets(("k8s",)), rule.targets(("kubernetes",))) == ("k8s => kubernetes", [("kubernetes",)], [])
    with pytest.raises(ValueError, match="nothing before"):
        parse("kubernetes => kubernetes")


def held_rules(es) -> list[str]:
    return sorted(r["synonyms"] for r in es.synonyms.get_synonym(id=synonyms_set())["synonyms_set"])


def post_ids(client, q) -> list[int]:
    return [r["post_id"] for r in api(client, q)["results"]]


@pytest.mark.django_db(transaction=True)
def test_elasticsearch_holds_postgresqls_rules_after_every_change_and_applies_them(admin_client, es, blog):
    admin_client.post(reverse("admin:search_synonymrule_add"), {"rule": "js, javascript"})
    admin_client.post(reverse("admin:search_synonymrule_add"), {"rule": "K8s => kubernetes"})
    assert held_rules(es) == ["js, javascript", "k8s => kubernetes"]
    # Applied by Elasticsearch, in the live index's search analyzers (no reindex since the index was built).
    assert [t["token"] for t in es.indices.analyze(index=alias_name("posts"), analyzer=STEM_SYNONYMS, text="k8s")["tokens"]] == ["kubernete"]  # then stemmed
    js = SynonymRule.objects.get(rule="js, javascript")
    admin_client.post(reverse("admin:search_synonymrule_delete", args=[js.pk]), {"post": "yes"})
    assert held_rules(es) == ["k8s => kubernetes"]
    assert [t["token"] for t in es.indices.analyze(index=alias_name("posts"), analyzer=EXACT_SYNONYMS, text="js")["tokens"]] == ["js"]


@pytest.mark.django_db(transaction=True)
def test_a_rule_saved_while_elasticsearch_is_down_applies_after_the_next_sync_round(admin_client, client, es, blog, settings):
    original = dict(settings.ELASTICSEARCH)
    settings.ELASTICSEARCH = {**original, "URL": "http://127.0.0.1:9", "TIMEOUT": 0.5}
    reset_client()
    response = admin_client.post(reverse("admin:search_synonymrule_add"), {"rule": "js, javascript"}, follow=True)
    assert "could not take the synonym rules" in response.content.decode()  # the owner is told
    assert SynonymRule.objects.get().rule == "js, javascript"  # and nothing is lost: PostgreSQL holds it
    settings.ELASTICSEARCH = original
    reset_client()
    assert held_rules(es) == []  # the set of the index the fixture built, without the rule
    assert blog["javascript_title"].pk not in post_ids(client, "js ")
    call_command("search_sync", stdout=io.StringIO())  # the scheduler's round
    assert held_rules(es) == ["js, javascript"]
    assert blog["javascript_title"].pk in post_ids(client, "js ")  # the answer cached without it is not served
    call_command("search_sync", stdout=io.StringIO())
    assert held_rules(es) == ["js, javascript"]  # a round with nothing to copy changes nothing


@pytest.mark.django_db(transaction=True)
def test_an_index_built_after_a_rule_applies_it(client, es, blog, build_index):
    SynonymRule.objects.bulk_create([SynonymRule(rule="js, javascript")])  # no signal: only reindex copies it
    build_index()  # writes the set once, first; the new indices' analyzers read it when their shards start
    for kind in ("posts", "comments"):
        assert {t["token"] for t in es.indices.analyze(index=alias_name(kind), analyzer=EXACT_SYNONYMS, text="js")["tokens"]} == {"js", "javascript"}
    assert blog["javascript_title"].pk in post_ids(client, "js ")


@pytest.mark.django_db(transaction=True)
def test_a_sync_round_leaves_applied_rules_alone_whatever_their_shape(es, blog):
    """The round's check that the indices apply the rules must not fail for any rule shape: it
    would reload the analyzers and drop every cached answer each round."""
    shapes = ["cafe, café", "kirby's, kirby", "e-mail, email", "machine learning, ml", "k8s => kubernetes", "node.js, nodejs"]
    for shape in shapes:
        SynonymRule.objects.all().delete()
        SynonymRule.objects.create(rule=shape)  # copied at once
        before = generation.current()
        assert not synonyms.reconcile(es), shape
        assert generation.current() == before, shape


@pytest.mark.django_db(transaction=True)
def test_indices_of_an_older_release_search_without_the_rules_until_reindexed(client, blog, build_index, monkeypatch):
    """An index built before the synonym analyzers existed would fail every shard a query naming
    them reaches (a 503 for every search a rule touches): until `reindex`, the rules are left out."""
    current = documents.analyzers
    monkeypatch.setattr(documents, "analyzers", lambda: [a for a in current() if a._name in (documents.STEM_TEXT, documents.EXACT_TEXT)])
    build_index()  # as the older release built them
    monkeypatch.undo()
    SynonymRule.objects.create(rule="js, javascript")
    response = client.get(reverse("search:api"), {"q": "js "})
    assert response.status_code == 200
    ids = [r["post_id"] for r in response.json()["results"]]
    assert blog["js_title"].pk in ids and blog["javascript_title"].pk not in ids
    build_index()  # the current release's indices
    assert blog["javascript_title"].pk in post_ids(client, "js ")


@pytest.mark.django_db(transaction=True)
def test_two_copies_at_once_leave_elasticsearch_with_the_latest_rules(es, blog, monkeypatch):
    """Copy A has read the rules and is slow to send them; rule two is saved and copy B starts.
    B must wait for A (one lock around reading and sending): were B's newer list sent first,
    A's older one would land last and Elasticsearch would keep applying the old rules."""
    SynonymRule.objects.bulk_create([SynonymRule(rule="js, javascript")])
    read, release = threading.Event(), threading.Event()
    real = synonyms.set_rules

    def set_rules():
        rules = real()
        if threading.current_thread().name == "copy-a":
            read.set()
            release.wait(10)
        return rules

    monkeypatch.setattr(synonyms, "set_rules", set_rules)

    def copy():
        try:
            synonyms.push(es)
        finally:
            connection.close()

    a = threading.Thread(target=copy, name="copy-a")
    a.start()
    assert read.wait(10)
    SynonymRule.objects.bulk_create([SynonymRule(rule="k8s => kubernetes")])
    b = threading.Thread(target=copy, name="copy-b")
    b.start()
    b.join(timeout=3)
    assert b.is_alive(), "copy B sent its rules while copy A held older ones"
    release.set()
    a.join(10)
    b.join(10)
    assert held_rules(es) == ["js, javascript", "k8s => kubernetes"]


class FakeElasticsearch:
    """What reconcile() asks of Elasticsearch: the set it holds, and whether an index applies it."""

    def __init__(self, held, *, applies=True):
        self.held, self.applies, self.calls = held, applies, []
        self.synonyms = SimpleNamespace(get_synonym=self.get_synonym, put_synonym=self.put_synonym)
        self.indices = SimpleNamespace(get_settings=self.get_settings, analyze=self.analyze, reload_search_analyzers=self.reload)

    def options(self, **_):
        return self

    def get_synonym(self, id, size):
        return {"synonyms_set": self.held}

    def put_synonym(self, id, synonyms_set):
        self.calls.append("put")
        self.held = synonyms_set
        return {"result": "updated", "reload_analyzers_details": {"_shards": {"failed": 0}}}

    def get_settings(self, index):
        analyzers = {STEM_SYNONYMS: {}, EXACT_SYNONYMS: {}}
        return SimpleNamespace(body={"i": {"settings": {"index": {"analysis": {"analyzer": analyzers}}}}})

    def analyze(self, index, analyzer, text):
        expands = analyzer in (EXACT_SYNONYMS, STEM_SYNONYMS) and self.applies and text == "js"
        words = text.split() + (["javascript"] if expands else [])
        return {"tokens": [{"token": w} for w in words]}

    def reload(self, index):
        self.calls.append("reload")
        self.applies = True
        return {"_shards": {"failed": 0}}


@pytest.mark.django_db
def test_reconcile_copies_a_differing_set_reloads_an_index_that_does_not_apply_it_else_nothing():
    SynonymRule.objects.bulk_create([SynonymRule(rule="js, javascript")])
    fake = FakeElasticsearch([])
    assert synonyms.reconcile(fake) and fake.calls == ["put"]  # a change Elasticsearch did not take
    assert not synonyms.reconcile(fake) and fake.calls == ["put"]  # the set and the indices agree
    fake.applies = False  # a shard started while the set could not be read
    assert synonyms.reconcile(fake) and fake.calls == ["put", "reload"]
    assert not synonyms.reconcile(fake)


@pytest.mark.django_db(transaction=True)
def test_deleting_many_rules_at_once_copies_the_rules_once(admin_client, es, blog, monkeypatch):
    SynonymRule.objects.bulk_create([SynonymRule(rule=r) for r in ("js, javascript", "k8s => kubernetes", "pg, postgres")])
    synonyms.push(es)
    copies = []
    real = synonyms.push
    monkeypatch.setattr(synonyms, "push", lambda client=None, **bounds: copies.append(1) or real(client, **bounds))
    ids = list(SynonymRule.objects.values_list("pk", flat=True))
    response = admin_client.post(reverse("admin:search_synonymrule_changelist"), {"action": "delete_selected", "_selected_action": ids, "post": "yes"})
    assert response.status_code == 302 and not SynonymRule.objects.exists()
    assert len(copies) == 1  # one copy after the commit, not one per row
    assert held_rules(es) == []


@pytest.mark.django_db(transaction=True)
def test_a_rule_saved_while_elasticsearch_hangs_returns_as_fast_as_a_posts_save(admin_client, client, es, blog, settings, black_hole):
    """Elasticsearch accepting connections and never answering (issue 38.3: the save held the
    owner's page for 10 s): the save returns within a post save's bound, the owner is told, and
    the next search_sync round applies the rule."""
    import time

    original = dict(settings.ELASTICSEARCH)
    settings.ELASTICSEARCH = {**original, "URL": f"http://127.0.0.1:{black_hole[0]}", "TIMEOUT": SHIPPED_SEARCH_TIMEOUT}
    reset_client()
    started = time.monotonic()
    response = admin_client.post(reverse("admin:search_synonymrule_add"), {"rule": "js, javascript"}, follow=True)
    took = time.monotonic() - started
    settings.ELASTICSEARCH = original
    reset_client()
    assert "could not take the synonym rules" in response.content.decode() and SynonymRule.objects.get().rule == "js, javascript"
    assert took < 1.25 * conf.get().sync.synonym_save_seconds + 1.0, took  # was 10 s and more
    call_command("search_sync", stdout=io.StringIO())
    assert held_rules(es) == ["js, javascript"] and blog["javascript_title"].pk in post_ids(client, "js ")
