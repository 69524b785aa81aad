"""Donors that fit the sentence: each fact check on hand-made passages and a hand-made entity table."""

from __future__ import annotations

from halluforge.families.shared.facts import fact_checks, read_facts, refusal, refused_by, table_donors
from halluforge.families.shared.spans import span_replace
from halluforge.knowledge.table import Entity, EntityTable

SANDEL = Entity(
    title="Cora Sandel",
    kind="person",
    description="Norwegian novelist (1880–1974)",
    born=1880,
    died=1974,
    nationality="Norway",
    occupations=("novelist",),
    gender="female",
)
UNDSET = Entity(
    title="Sigrid Undset",
    kind="person",
    description="Norwegian novelist (1882–1949)",
    born=1882,
    died=1949,
    nationality="Norway",
    occupations=("novelist",),
)
CURIE = Entity(
    title="Marie Curie",
    kind="person",
    description="Polish physicist and chemist (1867–1934)",
    born=1867,
    died=1934,
    nationality="Poland",
    occupations=("physicist", "chemist"),
    gender="female",
)
HAMSUN = Entity(
    title="Knut Hamsun",
    kind="person",
    description="Norwegian novelist (1859–1952)",
    born=1859,
    died=1952,
    nationality="Norway",
    occupations=("novelist",),
    gender="male",
)
IBSEN = Entity(
    title="Henrik Ibsen",
    kind="person",
    description="Norwegian playwright (1828–1906)",
    born=1828,
    died=1906,
    nationality="Norway",
    occupations=("playwright",),
    gender="male",
)
BLAIR = Entity(
    title="Eric Blair",
    kind="person",
    description="English novelist (1903–1950)",
    born=1903,
    died=1950,
    occupations=("novelist",),
)
FLEMING = Entity(
    title="Ada Fleming",
    kind="person",
    description="Scottish physician (1881–1955)",
    born=1881,
    died=1955,
    occupations=("physician",),
)
HUNTER = Entity(
    title="Ida Hunter",
    kind="person",
    description="Scottish surgeon (1870–1950)",
    born=1870,
    died=1950,
    occupations=("surgeon",),
)
AGRA = Entity(
    title="Agra",
    kind="place",
    description="City in Uttar Pradesh, India",
    place_type="city",
    country="India",
)
LUCKNOW = Entity(
    title="Lucknow",
    kind="place",
    description="Capital of Uttar Pradesh, India",
    place_type="city",
    country="India",
)
SURAT = Entity(
    title="Surat", kind="place", description="City in Gujarat, India", place_type="city", country="India"
)
TANA = Entity(
    title="Lake Tana", kind="place", description="Lake in Ethiopia", place_type="lake", country="Ethiopia"
)
ABAYA = Entity(
    title="Lake Abaya", kind="place", description="Lake in Ethiopia", place_type="lake", country="Ethiopia"
)
TURKANA = Entity(
    title="Lake Turkana", kind="place", description="Lake in Kenya", place_type="lake", country="Kenya"
)

PRIZE = "In 1928 the Nobel Prize in Literature went to the Norwegian novelist Sigrid Undset. She accepted it."


def _tab() -> EntityTable:
    return EntityTable.of(
        [SANDEL, UNDSET, CURIE, HAMSUN, IBSEN, BLAIR, TANA, ABAYA, TURKANA],
        countries={
            "Ethiopia": {"region": "Africa"},
            "Kenya": {"region": "Africa"},
            "Norway": {"region": "Europe"},
        },
        demonyms={"Norwegian": "Norway", "Polish": "Poland", "Ethiopian": "Ethiopia"},
        first_names={"Maria": "female", "Ola": "male"},
    )


def _checks(candidate: str, evidence: str, gold: list[str], kind: str, question: str = "") -> dict[str, bool]:
    tab = _tab()
    return fact_checks(candidate, read_facts(evidence, gold, question, kind, tab), kind, tab)


def test_gender_comes_from_the_words_around_the_answer() -> None:
    assert _checks("Knut Hamsun", PRIZE, ["Sigrid Undset"], "person:writer")["gender"] is False
    # an unknown name in a woman's role is refused; a known woman passes
    assert _checks("Ola Nordmann", PRIZE, ["Sigrid Undset"], "person:writer") == {"gender": False}
    assert _checks("Ada Quist", PRIZE, ["Sigrid Undset"], "person:writer") == {"gender": False}
    assert _checks("Maria Berg", PRIZE, ["Sigrid Undset"], "person:writer") == {"gender": True}
    # a silent context checks no gender
    silent = "In 1928 the prize went to the Norwegian novelist Sigrid Undset."
    assert "gender" not in _checks("Knut Hamsun", silent, ["Sigrid Undset"], "person:writer")


