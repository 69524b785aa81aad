"""Dates tied by the passage's words to a four-year cycle or to another day (:mod:`.cycles`)."""

from __future__ import annotations

from halluforge.families.shared.cycles import cycle_refusal, day_tie_refusal
from halluforge.families.shared.eras import date_refusal

TOKYO = (
    "Tokyo first hosted the Summer Olympic Games in October 1964, the first time the Olympics "
    "had been held in Asia. The city had been awarded the 1940 Games."
)
AUSTERLITZ = (
    "The Battle of Austerlitz, fought on 2 December 1805 near Austerlitz in Moravia, was one of "
    "Napoleon's greatest victories. The battle took place on the first anniversary of Napoleon's "
    "coronation. Austria signed a treaty on 26 December 1805."
)
APPLE = (
    "Apple reached a market value of $3 trillion on 3 January 2022, the first trading day of the "
    "year. It had passed $2 trillion in August 2020."
)


def test_a_four_yearly_event_moves_by_four_years() -> None:
    question = "in what year did tokyo first host the summer olympics"
    assert cycle_refusal(question, TOKYO, ["1964"], "1962") is not None
    assert cycle_refusal(question, TOKYO, ["1964"], "1968") is None
    # the question alone names the event too, and the chain of date checks holds it
    assert date_refusal(question, ["1964"], "1961", "Tokyo hosted them in 1964.", None) is not None
    # no four-yearly event named: any year
    assert cycle_refusal("when did tokyo host the expo", "Tokyo hosted it in 1964.", ["1964"], "1962") is None


def test_a_date_tied_to_another_day_keeps_its_day_and_month() -> None:
    # the anniversary in a sentence of its own with no date speaks of the battle's day
    reason = day_tie_refusal(AUSTERLITZ, ["2 December 1805"], "4 December 1805")
    assert reason is not None and "anniversary" in reason
    # a counted anniversary counts the years too: "the first anniversary" of 1804 is in 1805
    reason = day_tie_refusal(AUSTERLITZ, ["2 December 1805"], "2 December 1806")
    assert reason is not None and "'first anniversary'" in reason
    assert day_tie_refusal(APPLE, ["3 January 2022"], "8 January 2022") is not None
    assert day_tie_refusal(APPLE, ["3 January 2022"], "3 January 2021") is None
    # no tie: the day moves freely; a sentence with its own date ties only its own
    plain = "The treaty was signed on 3 January 2022. The first anniversary fell on 3 January 2023."
    assert day_tie_refusal(plain, ["3 January 2022"], "8 January 2022") is None


def test_a_date_the_day_after_a_counted_anniversary_keeps_its_year() -> None:
    """Set 77: "opened on 3 December 2021, the day after the 46th anniversary of the founding of
    the Lao People's Democratic Republic" became 3 December 2020, the 45th (both readers)."""
    laos = (
        "The railway opened on 3 December 2021, the day after the 46th anniversary of the founding "
        "of the republic. Its line runs for 1,035 kilometres."
    )
    assert day_tie_refusal(laos, ["3 December 2021"], "3 December 2020") is not None
    assert day_tie_refusal(laos, ["3 December 2021"], "17 December 2021") is not None
    # an uncounted tie lets the year move (the first trading day of any year)
    assert day_tie_refusal(APPLE, ["3 January 2022"], "3 January 2021") is None
