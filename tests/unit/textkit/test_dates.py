"""halluforge.textkit.dates: the one month table and ordinals."""

from __future__ import annotations

import re

from halluforge.textkit.dates import MONTH_NAME_PATTERN, MONTH_NAMES, month_number, ordinal, ordinal_suffix


def test_month_numbers_from_names_and_short_forms_in_any_case() -> None:
    assert [month_number(m) for m in MONTH_NAMES] == list(range(1, 13))
    assert month_number("july") == month_number("JUL") == 7
    # "Sept" is a usual short form; the premise judge's calendar-based table lacked it
    assert month_number("Sept") == month_number("sep") == 9
    assert month_number("may") == 5
    assert month_number("Mayday") is None
    assert month_number("") is None


def test_full_names_only_when_asked() -> None:
    assert month_number("Jan", abbreviated=False) is None
    assert month_number("january", abbreviated=False) == 1


def test_the_name_pattern_finds_whole_month_names() -> None:
    found = re.findall(rf"\b(?:{MONTH_NAME_PATTERN})\b", "4 July 1776, 1 January, Mayday, Juneau", re.I)
    assert found == ["July", "January"]


def test_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th", "112th",
    ]  # fmt: skip
    assert ordinal_suffix(0) == "th"
