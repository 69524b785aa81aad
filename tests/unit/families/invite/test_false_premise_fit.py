"""The false_premise donor fit checks: era, gender, role, place, not_true on small hand-made tables."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import halluforge.knowledge.table as tables
from halluforge.families.invite.false_premise import FalsePremise
from halluforge.families.invite.fit import FitChecks, titles
from halluforge.knowledge.table import Entity, EntityTable
from halluforge.records import Skip, TestCase

R = "http://dbpedia.org/resource/"
DBO = "http://dbpedia.org/ontology/"


def _person(title: str, born: int | None, died: int | None, description: str, *jobs: str) -> Entity:
    return Entity(title=title, kind="person", description=description, born=born, died=died, occupations=jobs)


SPIELBERG = _person("Steven Spielberg", 1946, None, "American filmmaker (born 1946)", "filmmaker")
LUCAS = _person("George Lucas", 1944, None, "American filmmaker (born 1944)", "filmmaker")
LINCOLN = _person("Abraham Lincoln", 1809, 1865, "American lawyer and politician (1809–1865)", "lawyer")
STREEP = _person("Meryl Streep", 1949, None, "American actress (born 1949)", "actress")
HANKS = _person("Tom Hanks", 1956, None, "American actor (born 1956)", "actor")
NEWMAN = _person("Paul Newman", 1925, 2008, "American actor (1925–2008)", "actor")
WOODWARD = _person("Joanne Woodward", 1930, None, "American actress (born 1930)", "actress")
BACALL = _person("Lauren Bacall", 1924, 2014, "American actress (1924–2014)", "actress")
PEOPLE = [SPIELBERG, LUCAS, LINCOLN, STREEP, HANKS, NEWMAN, WOODWARD, BACALL]


def _city(title: str, country: str | None) -> Entity:
    return Entity(title=title, kind="place", place_type="city", country=country, population=100_000)


PLACES = [_city("Akron", "United States"), _city("Toledo", "United States"), _city("Lyon", "France")]
PLACES += [_city("Munich", "Germany"), _city("Osaka", "Japan")]
COUNTRIES = {
    "United States": {"region": "Americas"},
    "France": {"region": "Europe"},
    "Germany": {"region": "Europe"},
    "Japan": {"region": "Asia"},
}
FIRST_NAMES = {"paul": "male", "joanne": "female", "lauren": "female", "tom": "male", "humphrey": "male"}


def _table() -> EntityTable:
    return EntityTable.of(PEOPLE + PLACES, countries=COUNTRIES, first_names=FIRST_NAMES)


def _fit(*names: str) -> tuple[FitChecks, dict[str, int]]:
    return FitChecks(_table(), list(names)), {n: i for i, n in enumerate(names)}


def _check(predicate: str, replaced: str, candidate: str, other: str = "Some_Thing") -> dict[str, bool]:
    fit, ids = _fit(replaced, candidate, other)
    return fit.check(predicate, ids[replaced], ids[candidate], ids[other])


def test_kb_names_become_titles_with_and_without_a_qualifier() -> None:
    assert titles("Jaws_(film)") == ("Jaws (film)", "Jaws")
    assert titles("Steven_Spielberg") == ("Steven Spielberg",)
    assert titles("Akron,_Ohio") == ("Akron, Ohio",)  # exact titles only: no loose "Akron"
    fit, ids = _fit("Steven_Spielberg_(director)", "Akron,_Ohio")
    assert fit.known(ids["Steven_Spielberg_(director)"]).person == SPIELBERG
    assert fit.unknown(ids["Akron,_Ohio"]) == ["Akron,_Ohio"]


def test_era_wants_adult_lives_that_overlap() -> None:
    assert _check("director", "Steven_Spielberg", "George_Lucas")["era"] is True
    assert _check("director", "Steven_Spielberg", "Abraham_Lincoln")["era"] is False
    # both alive at once but Woodward only a child while Lincoln lived: no overlap either way
    assert _check("starring", "Paul_Newman", "Meryl_Streep")["era"] is True
    child = _person("Young One", 1860, 1950, "American actor (1860–1950)", "actor")
    fit = FitChecks(EntityTable.of([LINCOLN, child]), ["Abraham Lincoln", "Young One", "X"])
    assert fit.check("party", 0, 1, 2)["era"] is False  # 14 in 1874, Lincoln dead since 1865


JAWS = Entity(title="Jaws (film)", kind="other", description="1975 film by Steven Spielberg")
CASABLANCA = Entity(title="Casablanca (film)", kind="other", description="1942 American romantic drama film")
UNDATED = Entity(title="Some Film", kind="other", description="American film series")


def test_work_era_wants_the_person_adult_and_alive_in_the_works_year() -> None:
    table = EntityTable.of([*PEOPLE, JAWS, CASABLANCA, UNDATED])
    names = ["Steven_Spielberg", "George_Lucas", "Abraham_Lincoln", "Meryl_Streep", "Jaws_(film)"]
    names += ["Casablanca_(film)", "Some_Film", "Unknown_Person"]
    fit = FitChecks(table, names)
    ids = {n: i for i, n in enumerate(names)}

    def check(replaced: str, candidate: str, other: str) -> dict[str, bool]:
        return fit.check("director", ids[replaced], ids[candidate], ids[other])

    assert fit.known(ids["Jaws_(film)"]).work_year == 1975
    assert check("Steven_Spielberg", "George_Lucas", "Jaws_(film)")["work_era"] is True
    assert check("Steven_Spielberg", "Abraham_Lincoln", "Jaws_(film)")["work_era"] is False  # dead since 1865
    assert check("Steven_Spielberg", "Meryl_Streep", "Casablanca_(film)")["work_era"] is False  # not born yet
    # the work swapped in beside a person: Casablanca (1942) directed by Spielberg (born 1946)
    assert (
        fit.check("director", ids["Jaws_(film)"], ids["Casablanca_(film)"], ids["Steven_Spielberg"])[
            "work_era"
        ]
        is False
    )
    # an undated work, or a person the table does not know: nothing to check
    assert "work_era" not in check("Steven_Spielberg", "George_Lucas", "Some_Film")
    assert "work_era" not in check("Steven_Spielberg", "Unknown_Person", "Jaws_(film)")


def test_role_shared_occupation_only_where_the_predicate_names_one() -> None:
    assert _check("director", "Steven_Spielberg", "George_Lucas")["role"] is True
    assert _check("director", "Steven_Spielberg", "Tom_Hanks")["role"] is False
    assert "role" not in _check("birthPlace", "Steven_Spielberg", "Tom_Hanks", "Akron")
    assert "role" not in _check("spouse", "Paul_Newman", "Steven_Spielberg")


def test_gender_only_for_a_spouse_and_from_the_first_name_too() -> None:
    assert _check("spouse", "Joanne_Woodward", "Lauren_Bacall")["gender"] is True
    assert _check("spouse", "Joanne_Woodward", "Tom_Hanks")["gender"] is False
    assert "gender" not in _check("starring", "Joanne_Woodward", "Tom_Hanks")
    # Humphrey Bogart has no entry, but his first name gives the gender (and nothing else)
    assert _check("spouse", "Paul_Newman", "Humphrey_Bogart") == {"gender": True}


def test_place_same_country_else_region_and_not_true_for_containment() -> None:
    assert _check("birthPlace", "Akron", "Toledo", "Paul_Newman") == {"place": True}
    assert _check("birthPlace", "Akron", "Lyon", "Paul_Newman") == {"place": False}
    # a fact that places the city in its country: a donor of that country makes it true
    assert _check("country", "Lyon", "Munich", "France") == {"not_true": True, "place": True}
    assert _check("country", "Lyon", "Osaka", "France") == {"not_true": True, "place": False}
    lille = _city("Lille", "France")
    fit = FitChecks(EntityTable.of([*PLACES, lille], countries=COUNTRIES), ["Lyon", "Lille", "France"])
    assert fit.check("country", 0, 1, 2)["not_true"] is False
    # a country for a country: the same region
    assert _check("country", "Germany", "France") == {"place": True}
    assert _check("country", "Germany", "Japan") == {"place": False}


def test_birth_year_of_the_donor_is_not_the_premise_year() -> None:
    assert _check("birthYear", "Steven_Spielberg", "George_Lucas", "1944")["not_true"] is False
    assert _check("birthYear", "Steven_Spielberg", "George_Lucas", "1946")["not_true"] is True
    # no role for a birth year; an unknown replaced person leaves only the year to compare
    assert _check("birthYear", "Steven_Spielberg", "Tom_Hanks", "1946") == {"not_true": True, "era": True}
    assert _check("birthYear", "Nobody_Known", "George_Lucas", "1944") == {"not_true": False}


def test_an_entity_the_table_does_not_know_passes_unchecked() -> None:
    assert _check("director", "Steven_Spielberg", "Nobody_Known") == {}
    assert _check("director", "Nobody_Known", "Abraham_Lincoln") == {}
    assert _check("birthPlace", "Akron", "Springfield") == {}


def test_the_kbs_own_life_years_check_the_era_of_people_the_table_lacks() -> None:
    names = ["Steven_Spielberg", "Old_Unknown", "Young_Unknown", "Dead_Unknown", "Jaws_(film)"]
    ids = {n: i for i, n in enumerate(names)}
    born = {ids["Old_Unknown"]: 1800, ids["Young_Unknown"]: 1990, ids["Dead_Unknown"]: 1900}
    died = {ids["Dead_Unknown"]: 1950}
    fit = FitChecks(EntityTable.of([*PEOPLE, JAWS]), names, born=born, died=died)

    def check(replaced: str, candidate: str, other: str = "Jaws_(film)") -> dict[str, bool]:
        return fit.check("director", ids[replaced], ids[candidate], ids[other])

    # no death year in the KB is an unknown end, not a living person: only a known death bounds
    assert check("Steven_Spielberg", "Young_Unknown")["era"] is True
    assert check("Steven_Spielberg", "Dead_Unknown")["era"] is False  # died 1950, Spielberg 14 in 1960
    assert check("Old_Unknown", "Young_Unknown") == {"work_era": False}  # no death known: no era; 1990 > 1975
    assert check("Steven_Spielberg", "Old_Unknown")["work_era"] is True  # an adult in 1975, death unknown
    assert check("Steven_Spielberg", "Dead_Unknown")["work_era"] is False  # dead by 1975
    # life years alone do not vouch for a draw over one the table can check for a role
    assert not fit.checked(ids["Young_Unknown"], {"era": True})
    assert fit.checked(ids["Steven_Spielberg"], {"era": True})
    assert not fit.known(ids["Young_Unknown"]).known  # still named as unknown to the table


# -- the generator -------------------------------------------------------------------------------


def _kb(folder: Path, rows: list[tuple[str, str, str]], persons: list[str]) -> None:
    (folder / "kb.tsv").write_text("".join(f"{R}{s}\t{DBO}{p}\t{R}{o}\n" for s, p, o in rows))
    (folder / "persons.txt").write_text("\n".join(persons) + "\n")
    (folder / "places.txt").write_text("")


def _generator(folder: Path, **options: object) -> FalsePremise:
    raw = {
        "kb": str(folder / "kb.tsv"),
        "types": {"person": str(folder / "persons.txt"), "place": str(folder / "places.txt")},
        "predicates": ["director"],
        "per_predicate": 1,
        **options,
    }
    generator = FalsePremise.from_config(raw)
    assert isinstance(generator, FalsePremise)
    return generator


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> EntityTable:
    """The hand-made table stands in for the process's entity table."""
    tab = _table()
    monkeypatch.setattr(tables, "entity_table", lambda: tab)
    return tab


