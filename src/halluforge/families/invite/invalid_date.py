"""The ``invalid_date`` family: questions whose date cannot exist or has not happened yet.

Method (INVITE, Ramakrishna et al. 2023, §3.1 "Questions with Invalid Dates"): find dates in
ordinary trivia questions and distort them so the question rests on an impossible premise:

- ``invalid_day``: a month-and-day date gets a day number beyond the month's length
  ("April 31", "February 30"; February 29 counts as valid unless the question's year is known
  not to be a leap year, in which case 29 is already impossible);
- ``future_year``: a standalone year moves past the current year ("in 1977" -> "in 2061").

A model should say the date is impossible or in the future instead of answering. Reference
answers are our own wording. Any question set works as input (the pipeline's examples: MRQA,
SQuAD-style JSONL, TriviaQA JSON, ...); questions without a usable date become a Skip with the
reason. This is a pure rule family: provenance path ``rule``; each example has its own random
stream derived from (seed, example id, kind), so output is identical for the same seed.
"""

from __future__ import annotations

import calendar
import datetime as dt
import hashlib
import random
import re
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field

from halluforge.forge.base import ForgeContext, Generator, GeneratorOptions
from halluforge.records import Edit, Example, FieldProvenance, Provenance, Skip, TestCase, stable_id
from halluforge.textkit.dates import MONTH_NAME_PATTERN, MONTH_NAMES, month_number, ordinal

Kind = Literal["invalid_day", "future_year"]
_MONTH_ALT = MONTH_NAME_PATTERN
_ORD = r"(?:st|nd|rd|th)"
# "May 29, 1790" / "January 1st. 1950" / "March 3"
_MONTH_DAY = re.compile(
    rf"\b(?P<month>{_MONTH_ALT})\s+(?P<day>\d{{1,2}})(?P<ord>{_ORD})?\b(?P<tail>[.,]?\s*(?P<year>\d{{4}})\b)?",
    re.IGNORECASE,
)
# "29 May 1790" / "4th of July" / "the 21st of April, 1918"
_DAY_MONTH = re.compile(
    rf"\b(?P<day>\d{{1,2}})(?P<ord>{_ORD})?(?P<of>\s+of)?\s+(?P<month>{_MONTH_ALT})\b"
    rf"(?P<tail>,?\s*(?P<year>\d{{4}})\b)?",
    re.IGNORECASE,
)
_YEAR = re.compile(r"(?<![\d$£€.,/-])\b(?P<year>1\d{3}|20\d{2})\b(?!'?s\b)(?![.,]\d)(?!\s*(?:%|per\s?cent))")
_NOT_A_YEAR_AFTER = re.compile(
    r"^\s*(?:metres|meters|m\b|km|kilomet|miles|mph|feet|ft\b|yards|kg|pounds|tons|tonnes|people|men|"
    r"soldiers|troops|runs|points|goals|pages|words|calories|degrees|votes)",
    re.IGNORECASE,
)


def _all_kinds() -> list[Kind]:
    return ["invalid_day", "future_year"]


class InvalidDateOptions(GeneratorOptions):
    """Options of the ``invalid_date`` family (``families.invalid_date`` in a run config)."""

    kinds: list[Kind] = Field(default_factory=lambda: _all_kinds(), description="which distortions to make")
    max_day: int = Field(
        default=35, ge=32, le=99, description="largest impossible day number drawn (INVITE drew up to 98)"
    )
    current_year: int | None = Field(default=None, description="the present year; default: today's year")
    years_ahead: int = Field(default=75, ge=1, description="future years are drawn from the next N years")


@dataclass(frozen=True)
class DateEdit:
    """One distortion of a question: the span replaced, the new text and the reference answer."""

    kind: Kind
    start: int
    end: int
    old: str
    new: str
    reference: str
    details: dict[str, Any]

    @property
    def end_after(self) -> int:
        """Where the new text ends in the edited question."""
        return self.start + len(self.new)


def is_leap(year: int) -> bool:
    """Gregorian leap-year rule."""
    return calendar.isleap(year)


def days_in_month(month: int, year: int | None = None) -> int:
    """Length of ``month`` (1-12); February has 29 days when the year is unknown or a leap year."""
    if month == 2:
        return 28 if year is not None and not is_leap(year) else 29
    return calendar.monthrange(2001, month)[1]


def _month_number(name: str) -> int:
    number = month_number(name, abbreviated=False)
    if number is None:
        raise ValueError(f"not a month name: {name!r}")
    return number


def find_day_edit(question: str, rng: random.Random, max_day: int) -> DateEdit | None:
    """Replace the day of the first month-and-day date by one the month cannot have."""
    matches = [m for m in (_MONTH_DAY.search(question), _DAY_MONTH.search(question)) if m is not None]
    for match in sorted(matches, key=lambda m: m.start()):
        day = int(match.group("day"))
        month = _month_number(match.group("month"))
        year = int(match.group("year")) if match.group("year") else None
        if not 1 <= day <= 31:
            continue
        first_bad = days_in_month(month, year) + 1
        choices = [d for d in range(first_bad, max(first_bad + 1, max_day) + 1) if d != day]
        new_day = choices[rng.randrange(len(choices))]
        day_text = ordinal(new_day) if match.group("ord") else str(new_day)
        start, end = match.span("day")
        if match.group("ord"):
            end = match.end("ord")
        month_name = MONTH_NAMES[month - 1]
        in_year = f" in {year}" if year is not None and month == 2 else ""
        length = days_in_month(month, year)
        reference = (
            f"There is no {month_name} {ordinal(new_day)}{in_year}: {month_name} has only {length} days"
            f"{in_year}, so the question asks about a date that does not exist."
        )
        return DateEdit(
            kind="invalid_day",
            start=start,
            end=end,
            old=question[start:end],
            new=day_text,
            reference=reference,
            details={"month": month_name, "old_day": day, "new_day": new_day, "year": year},
        )
    return None