def test_a_gender_noun_inside_a_name_is_no_cue_and_a_year_before_a_comma_counts() -> None:
    # "the Queen of the Night" names an aria, not the answer's gender; "1928," is a year
    named = "In 1928, the novelist Knut Hamsun won the prize. The Queen of the Night was sung."
    assert "gender" not in _checks("Cora Sandel", named, ["Knut Hamsun"], "person:writer")
    assert read_facts(named, ["Knut Hamsun"], "", "person:writer", _tab()).years == (1928,)
    # a lower-case noun or a pronoun, also opening a sentence, still counts
    spoken = "In 1928 the novelist Knut Hamsun won the prize. He thanked the king."
    assert _checks("Cora Sandel", spoken, ["Knut Hamsun"], "person:writer")["gender"] is False
    assert (
        read_facts("It was 1,928 metres high, said Knut Hamsun.", ["Knut Hamsun"], "", "person", _tab()).years
        == ()
    )


def test_a_pronoun_after_a_later_mention_counts_and_one_after_another_name_does_not() -> None:
    later = (
        "In 1928 the prize went to the novelist Knut Hamsun. The jury met in Oslo. "
        "Hamsun spent the money at once. His publisher was pleased."
    )
    assert _checks("Cora Sandel", later, ["Knut Hamsun"], "person:writer")["gender"] is False
    # "Undset said she ..." speaks of Undset, named mid-sentence elsewhere: no cue about Hamsun
    other = "In 1928 the novelist Knut Hamsun followed the writer Sigrid Undset. Undset said she was glad."
    assert "gender" not in _checks("Cora Sandel", other, ["Knut Hamsun"], "person:writer")


def test_a_known_person_of_unmapped_nationality_must_have_the_demonym_in_the_description() -> None:
    # "English" maps to no country of the table: Blair's nationality is unknown, his description is not
    assert _checks("Eric Blair", PRIZE, ["Sigrid Undset"], "person:writer")["nationality"] is False
    english = "In 1945 the prize went to the English novelist Knut Hamsun, it was said."
    tab = EntityTable.of([BLAIR, HAMSUN], demonyms={"English": "England"})
    facts = read_facts(english, ["Knut Hamsun"], "", "person:writer", tab)
    assert fact_checks("Eric Blair", facts, "person:writer", tab)["nationality"] is True


def test_a_demonym_countryinfo_does_not_map_is_read_from_descriptions() -> None:
    # "Scottish" opens two descriptions of the table: a nationality word, compared by the words
    tab = EntityTable.of([FLEMING, HUNTER, CURIE], demonyms={"Polish": "Poland"})
    assert "Scottish" in tab.nationality_words
    text = "In 1928 the Scottish physician Ada Fleming saw the mould, it was said."
    facts = read_facts(text, ["Ada Fleming"], "", "person:scientist", tab)
    assert facts.demonym_words == ("Scottish",) and facts.demonym_country is None
    assert fact_checks("Ida Hunter", facts, "person:scientist", tab)["nationality"] is True
    assert fact_checks("Marie Curie", facts, "person:scientist", tab)["nationality"] is False


def test_a_city_stays_in_the_region_the_passage_names() -> None:
    tab = EntityTable.of([AGRA, LUCKNOW, SURAT], countries={"India": {"region": "Asia"}})
    text = "The tomb stands in Agra, a city of Uttar Pradesh in northern India."
    facts = read_facts(text, ["Agra"], "", "place:city", tab)
    assert facts.regions == ("Uttar Pradesh",)
    assert fact_checks("Lucknow", facts, "place:city", tab)["region"] is True
    assert fact_checks("Surat", facts, "place:city", tab)["region"] is False
    # a passage that does not name the region checks none
    assert "region" not in fact_checks(
        "Surat", read_facts("It stands in Agra.", ["Agra"], "", "place:city", tab), "place:city", tab
    )


def test_a_stated_birth_year_and_an_apposed_demonym_must_fit() -> None:
    text = (
        "Knut Hamsun, the Norwegian novelist, won the prize in 1920. "
        "Born in 1875 in Lom, he wrote Hunger. Sigrid Undset, born 1882, followed him."
    )
    facts = read_facts(text, ["Knut Hamsun"], "", "person:writer", _tab())
    # the year of the sentences about Hamsun, not Undset's; the demonym after the name
    assert facts.born == 1875 and facts.demonym_words == ("Norwegian",)
    assert fact_checks("Henrik Ibsen", facts, "person:writer", _tab())["born"] is False  # 1828
    assert fact_checks("Sigrid Undset", facts, "person:writer", _tab())["born"] is True  # 1882
    lifespan = "The prize went to Knut Hamsun (1859–1952), a novelist."
    assert read_facts(lifespan, ["Knut Hamsun"], "", "person:writer", _tab()).died == 1952
    # a demonym before another name belongs to it
    beat = "Knut Hamsun beat the Polish Marie Curie to it."
    assert read_facts(beat, ["Knut Hamsun"], "", "person:writer", _tab()).demonym_words == ()


