"""The one month table, and English ordinals.

Every date rule (answer types, date conflicts, the date fallbacks of forging, invalid dates,
the premise judge) reads month names here. The names are English and fixed (not the
``calendar`` module's, which follow the process locale). :data:`MONTH_ABBREVIATIONS` holds the
usual short forms, "Sept" included; "May" is both.
"""

from __future__ import annotations

#: the English month names, January first
MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
#: their usual short forms, with the month number each stands for
MONTH_ABBREVIATIONS = {
    "Jan": 1,
    "Feb": 2,
    "Mar": 3,
    "Apr": 4,
    "May": 5,
    "Jun": 6,
    "Jul": 7,
    "Aug": 8,
    "Sep": 9,
    "Sept": 9,
    "Oct": 10,
    "Nov": 11,
    "Dec": 12,
}
#: a regular-expression alternation of the full names ("January|February|..."), for case-insensitive patterns
MONTH_NAME_PATTERN = "|".join(MONTH_NAMES)

_NUMBERS = {name.lower(): number for number, name in enumerate(MONTH_NAMES, start=1)}
_SHORT = {name.lower(): number for name, number in MONTH_ABBREVIATIONS.items()}


def month_number(word: str, *, abbreviated: bool = True) -> int | None:
    """1-12 for a month name in any case ("july", "Sept" when ``abbreviated``), else None."""
    key = word.lower()
    return _NUMBERS.get(key) or (_SHORT.get(key) if abbreviated else None)


def ordinal_suffix(number: int) -> str:
    """The English ordinal suffix of ``number``: ``st``, ``nd``, ``rd`` or ``th`` (11-13 take ``th``)."""
    if 10 <= number % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")


def ordinal(number: int) -> str:
    """``1`` -> ``1st``, ``12`` -> ``12th``, ``23`` -> ``23rd``."""
    return f"{number}{ordinal_suffix(number)}"


__all__ = [
    "MONTH_ABBREVIATIONS",
    "MONTH_NAMES",
    "MONTH_NAME_PATTERN",
    "month_number",
    "ordinal",
    "ordinal_suffix",
]