def test_generator_keeps_only_the_donor_that_fits(tmp_path: Path, table: EntityTable) -> None:
    rows = [("Jaws_(film)", "director", "Steven_Spielberg"), ("Star_Wars", "director", "George_Lucas")]
    rows += [(f"Film_{n}", "director", n) for n in ("Abraham_Lincoln", "Tom_Hanks", "Meryl_Streep")]
    _kb(tmp_path, rows, ["Steven_Spielberg", "George_Lucas", "Abraham_Lincoln", "Tom_Hanks", "Meryl_Streep"])
    for seed in range(5):
        cases = list(_generator(tmp_path, per_predicate=5).generate(seed))
        jaws = [c for c in cases if isinstance(c, TestCase) and c.metadata["original_subject"] == "Jaws"]
        assert jaws and all(c.metadata["swapped_entity"] == "George Lucas" for c in jaws)
        assert all(c.metadata["fit_checks"] == {"role": True, "era": True} for c in jaws)
        assert all(c.metadata["fit_unknown"] == [] for c in jaws)


def test_generator_reads_life_years_and_work_dates_from_the_kb(tmp_path: Path, table: EntityTable) -> None:
    rows = [("Old_Film", "director", "Old_Director"), ("New_Film", "director", "Young_Director")]
    _kb(tmp_path, rows, ["Old_Director", "Young_Director"])
    with (tmp_path / "kb.tsv").open("a") as kb:  # none of them is in the hand-made table
        kb.write(f"{R}Old_Director\t{DBO}birthYear\t1900\n{R}Old_Director\t{DBO}deathYear\t1960\n")
        kb.write(f"{R}Young_Director\t{DBO}birthYear\t1980\n")
        kb.write(f"{R}Old_Film\t{DBO}releaseDate\t1950-01-01\n{R}New_Film\t{DBO}releaseDate\t2010-05-05\n")
    generator = _generator(tmp_path, per_predicate=2, max_tries=4)  # forges "director" only
    fit = generator.fit()
    assert fit is not None
    ids = generator.index().ids  # the KB reader's names have spaces
    assert fit.born == {ids["Old Director"]: 1900, ids["Young Director"]: 1980}
    assert fit.died == {ids["Old Director"]: 1960}
    assert fit.dated == {ids["Old Film"]: 1950, ids["New Film"]: 2010}
    out = list(generator.generate(seed=0))
    # a director born in 1980 for a 1950 film, one dead since 1960 for a 2010 film: no donor fits
    assert len(out) == 2 and all(isinstance(c, Skip) for c in out)
    assert all(isinstance(c, Skip) and re.search(r"refused by work_era x\d+", c.reason) for c in out)


