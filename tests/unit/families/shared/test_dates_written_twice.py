"""Dates a passage writes twice, dates after today, names holding a month, and earlier people's gender.

Hand-made passages and tables: each rule is seen alone, with the case it must leave alone.
"""

from __future__ import annotations

import random

import pytest

from halluforge.families.shared.answer_types import classify_answer, form_type
from halluforge.families.shared.eras import future_refusal, weekday_refusal
from halluforge.families.shared.invented import earlier_gender
from halluforge.families.shared.restated_time import relative_date
from halluforge.families.shared.restatements import restatement
from halluforge.families.shared.spans import planned_replacements, span_replace
from halluforge.families.shared.wrong_answer import WrongAnswer
from halluforge.knowledge.table import Entity, EntityTable

CHARTER = "The charter was sealed at Runnymede on 15 June 1215. Copies of the 1215 charter survive."
GOLD = ["15 June 1215", "1215"]


def test_the_year_written_alone_takes_the_new_year() -> None:
    """Before or after the full date: "the 1215 charter" becomes "the 1209 charter"."""
    plan = [(CHARTER[s:e], new) for s, e, new in planned_replacements(CHARTER, GOLD, "15 June 1209")]
    assert plan == [("15 June 1215", "15 June 1209"), ("1215", "1209")]
    first = "In 1912 the liner left Southampton. She sank on 15 April 1912."
    assert span_replace(first, ["15 April 1912", "1912"], "15 April 1907") == (
        "In 1907 the liner left Southampton. She sank on 15 April 1907."
    )


def test_a_date_written_with_its_year_alone_elsewhere_is_accepted_in_full_form_only() -> None:
    """The full new date passes; a bare year, which would turn "15 June 1215" into "1213", does not."""
    wrong = WrongAnswer(knowledge=False)
    assert wrong.implausible("15 June 1213", GOLD, "date", CHARTER, shaped=True) is None
    refused = wrong.implausible("1213", GOLD, "date", CHARTER, shaped=True)
    assert refused is not None and "is not written like '15 June 1215'" in refused


def test_a_name_is_not_shortened_to_a_year() -> None:
    """A surname still waits for the full name: the plan of a person is unchanged by the date rule."""
    text = "Kepler wrote it. Johannes Kepler died in 1630."
    plan = [new for _, _, new in planned_replacements(text, ["Johannes Kepler", "Kepler"], "Tycho Brahe")]
    assert plan == ["Tycho Brahe", "Tycho Brahe"]


def test_a_past_event_is_not_moved_after_this_year() -> None:
    """November 2023 may become 2021, not 2033; a date already in the future may move anywhere."""
    refused = future_refusal(["November 2023"], "November 2033", this_year=2026)
    assert refused is not None and "after this year (2026)" in refused
    assert future_refusal(["November 2023"], "November 2021", this_year=2026) is None
    assert future_refusal(["2030"], "2034", this_year=2026) is None


def test_a_weekday_the_passage_names_stays_true() -> None:
    """ "Friday 17 November 2023" may become Friday 24 November, not Thursday 17 November 2016."""
    text = "The board announced it on Friday 17 November 2023. On Good Friday, 10 April 1998, a deal came."
    refused = weekday_refusal(text, ["17 November 2023"], "17 November 2016")
    assert refused is not None and "calls the date a Friday" in refused and "is a Thursday" in refused
    assert weekday_refusal(text, ["17 November 2023"], "24 November 2023") is None
    assert weekday_refusal(text, ["10 April 1998"], "10 April 2007") is not None  # a Tuesday
    # no weekday before the date, or a date without a day: nothing to keep
    assert weekday_refusal("It was signed on 10 April 1998.", ["10 April 1998"], "10 April 2007") is None
    assert weekday_refusal(text, ["November 2023"], "November 2016") is None


def test_a_name_holding_a_month_is_a_name() -> None:
    """No digit and a capitalised word that is no month: a person, whatever month it holds."""
    # set 50: a name word that opens with a letter outside A-Z ("Žižka") is a name word too
    for name in ("Jan van Eyck", "June Carter", "Theresa May", "August Strindberg", "Jan Žižka"):
        assert form_type(name) is None, name
    for date in ("June", "mid-June", "Early March", "June and July", "April 1912", "May"):
        assert form_type(date) == "date", date
    assert classify_answer("Jan van Eyck", "who painted the arnolfini portrait") == "person"


def test_an_earlier_persons_gender_follows_the_tables_earlier_people_of_the_region() -> None:
    """Ten earlier European men and no woman: always a man; a region with no earlier people: None."""
    men = [
        Entity(f"Hans Maler{i}", "person", "painter", born=1500 + i, nationality="Germany", gender="male")
        for i in range(10)
    ]
    later = Entity("Eva Neu", "person", "painter", born=1980, nationality="Germany", gender="female")
    countries = {
        "Germany": {"region": "Europe"},
        "Belgium": {"region": "Europe"},
        "Chile": {"region": "Americas"},
    }
    table = EntityTable.of([*men, later], countries=countries)
    rng = random.Random(0)
    assert {earlier_gender(table, "Belgium", rng) for _ in range(20)} == {"male"}
    assert earlier_gender(table, "Chile", rng) is None


def test_a_date_counted_in_years_and_a_half_from_another_is_a_restatement() -> None:
    """ "three and a half years after the June 2016 referendum" ties 31 January 2020 to 2016."""
    text = "The UK left on 31 January 2020, more than three and a half years after the June 2016 vote."
    start = text.index("31 January 2020")
    found = relative_date(text, "31 January 2020", [(start, start + len("31 January 2020"))])
    assert found is not None and "three and a half years after" in found
    plain = "The UK left on 31 January 2020 after the 2016 vote."
    assert relative_date(plain, "31 January 2020", [(15, 30)]) is None


