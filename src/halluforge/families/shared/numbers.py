"""Numbers as passages and answers write them: English number words, and which wrong amounts are believable.

:func:`number_value` reads digits or words ("fifty-two" -> 52) and :func:`spell_number` writes
words back, so a number the passage spells is shifted and spelled; :func:`numbers_close` and
:func:`years_close` are the windows inside which a wrong amount or date still reads as real
(the plausibility check of every wrong answer, :mod:`.wrong_answer`).
"""

from __future__ import annotations

import re

#: the per cent sign or the words for it, as passages write it after a number ("41.45%", "70 per cent")
PER_CENT = r"(?:%|per\s*cent\b|percent\b)"

#: the first half of the shifted draws moves a year at most this many years, the rest further
#: (:mod:`.shifts`), and a full date never further (:mod:`.calendar_ties`): an
#: informed reader ties a date to the events around it. Six of the nine dates blind readers
#: faulted on sets 28-31 had moved five to ten years, four of them across an outside event (a
#: 1905 partition ordered in 1898 by a viceroy who took office in 1899; Nagy leading a 1965
#: uprising, seven years after his execution)
NEAR_YEARS = 3

#: number words and their values, shared by the restatement rules that read counts in words
UNITS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70}
TENS |= {"eighty": 80, "ninety": 90}
SCALES = {
    "hundred": 100,
    "thousand": 1_000,
    "million": 1_000_000,
    "billion": 1_000_000_000,
    "trillion": 1_000_000_000_000,
}

NUMBER_WORD = "|".join([*UNITS, *TENS, *SCALES, "dozen"])
#: the parts a fraction's noun names: "a quarter" of a turn, "a two-thirds majority" (plural)
FRACTION_NOUNS = {"half": 2, "third": 3, "quarter": 4, "fourth": 4, "fifth": 5, "tenth": 10}
#: a number written in digits or in words ("299,792", "fifty-two", "three hundred million")
NUMBER = re.compile(
    rf"(?<![\w.,])\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?(?!\w|,\d)|(?<![\w.,])\d+(?:\.\d+)?(?!\w|,\d)"
    rf"|\b(?:{NUMBER_WORD})(?:[\s-]+(?:and\s+)?(?:{NUMBER_WORD}))*\b",
    re.I,
)


def spell_number(value: int) -> str | None:
    """A whole number under 100 in English words (27 -> "twenty-seven"), or None."""
    if value in UNITS.values():
        return next(word for word, n in UNITS.items() if n == value)
    if not 0 < value < 100:
        return None
    tens = next(word for word, n in TENS.items() if n == value - value % 10)
    return tens if value % 10 == 0 else f"{tens}-{spell_number(value % 10)}"


def number_value(text: str) -> float | None:
    """The value of a number written in digits or English words ("fifty-two" -> 52), or None."""
    text = text.strip().lower()
    if not text:
        return None
    if text[0].isdigit():
        try:
            return float(text.replace(",", ""))
        except ValueError:
            return None
    total, current, seen = 0, 0, False
    for word in re.split(r"[\s-]+", text):
        if word == "and":
            continue
        if word in UNITS or word in TENS:
            current += UNITS.get(word, 0) + TENS.get(word, 0)
        elif word == "dozen":
            current = (current or 1) * 12
        elif word in SCALES:
            current = (current or 1) * SCALES[word]
            if SCALES[word] >= 1000:
                total, current = total + current, 0
        else:
            return None
        seen = True
    return float(total + current) if seen else None


_FIRST_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
_YEAR_IN = re.compile(r"\b(\d{3,4})\b")


#: a scale word after a number ("4 trillion", "$2.04 billion")
_SCALE_AFTER = re.compile(r"\s*(" + "|".join(SCALES) + r")\b", re.I)


def _value(text: str) -> float | None:
    """The first number of ``text`` with the scale word after it: "$1.5 trillion" is 1.5e12, not 1.5."""
    match = _FIRST_NUMBER.search(text)
    if match is None:
        return None
    value = float(match.group().replace(",", ""))
    scale = _SCALE_AFTER.match(text, match.end())
    return value * SCALES[scale.group(1).lower()] if scale else value


def numbers_close(old: str, new: str, *, factor: float = 1.6, small: int = 3) -> bool:
    """A wrong amount a reader would believe: within ``factor`` of the old one, or ``small`` away.

    Water boiling at 8,849 degrees, or light doing 11 km/s, fails; 150 degrees or 250,000 km/s
    passes. A scale word counts ("$1.5 trillion" is no small step from "4 trillion"). Answers
    without digits (number words) are not compared here.
    """
    a, b = _value(old), _value(new)
    if a is None or b is None:
        return True
    if a == b:
        return False
    if abs(a - b) <= small and a > small:
        return True
    if a <= 0 or b <= 0:
        return abs(a - b) <= max(small, abs(a))
    return 1 / factor <= b / a <= factor


def years_close(old: str, new: str, *, window: int = 30) -> bool:
    """Dates whose years are at most ``window`` years apart (no year on either side: True)."""
    a, b = _YEAR_IN.findall(old), _YEAR_IN.findall(new)
    if not a or not b:
        return True
    return abs(int(a[-1]) - int(b[-1])) <= window


__all__ = [
    "FRACTION_NOUNS",
    "NEAR_YEARS",
    "NUMBER",
    "NUMBER_WORD",
    "SCALES",
    "TENS",
    "UNITS",
    "number_value",
    "numbers_close",
    "spell_number",
    "years_close",
]
