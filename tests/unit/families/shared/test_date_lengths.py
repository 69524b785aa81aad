"""A length of days or weeks the passage states binds the answer to another of its dates."""

from __future__ import annotations

from halluforge.families.shared.date_conflicts import date_conflict
from halluforge.families.shared.spans import answer_spans


def _conflict(evidence: str, gold: str, new: str) -> str | None:
    return date_conflict(evidence, gold, new, answer_spans(evidence, [gold]))


def test_a_stated_length_binds_the_answer_to_the_other_end() -> None:
    """Set 74: "after 69 days underground", "a siege of 13 days", "four weeks of mass protest"."""
    mine = (
        "The mine collapsed on 5 August 2010. They were rescued on 13 October 2010 after 69 days underground."
    )
    assert "69 days" in (_conflict(mine, "13 October 2010", "20 October 2010") or "")
    siege = "The fort fell on 6 March 1836 after a siege of 13 days. The siege had begun on 23 February."
    assert "13 days" in (_conflict(siege, "6 March 1836", "13 March 1836") or "")
    protest = (
        "Protests began on 17 December 2010. After four weeks of mass protest he fled on 14 January 2011."
    )
    assert "four weeks" in (_conflict(protest, "14 January 2011", "21 January 2011") or "")


def test_a_length_that_does_not_run_to_the_answer_binds_nothing() -> None:
    # the length is another span's ("a 13-day festival"), not the gap between the two dates
    text = "The fort fell on 6 March 1836. A 13-day festival began on 2 May 1836."
    assert _conflict(text, "6 March 1836", "13 March 1836") is None
    # a date without its year moves with a new year ("refloated on 29 March" of the next year)
    ship = "The ship ran aground on 23 March 2021. After six days of towing it was refloated on 29 March."
    assert _conflict(ship, "23 March 2021", "23 March 2022") is None
    assert "six days" in (_conflict(ship, "23 March 2021", "16 March 2021") or "")