def test_role_era_and_nationality_of_a_known_person() -> None:
    checks = _checks("Marie Curie", PRIZE, ["Sigrid Undset"], "person:writer")
    assert checks["role"] is False and checks["nationality"] is False and checks["era"] is True
    too_late = "In 1850 the prize went to the Norwegian novelist Sigrid Undset."
    assert _checks("Knut Hamsun", too_late, ["Sigrid Undset"], "person:writer")["era"] is False  # born 1859
    dead = "In 1928 the prize went to the Norwegian playwright Sigrid Undset."
    assert _checks("Henrik Ibsen", dead, ["Sigrid Undset"], "person:writer")["era"] is False  # died 1906
    assert refusal({"role": True, "era": False}, "Henrik Ibsen") == (
        "fact check 'era': 'Henrik Ibsen' does not fit the sentence's era"
    )
    assert refused_by(["fact check 'era': x", "fact check 'era': y", "other"]) == {"era": 2}


def test_an_entity_absent_from_the_table_gets_only_the_context_checks() -> None:
    silent = "In 1928 the prize went to the Norwegian novelist Sigrid Undset."
    assert _checks("Ada Quist", silent, ["Sigrid Undset"], "person:writer") == {}


def test_a_place_lies_in_the_country_the_sentence_names() -> None:
    lake = "Lake Tana is the largest lake in Ethiopia and the source of the Blue Nile."
    assert _checks("Lake Abaya", lake, ["Lake Tana"], "place:lake") == {"place": True}
    assert _checks("Lake Turkana", lake, ["Lake Tana"], "place:lake") == {"place": False}
    assert (
        _checks("Lake Nowhere", lake, ["Lake Tana"], "place:lake") == {}
    )  # the gold place gives the country


def test_table_donors_fit_the_facts_before_any_check() -> None:
    tab = _tab()
    facts = read_facts(PRIZE, ["Sigrid Undset"], "who won the prize", "person:writer", tab)
    # a Norwegian woman novelist alive and adult in 1928: not Hamsun (a man), Ibsen (dead), Curie
    assert table_donors("person:writer", facts, ["Sigrid Undset"], tab) == ["Cora Sandel"]
    lake = "Lake Tana is the largest lake in Ethiopia."
    facts = read_facts(lake, ["Lake Tana"], "which lake", "place:lake", tab)
    assert table_donors("place:lake", facts, ["Lake Tana"], tab) == ["Lake Abaya"]


def test_the_replacement_keeps_one_per_cent_sign() -> None:
    """ "58.59%" matched as its digits before the passage's own "%": "49.59%", not "49.59%%"."""
    aliases = ["58.59%", "58.59 percent", "58.59"]
    assert span_replace("He won 58.59% of the vote.", aliases, "49.59%") == "He won 49.59% of the vote."
    spelt = ["58.59%", "58.59 per cent", "58.59"]
    assert span_replace("He won 58.59 per cent.", spelt, "49.59%") == "He won 49.59 per cent."
    assert span_replace("He won 58.59% of the vote.", ["58.59%"], "49.59%") == "He won 49.59% of the vote."


def test_the_replacement_keeps_one_currency_sign_and_drops_a_stray_the() -> None:
    assert (
        span_replace("It earned $12.1 billion.", ["12.1 billion"], "$11.4 billion")
        == "It earned $11.4 billion."
    )
    assert span_replace("Tulips of the Netherlands.", ["Netherlands"], "France") == "Tulips of France."
    assert (
        span_replace("Tulips of the Netherlands.", ["Netherlands"], "Philippines")
        == "Tulips of the Philippines."
    )


def test_city_donors_are_known_names_of_the_gold_state_and_never_another_entity() -> None:
    """Brisbane (Queensland) gets a known Queensland city before a known city of another state;
    a locality whose name the table also knows as a person ("Ali") is never a donor."""

    def city(title: str, admin1: str, population: int, described: bool = True) -> list[Entity]:
        geo = Entity(
            title, "place", place_type="city", country="Australia", population=population, admin1=admin1
        )
        wiki = Entity(title, "place", f"City in {admin1}, Australia", place_type="city", country="Australia")
        return [geo, wiki] if described else [geo]

    entities = [
        *city("Brisbane", "04", 2_000_000),
        *city("Adelaide", "05", 1_200_000),
        *city("Townsville", "04", 180_000),
        *city("Gold Coast", "04", 600_000, described=False),
        *city("Ali", "04", 1_900_000, described=False),
        Entity("Ali", "person", "Cousin of Muhammad (600–661)", born=600, died=661),
    ]
    tab = EntityTable.of(entities, countries={"Australia": {"region": "Oceania", "capital": "Canberra"}})
    facts = read_facts("Brisbane hosted the games.", ["Brisbane"], "which city", "place:city", tab)
    donors = table_donors("place:city", facts, ["Brisbane"], tab)
    assert donors == ["Townsville", "Adelaide", "Gold Coast"]