def find_year_edit(question: str, rng: random.Random, current_year: int, years_ahead: int) -> DateEdit | None:
    """Move the first standalone year (not part of a day-and-month date) into the future."""
    taken = [m.span() for rx in (_MONTH_DAY, _DAY_MONTH) for m in rx.finditer(question)]
    for match in _YEAR.finditer(question):
        start, end = match.span("year")
        if any(a <= start < b for a, b in taken) or _NOT_A_YEAR_AFTER.match(question[end:]):
            continue
        old_year = int(match.group("year"))
        choices = [y for y in range(current_year + 1, current_year + years_ahead + 1) if y != old_year]
        new_year = choices[rng.randrange(len(choices))]
        return DateEdit(
            kind="future_year",
            start=start,
            end=end,
            old=match.group("year"),
            new=str(new_year),
            reference=(
                f"The year {new_year} has not happened yet, so nothing about it can be known or "
                "reported; the question cannot be answered as asked."
            ),
            details={
                "old_year": int(match.group("year")),
                "new_year": new_year,
                "current_year": current_year,
            },
        )
    return None


def date_is_impossible(month: int, day: int, year: int | None) -> bool:
    """True when no calendar has that day in that month (and year, when given)."""
    return day > days_in_month(month, year)


class InvalidDate(Generator):
    """Forge questions with impossible days or future years from any question set."""

    family = "invalid_date"
    Options = InvalidDateOptions
    uses_seed_cases = False

    def __init__(self, options: GeneratorOptions | None = None) -> None:
        super().__init__(options)
        self.opts: InvalidDateOptions = self.options  # type: ignore[assignment]

    @property
    def current_year(self) -> int:
        return self.opts.current_year or dt.date.today().year

    def inputs(self, ctx: ForgeContext) -> list[Any]:
        """Every loaded example (the family needs no seed-case selection)."""
        return list(ctx.examples)

    async def forge_one(self, item: Any, ctx: ForgeContext) -> list[TestCase | Skip]:
        return self.forge_example(item, ctx.seed)

    def forge_example(self, example: Example, seed: int = 0) -> list[TestCase | Skip]:
        """One test case per applicable kind, or a Skip when the question has no usable date."""
        made: list[TestCase | Skip] = []
        for kind in dict.fromkeys(self.opts.kinds):
            rng = random.Random(_seed_int(seed, example.id, kind))
            if kind == "invalid_day":
                edit = find_day_edit(example.question, rng, self.opts.max_day)
            else:
                edit = find_year_edit(example.question, rng, self.current_year, self.opts.years_ahead)
            if edit is not None:
                made.append(self._test_case(example, edit))
        if not made:
            wanted = " or ".join(
                "a month and day" if k == "invalid_day" else "a year" for k in self.opts.kinds
            )
            made.append(self.skip(example, f"no date found in the question ({wanted})"))
        return made

    def _test_case(self, example: Example, edit: DateEdit) -> TestCase:
        question = example.question[: edit.start] + edit.new + example.question[edit.end :]
        details = edit.details
        if edit.kind == "invalid_day":
            month = _month_number(details["month"])
            checks = {"date_impossible": date_is_impossible(month, details["new_day"], details["year"])}
        else:
            checks = {"year_in_future": details["new_year"] > self.current_year}
        checks["question_changed"] = question != example.question
        return TestCase(
            id=stable_id(self.family, example.id, edit.kind, question),
            family=self.family,
            question=question,
            reference=edit.reference,
            expected=[],
            original_answers=list(example.answers),
            parent_example=example.id,
            variant=edit.kind,
            edits=[
                Edit(
                    field="question",
                    kind="date",
                    old=edit.old,
                    new=edit.new,
                    start=edit.start,
                    end=edit.end_after,
                )
            ],
            provenance=Provenance(
                fields={
                    "question": FieldProvenance(path="rule", method=edit.kind),
                    "reference": FieldProvenance(path="rule", method=f"{edit.kind}_answer"),
                }
            ),
            checks=checks,
            metadata={
                "original_question": example.question,
                "invalid_question": question,
                "old_text": edit.old,
                "new_text": edit.new,
                "source": example.source,
                **details,
            },
        )


def _seed_int(seed: int, *parts: object) -> int:
    blob = "|".join(str(p) for p in (seed, *parts)).encode("utf-8")
    return int.from_bytes(hashlib.sha256(blob).digest()[:8], "big")


__all__ = [
    "DateEdit",
    "InvalidDate",
    "InvalidDateOptions",
    "date_is_impossible",
    "days_in_month",
    "find_day_edit",
    "find_year_edit",
    "is_leap",
]