def test_generator_names_the_refusing_checks_in_the_skip(tmp_path: Path, table: EntityTable) -> None:
    rows = [("Jaws_(film)", "director", "Steven_Spielberg"), ("Film_A", "director", "Abraham_Lincoln")]
    _kb(tmp_path, rows, ["Steven_Spielberg", "Abraham_Lincoln"])
    out = list(_generator(tmp_path, per_predicate=2, max_facts=2, max_tries=4).generate(seed=0))
    assert len(out) == 2 and all(isinstance(c, Skip) for c in out)
    for skip in out:
        assert isinstance(skip, Skip)
        assert "fits the replaced entity" in skip.reason
        # a filmmaker for a lawyer and back: the role fails first on every draw that is not a no-op
        assert re.search(r"; fit checks refused by role x\d+$", skip.reason)


def test_unknown_entities_pass_and_are_named(tmp_path: Path, table: EntityTable) -> None:
    rows = [("Jaws_(film)", "director", "Steven_Spielberg"), ("Film_A", "director", "Jane_Unknown")]
    _kb(tmp_path, rows, ["Steven_Spielberg", "Jane_Unknown"])
    cases = [c for c in _generator(tmp_path, per_predicate=2).generate(seed=0) if isinstance(c, TestCase)]
    assert len(cases) == 2
    for case in cases:
        assert case.metadata["fit_checks"] == {}
        assert case.metadata["fit_unknown"] == ["Jane Unknown"]