def test_an_offset_between_two_other_events_leaves_the_answer_free() -> None:
    """ "conquered in 1521, two decades after ..." dates the conquest, not the answer's 1535."""
    text = (
        "The viceroyalty was created on 17 April 1535. Its capital had been conquered in 1521, "
        "two decades after the first landing, and was rebuilt within a few years."
    )
    start = text.index("17 April 1535")
    spans = [(start, start + len("17 April 1535"))]
    assert relative_date(text, "17 April 1535", spans) is None
    # the same offset counted from the answer's year ties it: 1515 is two decades before 1535
    tied = text.replace("in 1521", "in 1555")
    assert relative_date(tied, "17 April 1535", spans) is not None


def test_a_name_written_as_a_word_is_a_restatement() -> None:
    """ "the becquerel" (the unit) would become "the guichard"; "bell hooks" is her own spelling."""
    text = "Henri Becquerel found radioactivity. Its SI unit, the becquerel, is named after him."
    found = restatement(text, ["Henri Becquerel", "Becquerel"], "person:scientist", "who found it")
    assert found is not None and "'becquerel'" in found
    assert (
        restatement("Henri Becquerel found it. Becquerel won.", ["Henri Becquerel", "Becquerel"], "person")
        is None
    )
    assert restatement("The essay is by bell hooks.", ["bell hooks"], "person") is None


def test_a_date_whose_year_is_an_alias_moves_its_year() -> None:
    """One shift loop for the answer swap and RECALL: "9 November 1989" (alias "1989") gets a new year."""
    wrong = WrongAnswer(knowledge=False)
    text = "The Berlin Wall fell on 9 November 1989, after weeks of protest."
    gold = ["9 November 1989", "1989"]
    new, why = wrong.shifted(gold, "date", text, "when did the wall fall", random.Random(3))
    assert new is not None and why == "" and "1989" not in new and new.startswith("9 November ")
    never, why = wrong.shifted(["Jan van Eyck"], "date", "Jan van Eyck painted it.", "who", random.Random(3))
    assert never is None and why.startswith("16 shifted dates refused")


def test_a_person_before_1800_with_no_attested_names_is_not_invented() -> None:
    """Today's names pass for 1850 (a small clash to readers), not for a founder of the 1690s."""
    from halluforge.families.shared.facts import read_facts
    from halluforge.families.shared.invented import invented_names
    from halluforge.knowledge.names import name_stocks

    if "tw_GH" not in name_stocks():
        pytest.skip("Faker without its Twi locale")
    countries = {
        "Ghana": {
            "region": "Africa",
            "subregion": "Sub-Saharan Africa",
            "iso2": "GH",
            "languages": ["en"],
            "spoken": ["tw"],
        }
    }
    table = EntityTable.of([], countries=countries, demonyms={"ghanaian": "Ghana"})
    for year, invented in ((1695, False), (1850, True)):
        text = f"Kofi Manu, the Ghanaian king, founded the state in {year}. He ruled for decades."
        facts = read_facts(text, ["Kofi Manu"], "who founded the state", "person:monarch", table)
        names, info = invented_names(facts, text, ["Kofi Manu"], "who founded it", table, random.Random(0))
        assert bool(names) is invented, (year, info)


def test_a_century_in_words_places_a_person() -> None:
    """ "in the late seventeenth century" and "the 13th century" place a person with no year."""
    from halluforge.families.shared.facts import read_facts
    from halluforge.families.shared.invented import person_era

    table = EntityTable.of([])
    for text, era in (
        ("The state was founded in the late seventeenth century by Kofi Manu.", 1600),
        ("Kofi Manu led a small principality at the end of the 13th century.", 1200),
        ("Kofi Manu led a small principality.", None),
    ):
        assert person_era(read_facts(text, ["Kofi Manu"], "who founded it", "person", table)) == era, text


def test_one_day_in_two_calendars_is_a_restatement() -> None:
    """The Julian and the Gregorian date are both the answer: no one new date fits both."""
    roskilde = (
        "The treaty was signed on 26 February 1658 in the Julian calendar, which corresponds to "
        "8 March 1658 in the Gregorian calendar. It was concluded at Roskilde."
    )
    gold = ["26 February 1658", "8 March 1658"]
    reason = restatement(roskilde, gold, "date")
    assert reason is not None and "two calendars" in reason
    # one date written two ways, or with its year alone, is one date
    once = "The treaty was signed on 26 February 1658 (February 26, 1658). The 1658 treaty held."
    assert restatement(once, ["26 February 1658", "February 26, 1658", "1658"], "date") is None


def test_a_weekday_the_passage_names_on_the_answers_day_binds_it() -> None:
    """Set 90 (the code before issue 26): "the Black Saturday bushfires" of 7 February 2009 took a Tuesday."""
    text = "The Black Saturday bushfires broke out on 7 February 2009 in heat above 45 degrees."
    reason = weekday_refusal(text, ["7 February 2009"], "7 April 2009")
    assert reason is not None and "Saturday" in reason
    assert weekday_refusal(text, ["7 February 2009"], "14 February 2009") is None  # a Saturday too
    # a weekday the gold date does not fall on binds nothing
    assert weekday_refusal(text.replace("Saturday", "Sunday"), ["7 February 2009"], "7 April 2009") is None
