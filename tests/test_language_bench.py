"""The German and French relevance benchmark's pure parts: the blog converter (bench/blog_corpus.py),
the Hunspell forms (bench/inflections.py) and the query kinds (bench/langgen.py)."""

import random
import subprocess
import zipfile

import pytest

from bench import blog_corpus, langgen
from bench.inflections import Inflections, read_aff
from search.querying.typo_model import osa

GERMAN_AFF = """SET UTF-8
NEEDAFFIX h
ONLYINCOMPOUND o
SFX N Y 1
SFX N   0     n          .
SFX F Y 1
SFX F   0     in         [^e]
SFX X Y 2
SFX X   en    t          en
SFX X   en    te         en
REP 2
REP f ph
REP ^ss$ ß
"""
GERMAN_DIC = """4
Schleife/N
schleifen/X
Lehrer/F
Zwischen/o
"""


@pytest.fixture
def hunspell(tmp_path):
    (tmp_path / "de_DE.aff").write_text(GERMAN_AFF, encoding="utf-8")
    (tmp_path / "de_DE.dic").write_text(GERMAN_DIC, encoding="utf-8")
    return tmp_path


@pytest.fixture
def autocorrect(tmp_path):
    path = tmp_path / "acor_de.dat"
    xml = (
        '<block-list:block-list><block-list:block block-list:abbreviated-name="Bibliotehk" block-list:name="Bibliothek"/>'
        '<block-list:block block-list:abbreviated-name="Cafe" block-list:name="Caf&#xE9;"/>'
        '<block-list:block block-list:abbreviated-name=":Loch:" block-list:name="&#x1F573;"/></block-list:block-list>'
    )
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("DocumentList.xml", xml)
    return path


def test_a_stem_s_suffix_rules_give_its_forms_and_a_noun_stays_apart_from_a_verb(hunspell):
    forms = Inflections(hunspell / "de_DE.aff", hunspell / "de_DE.dic", "de", {"schleifen", "lehrer", "zwischen"})
    assert forms.of("schleifen", noun=True) == ["schleife"]
    assert forms.of("schleifen", noun=False) == ["schleift", "schleifte"]
    assert forms.of("schleifen") == ["schleife", "schleift", "schleifte"]
    assert forms.of("lehrer") == []  # the feminine "-in" is another word, not a form
    assert forms.of("zwischen") == []  # a stem allowed only inside compounds


def test_long_flags_are_read_two_characters_at_a_time(tmp_path):
    (tmp_path / "fr.aff").write_text("FLAG long\nSFX S. Y 1\nSFX S. 0 s [^sxz]\n", encoding="utf-8")
    (tmp_path / "fr.dic").write_text("1\ntarte/S.() po:nom\n", encoding="utf-8")
    assert read_aff(tmp_path / "fr.aff").flags("S.()") == ["S.", "()"]
    assert Inflections(tmp_path / "fr.aff", tmp_path / "fr.dic", "fr", {"tarte"}).of("tarte") == ["tartes"]


def test_the_lists_keep_single_word_misspellings_that_folding_does_not_undo(hunspell, autocorrect):
    assert langgen.autocorrect_pairs(str(autocorrect)) == {"bibliothek": ("bibliotehk",)}
    # REP f ph: a writer types "f" where "ph" belongs; the anchored pair is left out.
    assert langgen.confusions(str(hunspell / "de_DE.aff")) == (("ph", "f"),)
    assert langgen.confused("philosophie", (("ph", "f"),), random.Random(1)) in ("filosophie", "philosofie")


def test_a_french_article_is_not_part_of_the_word_and_azerty_has_its_own_neighbours():
    assert langgen.tokens("L'avenir du Web se prépare", "fr") == ["avenir", "du", "web", "se", "prépare"]
    assert langgen.tokens("L'avenir", "de") == ["l'avenir"]
    assert set(langgen.neighbours("a", "azerty")) == {"z", "q"}
    assert "z" in langgen.neighbours("t", "qwertz") and "z" not in langgen.neighbours("t", "qwerty")


