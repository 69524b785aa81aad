"""A date its passage ties to a holiday or a weekday keeps it (:mod:`.calendar_ties`).

Real holidays from the ``holidays`` package; passages written here, in the shape of the ones
blind readers faulted (Easter Sunday, Friday prayers, a national day named a sentence later).
"""

from __future__ import annotations

import datetime
import json
import random

import pytest

from halluforge.families.shared.calendar_ties import date_tie, redate, tie_refusal, tied_dates
from halluforge.families.shared.eras import date_refusal
from halluforge.families.shared.shifts import shift_answer

EASTER = (
    "On Easter Sunday, 21 April 2019, bombers struck three churches and three hotels in Sri Lanka. "
    "More than 250 people were killed."
)
PRAYERS = (
    "On 15 March 2019 a gunman attacked two mosques in Christchurch during Friday prayers. "
    "Fifty-one people were killed."
)
NATIONAL_DAY = (
    "The final was played on 18 December 2022 at Lusail Stadium. Argentina beat France on "
    "penalties. The date was also Qatar's National Day."
)
PLAIN = "The bridge opened on 12 June 2019 after four years of work. It carries six lanes."


def test_a_holiday_the_passage_names_on_the_date_ties_it() -> None:
    tie = date_tie(EASTER, ["21 April 2019"])
    assert tie is not None and tie.holiday == "Easter Sunday" and tie.weekday is None
    refused = tie_refusal(EASTER, ["21 April 2019"], "14 April 2019")
    assert refused is not None and "Easter Sunday" in refused
    assert tie_refusal(EASTER, ["21 April 2019"], "12 April 2020") is None  # Easter Sunday 2020
    # the same holiday in the nearest years first, written as the passage writes the date
    assert tied_dates(EASTER, ["21 April 2019"], "21 April 2019")[:2] == ["12 April 2020", "1 April 2018"]


def test_a_holiday_named_in_another_sentence_ties_the_date_too() -> None:
    """ "The date was also Qatar's National Day": the package calls it "Qatar National Day"."""
    gold = ["18 December 2022"]
    tie = date_tie(NATIONAL_DAY, gold)
    assert tie is not None and tie.holiday == "National Day" and "QA" in tie.countries
    assert tie_refusal(NATIONAL_DAY, gold, "19 December 2022") is not None
    assert tie_refusal(NATIONAL_DAY, gold, "18 December 2021") is None
    # through the date checks every wrong date passes
    assert date_refusal("", gold, "19 December 2022", NATIONAL_DAY, None) is not None


def test_a_weekday_the_sentence_names_on_the_date_ties_its_weekday() -> None:
    gold = ["15 March 2019"]  # a Friday
    tie = date_tie(PRAYERS, gold)
    assert tie is not None and tie.weekday == 4 and tie.holiday is None
    refused = tie_refusal(PRAYERS, gold, "7 March 2019")
    assert refused is not None and "Thursday" in refused
    assert tie_refusal(PRAYERS, gold, "8 March 2019") is None
    assert tied_dates(PRAYERS, gold, "15 March 2019") == [
        "8 March 2019",
        "22 March 2019",
        "1 March 2019",
        "29 March 2019",
    ]
    # a weekday the date does not fall on speaks of another day
    other = PRAYERS.replace("Friday prayers", "a Tuesday vigil")
    assert date_tie(other, gold) is None


def test_an_untied_date_or_one_without_a_day_gives_no_tie() -> None:
    assert date_tie(PLAIN, ["12 June 2019"]) is None
    assert tie_refusal(PLAIN, ["12 June 2019"], "3 June 2019") is None
    assert tied_dates(PLAIN, ["12 June 2019"], "12 June 2019") == []
    year_only = "The bridge opened in 2019, at Easter."
    assert date_tie(year_only, ["2019"]) is None


def test_redate_keeps_how_the_date_is_written() -> None:
    day = datetime.date(2020, 4, 12)
    assert redate("April 21, 2019", day) == "April 12, 2020"
    assert redate("21 April 2019", day) == "12 April 2020"
    assert redate("April 2019", day) is None  # no day to set


def test_the_shift_loop_tries_the_tied_dates_first() -> None:
    """Random day shifts rarely hit another Easter Sunday; the tie offers it."""
    accept_all = lambda new: date_refusal("", ["21 April 2019"], new, EASTER, None)  # noqa: E731
    new, why = shift_answer(["21 April 2019"], "date", EASTER, accept_all, random.Random(0))
    assert new == "12 April 2020", why


def test_a_passage_naming_no_holiday_skips_the_scan_and_the_names_are_cached(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every country's holidays of the gold's year are listed only when the passage holds some
    holiday's name; the names are written to the user cache once and read back."""
    import halluforge.families.shared.calendar_ties as ties

    ties._holiday_names.cache_clear()  # built in this test's cache folder
    names = ties._holiday_names()
    assert "Easter Sunday" in names and "National Day" in names
    assert json.loads(ties._names_path().read_text(encoding="utf-8")) == list(names)
    ties._holiday_names.cache_clear()
    monkeypatch.setattr(ties, "_countries", lambda: ())  # read back: nothing is listed again
    assert ties._holiday_names() == names

    def scanned(day: datetime.date) -> tuple[tuple[str, str], ...]:
        raise AssertionError(f"scanned {day}")

    monkeypatch.setattr(ties, "_holidays_on", scanned)
    ties._tie.cache_clear()
    assert date_tie(PLAIN, ["12 June 2019"]) is None
    with pytest.raises(AssertionError, match="scanned"):
        date_tie(EASTER, ["21 April 2019"])
    ties._tie.cache_clear()


def test_holiday_names_are_read_as_names() -> None:
    """The package's entries give names a passage writes, not their fragments or notes; a
    lower-case phrase is no holiday's name."""
    from halluforge.families.shared.calendar_ties import _named, _names

    assert _names("Africa/Heroes Day") == ["Africa Day", "Heroes Day"]
    assert _names("Declaration of Independence") == ["Declaration of Independence"]
    assert _names("Qatar National Day") == ["Qatar National Day", "National Day"]
    assert _names("Day off (substituted from 12/28/2019)") == []
    assert _named("National Day", "It was also Qatar's National Day.")
    assert not _named("National Day", "It declared a national day of mourning.")