def test_off_never_loads_the_table_and_lets_misfits_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_table() -> EntityTable:
        raise AssertionError("the table must not load with fit_checks off")

    monkeypatch.setattr(tables, "entity_table", no_table)
    rows = [("Jaws_(film)", "director", "Steven_Spielberg"), ("Film_A", "director", "Abraham_Lincoln")]
    _kb(tmp_path, rows, ["Steven_Spielberg", "Abraham_Lincoln"])
    cases = list(_generator(tmp_path, per_predicate=2, fit_checks=False).generate(seed=0))
    assert all(isinstance(c, TestCase) for c in cases)
    assert {c.metadata["swapped_entity"] for c in cases if isinstance(c, TestCase)} == {
        "Abraham Lincoln",
        "Steven Spielberg",
    }
    assert all(c.metadata["fit_unknown"] is None for c in cases if isinstance(c, TestCase))


def test_same_seed_same_output_with_fit_checks(tmp_path: Path, table: EntityTable) -> None:
    names = [p.title.replace(" ", "_") for p in PEOPLE]
    rows = [(f"Film_{i}", "director", names[i % len(names)]) for i in range(24)]
    _kb(tmp_path, rows, names)
    first = list(_generator(tmp_path, per_predicate=12).generate(seed=7))
    assert first == list(_generator(tmp_path, per_predicate=12).generate(seed=7))
    assert any(isinstance(c, TestCase) and c.metadata["fit_checks"] for c in first)
