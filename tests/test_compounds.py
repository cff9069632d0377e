"""German compounds the blog holds (search/compounds.py): pure, tested on plain dicts."""

from search import compounds

HELD = {
    "datenbankmigration": 5,
    "schemamigration": 2,
    "daten": 40,
    "datenbank": 12,
    "schema": 9,
    "migration": 3,
    "beispiel": 30,
    "spiel": 4,
    "nachrichten": 6,
    "kontrollabstraktion": 2,
    "kontrolle": 8,
    "abstraktion": 3,
    "jahresruckblick": 3,
    "jahr": 20,
    "migrationsplan": 2,
}
INDEX = compounds.CompoundIndex(w for w in HELD if len(w) >= 2 * compounds.MIN_PART)


def found(word: str, limit: int = 3) -> list[str]:
    return compounds.compounds(word, INDEX, lambda w: HELD.get(w, 0), limit=limit)


def test_a_word_finds_the_compounds_that_end_in_it_commonest_first():
    assert found("migration") == ["datenbankmigration", "schemamigration"]
    assert found("migration", limit=1) == ["datenbankmigration"]


def test_the_first_part_may_join_with_s_or_drop_its_e():
    assert found("abstraktion") == ["kontrollabstraktion"]
    assert found("plan") == ["migrationsplan"]
    assert found("ruckblick") == ["jahresruckblick"]


def test_a_short_or_stop_word_first_part_makes_no_compound():
    assert found("spiel") == []  # "bei" + spiel
    assert found("richten") == []  # "nach" is a stop word


def test_short_words_stop_words_and_the_word_itself_are_left_alone():
    assert found("lan") == []  # "migrations" + lan: three letters are too short to tell
    assert found("oder") == []
    assert found("datenbankmigration") == []
    assert found("migration", limit=0) == []


def test_the_compounds_titles_hold_come_first():
    titles = {"schemamigration": 1}
    assert compounds.compounds("migration", INDEX, lambda w: HELD.get(w, 0), limit=1, titled=lambda w: titles.get(w, 0)) == ["schemamigration"]


def test_a_query_gets_one_word_in_a_compound_at_a_time():
    """Each alternative puts one word in a compound and keeps the others as typed, so a post with
    the compound and the other word still reaches the every-word tiers (a review of 9367870)."""
    from search import conf
    from search.querying.plan import compound_alternatives

    cfg = conf.build({"LANGUAGE": "de"})
    held = lambda w: HELD.get(w, 0)  # noqa: E731
    alts = compound_alternatives("migration abstraktion", [0, 1], lambda: INDEX, held, lambda w: 0, cfg)
    assert [a.text for a in alts] == ["datenbankmigration abstraktion", "migration kontrollabstraktion", "schemamigration abstraktion"]
    assert all(a.form_of == "migration abstraktion" and not a.typed for a in alts)
    assert compound_alternatives("migration abstraktion", [1], lambda: INDEX, held, lambda w: 0, cfg)[0].text == "migration kontrollabstraktion"
    assert compound_alternatives("migration", [0], lambda: INDEX, held, lambda w: 0, conf.build({"LANGUAGE": "en"})) == []


def test_a_common_ending_is_looked_at_a_bounded_number_of_times():
    index = compounds.CompoundIndex(f"wort{n:05d}tion" for n in range(5000))
    assert len(index.ending_in("tion", 50)) == 50