def test_each_kind_expects_the_posts_whose_title_holds_the_words(hunspell, autocorrect):
    posts = [
        {"id": 1, "title": "Schleifen in Haskell", "body_text": "Rekursion statt Schleifen."},
        {"id": 2, "title": "Die Bibliothek der Woche", "body_text": "Eine Bibliothek für Listen."},
        {"id": 3, "title": "Philosophie des Testens", "body_text": "Warum wir testen."},
    ]
    generator = langgen.Generator(posts, "de", autocorrect=autocorrect, hunspell=hunspell, frequency_of=lambda form: 1.0)
    queries = generator.generate(seed=3, per_kind=5)
    by_kind = {q.kind: q for q in queries}
    assert [(q.text, q.expected) for q in queries if q.source == "autocorrect"] == [("bibliotehk", [2])]
    inflected = by_kind["inflected"]
    assert (inflected.text, inflected.expected) == ("schleife", [1])  # the noun's other form, which no post holds
    question = by_kind["question"]
    assert question.text != question.correct and question.correct in question.text
    assert all(q.expected and len(q.expected) <= langgen.MAX_EXPECTED for q in queries)
    # A form the blog holds anywhere is no query: "testen" is in a body.
    assert all(q.text.split()[-1] not in {"testen", "rekursion"} for q in queries if q.kind != "control")
    slipped = [q for q in queries if q.kind == "two_slips"]
    assert slipped and all(osa(q.text, q.correct) == 2 and len(q.correct) >= langgen.TWO_SLIPS_MIN_WORD and q.source == "two slips" for q in slipped)


def test_a_title_holds_a_word_whatever_its_accents(hunspell, autocorrect):
    """The exact tier folds accents, so a title's "Etoiles" holds "étoiles" (French capitals often
    go unaccented: on 6b7f8cc the benchmark counted "Lanfeust des Etoiles" as a miss), and
    "Ubersicht" holds "übersicht"."""
    posts = [{"id": 1, "title": "Die Ubersicht der Woche", "body_text": "Text."}, {"id": 2, "title": "Eine Übersicht zu Haskell", "body_text": "Text."}]
    generator = langgen.Generator(posts, "de", autocorrect=autocorrect, hunspell=hunspell, frequency_of=lambda form: 1.0)
    assert generator.holders(["übersicht"]) == generator.holders(["ubersicht"]) == [1, 2]
    assert generator.holders(["übersicht", "zu"]) == [2] and generator.holders(["übersichten"]) == []


GERMAN_POST = """---
layout: post
title: "Testen von generiertem Code"
author: someone
tags: ["Haskell", "Testen"]
---

Ein Absatz mit {% highlight haskell %}Liquid{% endhighlight %} und **Markdown**.
"""
ENGLISH_POST = """---
title: An English article
lang: en
---
Text.
"""
FRENCH_POST = """---
title: Une tarte Tatin
date: 2008-01-17 12:00:00 +02:00
lang:  fr
tags:  [cuisine]
---
::: lead
La *tarte* du dimanche.
:::
"""


def test_a_checkout_or_a_git_directory_at_a_commit_becomes_the_corpus(tmp_path):
    blog = tmp_path / "blog"
    (blog / "_posts").mkdir(parents=True)
    (blog / "_posts" / "2016-03-01-generierter-code.md").write_text(GERMAN_POST, encoding="utf-8")
    (blog / "_posts" / "README.txt").write_text("not a post", encoding="utf-8")
    [row] = blog_corpus.posts(blog_corpus.LAYOUTS["fp-de"], blog_corpus.Source(blog, None))
    assert row["title"] == "Testen von generiertem Code" and row["tags"] == ["Haskell", "Testen"]
    assert row["url"] == "https://funktionale-programmierung.de/2016/03/01/generierter-code.html"
    assert row["pub_date"] == "2016-03-01T12:00:00+00:00"
    assert "highlight" not in row["body_html"] and "<strong>Markdown</strong>" in row["body_html"]
    assert row["id"] == 1 and row["body_text"].startswith("Ein Absatz mit")

    site = tmp_path / "site"
    for day, text in (("17", FRENCH_POST), ("18", ENGLISH_POST)):
        folder = site / "src" / "articles" / "2008" / "01" / day / f"post-{day}"
        folder.mkdir(parents=True)
        (folder / "index.md").write_text(text, encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(site)], check=True)
    subprocess.run(["git", "-C", str(site), "add", "."], check=True)
    subprocess.run(["git", "-C", str(site), "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "posts"], check=True)
    commit = subprocess.run(["git", "-C", str(site), "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    rows = blog_corpus.posts(blog_corpus.LAYOUTS["hoizey-fr"], blog_corpus.Source(site / ".git", commit))
    assert [r["title"] for r in rows] == ["Une tarte Tatin"]  # the English article is left out
    assert rows[0]["pub_date"] == "2008-01-17T12:00:00+02:00" and ":::" not in rows[0]["body_text"]
    blog_corpus.write(rows, tmp_path / "corpus")
    assert (tmp_path / "corpus" / "posts.ndjson").read_text(encoding="utf-8").count("\n") == 1
