"""Figures a passage ties the answer to: parts of a sum, a multiple, a rank, shares of a whole, a clock time.

Part of :func:`.conflicts.conflict` for numbers. From the blind reading of sets 50 and 51
(in-sample there): "won 191 seats ... with Komeito, which took 24 seats, the ruling bloc had
215 seats" (any other count breaks the sum), "won 99 seats ..., nearly doubling its tally of
52 seats in 2019" (120 is more than double), "13:58.06 ... under 14 minutes" (10:58.06 moved
the minutes), and a bare "100" put where "98.83 per cent" stood ("100 of voters"). From sets 58
to 63: a share of a count beside other counts of its whole ("8,794,726 votes, or 36.61 per
cent"), a figure the sentence ranks the answer against ("ahead of Pheu Thai, which took 141"),
two shares that would make more than the whole, and counts a list leaves without their unit.
From sets 85 and 87: a total the answer makes with counts of no unit ("27 gold medals ... 58
medals overall, including 14 silver and 17 bronze") and a share the passage's own counts give
("62.07 per cent ... 1,201,607 votes in favour and 734,300 against").
The rules read the passage's own words only.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Sequence

from halluforge.families.shared.numbers import FRACTION_NOUNS, NUMBER_WORD, PER_CENT, number_value
from halluforge.families.shared.passage import is_day, numbers_outside, outside, sentence_of

#: a whole number and the unit word after it: "24 seats", "215 seats", "six seats", "One seat"
#: (set 61, in-sample: Fidesz's 135 of 199 beside 57, "six seats" and "One seat")
_COUNT = re.compile(rf"\b(\d[\d,]*|(?i:{NUMBER_WORD})(?:[\s-]+(?i:{NUMBER_WORD}))*)\s+([a-z]+)\b")
#: a multiple in words, with its factor
_FACTORS = {"doubl": 2.0, "tripl": 3.0, "quadrupl": 4.0, "halv": 0.5}
_MULTIPLE = re.compile(
    r"\b(nearly|almost|more\s+than|over)?\s*(doubl|tripl|quadrupl|halv)(?:ed|ing|e|es)\b", re.I
)
#: a clock time: "13:58.06", "2:01:09", "3:48.68"
_CLOCK = re.compile(r"^\s*(\d{1,2}(?::\d{2}){1,2})(?:\.(\d+))?\s*$")


#: a whole number with no word after it, in a list of counts: "the Bloc Québécois 32 and the New
#: Democratic Party 25, while the Greens took two."
_ELLIPTIC = re.compile(
    rf"(?<![\w,.$€£])(\d{{1,3}}(?:,\d{{3}})+|\d+|(?i:{NUMBER_WORD}))(?![\d,]*\d)"
    r"(?=\s*(?:[,;.)]|$|\s+(?:and|while|with)\b))"
)


def _year_like(text: str, value: float) -> bool:
    """A number written as a year would be ("2019", not "2,019" or "25")."""
    return 1500 <= value <= 2100 and "," not in text


def unit_counts(
    evidence: str, unit: str, spans: Sequence[tuple[int, int]]
) -> list[tuple[float, re.Match[str]]]:
    """The passage's numbers in ``unit`` ("24 seats") outside the answer, with their matches.

    In a sentence that counts in the unit, a whole number with no word after it counts in it
    too ("The Conservatives won 119 seats, the Bloc Québécois 32 and the NDP 25, while the
    Greens took two": set 63, in-sample, where 130 of 338 seats left 30 unaccounted for).
    """
    found = []
    sentences = set()
    for match in _COUNT.finditer(evidence):
        word = match.group(2).lower()
        if outside(spans, *match.span()) and (word == unit or word == unit + "s"):
            value = number_value(match.group(1))
            if value is not None:
                found.append((value, match))
                sentences.add(sentence_of(evidence, match.start()))
    for begin, end in sorted(sentences):
        for match in _ELLIPTIC.finditer(evidence, begin, end):
            value = number_value(match.group(1))
            if value is not None and not _year_like(match.group(1), value) and outside(spans, *match.span()):
                found.append((value, match))
    return found


def _counts(evidence: str, unit: str, spans: Sequence[tuple[int, int]]) -> list[tuple[float, str]]:
    """The passage's whole counts in ``unit`` outside the answer, with their text."""
    return [(v, m.group()) for v, m in unit_counts(evidence, unit, spans) if v == int(v)]


def sum_of_parts(evidence: str, gold: float, unit: str, spans: Sequence[tuple[int, int]]) -> str | None:
    """Two other counts of the answer's unit the answer adds up with (a + gold = b) or to (a + b = gold)."""
    if not unit or gold != int(gold):
        return None
    counts = _counts(evidence, unit, spans)
    for (a, first), (b, second) in itertools.permutations(counts, 2):
        if a + gold == b or (a + b == gold and a < b):
            return f"the passage ties the answer to {first!r} and {second!r} by a sum"
    return None


#: most other numbers a total may add up from with the answer ("27 gold ... 58 medals overall,
#: including 14 silver and 17 bronze"; "71 seats ... the Pirates and Mayors took 37 ... a majority of
#: 108 seats")
_MOST_PARTS = 3
#: a number that is no count of things: a day of a date, a share, an amount of money, a part of
#: a name
_NOT_A_PART_BEFORE = re.compile(r"(?:[$€£¥]\s*|\w-)$")
_NOT_A_PART_AFTER = re.compile(r"^\s*(?:per\s*cent|percent|%)", re.I)


@functools.lru_cache(maxsize=1024)
def total_of_parts(
    evidence: str, gold: float, units: tuple[str, ...], spans: tuple[tuple[int, int], ...]
) -> str | None:
    """A total in one of the answer's ``units`` made by the answer and up to :data:`_MOST_PARTS` counts.

    The parts need not carry the unit: "Japan won 27 gold medals ... 58 medals overall, including
    14 silver and 17 bronze" and "won 71 seats ... the Pirates and Mayors took 37 ... a majority
    of 108 seats" (set 85: every moved count broke the sum, hard to both blind readers; in-sample).
    The units are the word after the answer's number and the noun its answer ends with ("gold",
    "medal"). Days of dates, shares, money and numbers inside a name ("a double-nine set") are
    no parts.
    """
    if gold != int(gold):
        return None
    parts = [
        (value, match.group(), match.start())
        for value, match in numbers_outside(evidence, spans)
        if value == int(value)
        and value > 0
        and not is_day(match)
        and not _NOT_A_PART_BEFORE.search(evidence, 0, match.start())
        and not _NOT_A_PART_AFTER.match(evidence[match.end() :])
    ]
    totals = [found for unit in dict.fromkeys(units) if unit for found in unit_counts(evidence, unit, spans)]
    for total, match in totals:
        near = {sentence_of(evidence, spans[0][0]), sentence_of(evidence, match.start())}
        others = [part for part in parts if part[0] < total and part[2] != match.start()]
        for size in range(1, _MOST_PARTS + 1):
            # a part alone anywhere; several only from the answer's and the total's sentences ("28
            # tiles ... two ends ... from zero to six ... 55 tiles and a double-twelve set has 91")
            pool = others if size == 1 else [p for p in others if sentence_of(evidence, p[2]) in near]
            for chosen in itertools.combinations(pool, size):
                if gold + sum(value for value, _, _ in chosen) == total:
                    named = ", ".join(repr(text) for _, text, _ in chosen)
                    return f"the answer and {named} make the passage's {match.group()!r}"
    return None


#: counts in one sentence that make the answer only when there are at least this many: "The
#: Social Democrats won 206 seats, the CDU/CSU union 197, the Greens 118, ..." (two are
#: :func:`sum_of_parts`'s)
_LEAST_LISTED = 3


@functools.lru_cache(maxsize=1024)
def listed_parts(evidence: str, gold: float, unit: str, spans: tuple[tuple[int, int], ...]) -> str | None:
    """A sentence's counts in the answer's unit that add up to the answer: the answer is their total.

    "had 736 seats ... The Social Democrats won 206 seats, the CDU/CSU union 197, the Greens 118,
    the Free Democrats 92, the AfD 83, Die Linke 39 and the South Schleswig Voters' Association
    one" (set 93, hard to both blind readers in both families; in-sample): 630 and 920 seats no
    longer made the sum.
    """
    if not unit or gold != int(gold):
        return None
    by_sentence: dict[tuple[int, int], list[float]] = {}
    for value, match in unit_counts(evidence, unit, spans):
        by_sentence.setdefault(sentence_of(evidence, match.start()), []).append(value)
    for values in by_sentence.values():
        if len(values) >= _LEAST_LISTED and sum(values) == gold:
            return f"the {len(values)} counts of one sentence add up to the answer"
    return None


#: a majority of a fraction: "a fourth consecutive two-thirds majority" (set 61, in-sample)
FRACTION_MAJORITY = re.compile(r"\b(two|three|four)[\s-]+(thirds|fifths|quarters|fourths)\s+majority\b", re.I)

#: the count a fraction's majority of the whole comes to: "a two-thirds majority of its members,
#: or 68 votes"
_MAJORITY_COUNT = re.compile(r"^[^.;]{0,40}?\b(\d+)\s+(?:votes|seats|members|deputies)\b")


def majority_count(evidence: str, gold: float, new: float) -> str | None:
    """A count the passage gives for a fraction's majority of the answer, that the new whole does not make.

    "The Riigikogu has 101 seats ... requires a two-thirds majority of its members, or 68 votes"
    (set 90, hard to both blind readers; in-sample): 68 is two thirds of 101, rounded up, and no
    more two thirds of 76. The count binds only when the gold whole gives it.
    """
    for fraction in FRACTION_MAJORITY.finditer(evidence):
        count = _MAJORITY_COUNT.match(evidence[fraction.end() :])
        if count is None:
            continue
        parts = FRACTION_NOUNS[fraction.group(2).lower().removesuffix("s")]
        share = (number_value(fraction.group(1)) or 0) / parts
        needed = int(count.group(1))
        if math.ceil(gold * share) == needed and math.ceil(new * share) != needed:
            return f"{new:g} does not make {fraction.group()!r} of {needed} {count.group().split()[-1]}"
    return None


def multiple_of(
    evidence: str, gold: float, new: float, unit: str, spans: Sequence[tuple[int, int]]
) -> str | None:
    """A count the answer's sentence calls a multiple of another that the new one is not.

    "nearly doubling its tally of 52 seats": "nearly" is up to the factor, "more than" up to a
    quarter past it, a plain multiple within a tenth of it.
    """
    if not unit:
        return None
    for start, _ in spans[:1]:
        begin, end = sentence_of(evidence, start)
        sentence_spans = [(s - begin, e - begin) for s, e in spans if begin <= s < end]
        sentence = evidence[begin:end]
        for cue in _MULTIPLE.finditer(sentence):
            factor = _FACTORS[cue.group(2).lower()]
            hedge = (cue.group(1) or "").lower()
            low, high = (
                (0.75 * factor, factor)
                if hedge in ("nearly", "almost")
                else (factor, 1.25 * factor)
                if hedge
                else (0.9 * factor, 1.1 * factor)
            )
            for other, text in _counts(sentence, unit, sentence_spans):
                if other and low <= gold / other <= high and not low <= new / other <= high:
                    return f"{new:g} is not {cue.group().strip()!r} {text!r}"
    return None


#: a count with its unit written next to a share of it: "8,794,726 votes, or 36.61 per cent"
_BIG = r"(\d{1,3}(?:,\d{3})+|\d{4,})"
_COUNT_BEFORE = re.compile(rf"\b{_BIG}\s+([a-z]+)\W{{0,3}}(?:\s*(?:or|and|with|of)\b)?\W*$")
_COUNT_AFTER = re.compile(rf"^\W{{0,3}}(?:\s*(?:or|and|with|from)\b)?\W*{_BIG}\s+([a-z]+)\b")
_SHARE = re.compile(PER_CENT, re.I)


def share_of_counts(
    evidence: str, gold: str, gold_value: float, new: float, spans: Sequence[tuple[int, int]]
) -> str | None:
    """A share of a count the passage gives, beside other counts of its whole, that ``new`` breaks.

    "8,794,726 votes, or 36.61 per cent" with a runner-up's 6,984,520 and a third's 6,101,533:
    the share fixes the total (8,794,726 / 0.3661), and a share above 8,794,726 / 21,880,779
    would make the three counts more than the whole (set 59, in-sample: 45.61 per cent).
    """
    if not _SHARE.search(gold) or not spans or not 0 < gold_value < 100 or not 0 < new < 100:
        return None
    start, end = spans[0]
    begin, finish = sentence_of(evidence, start)
    near = _COUNT_BEFORE.search(evidence[max(begin, start - 40) : start]) or _COUNT_AFTER.match(
        evidence[end : min(finish, end + 40)]
    )
    if near is None:
        return None
    own, unit = number_value(near.group(1)), near.group(2).lower()
    if not own:
        return None
    # "second with 6,984,520 votes and ... third with 6,101,533": the unit left unsaid counts too
    others = [v for v, _ in unit_counts(evidence, unit.removesuffix("s"), spans) if v != own]
    whole = own + sum(others)
    if not others or own / whole * 100 < gold_value - 0.01:  # the gold share itself must fit
        return None
    if new > own / whole * 100:
        count = f"{near.group(1)} {near.group(2)}"
        return f"{new:g} per cent of {count!r} makes the passage's counts of {unit} more than the whole"
    return None


#: a count of thousands or more, in digits: "1,201,607", "734300"
_LARGE = re.compile(r"(?<![\d,.])(\d{1,3}(?:,\d{3})+|\d{4,})(?![\d,]|\.\d)")


@functools.lru_cache(maxsize=1024)
def share_given_by_counts(
    evidence: str, gold: str, gold_value: float, spans: tuple[tuple[int, int], ...]
) -> str | None:
    """A share the passage's counts give: one of two counts over their sum, or over a larger count.

    "62.07 per cent of voters approved ... 1,201,607 votes in favour and 734,300 against" (set 87,
    hard to both blind readers; in-sample): 1,201,607 / 1,935,907 is 62.07 per cent, so no other
    share fits. The counts must give the share to the answer's own precision.
    """
    if not _SHARE.search(gold) or not 0 < gold_value < 100:
        return None
    fraction = re.search(r"\d\.(\d+)", gold)
    decimals = len(fraction.group(1)) if fraction else 0
    tolerance = 0.5 * 10**-decimals
    counts = [
        (value, match.group())
        for match in _LARGE.finditer(evidence)
        if outside(spans, *match.span())
        and (value := number_value(match.group())) is not None
        and not (1000 <= value <= 2100 and "," not in match.group())
    ]
    for (a, first), (b, second) in itertools.permutations(counts, 2):
        for share, how in ((a / (a + b) * 100, "and"), (a / b * 100 if a < b else -1.0, "of")):
            if abs(share - gold_value) <= tolerance:
                return f"the passage's {first!r} {how} {second!r} give the share {gold!r}"
    return None


#: a rank against another figure of the answer's sentence: "finishing first ahead of Pheu Thai,
#: which took 141"
_RANK = re.compile(r"\b(?:ahead\s+of|behind|beating|edging\s+out|trailing)\b", re.I)
#: a figure in digits that is no year
_FIGURE = re.compile(r"(?<![\d,.])(\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\d,])")


def ranked_against(evidence: str, gold: float, new: float, spans: Sequence[tuple[int, int]]) -> str | None:
    """A figure the answer's sentence ranks the answer against, that the new one crosses.

    Set 61 (in-sample, both readers, RECALL): 120 seats "finishing first ahead of Pheu Thai,
    which took 141".
    """
    for start, end in spans[:1]:
        _, finish = sentence_of(evidence, start)
        for cue in _RANK.finditer(evidence, end, finish):
            for figure in _FIGURE.finditer(evidence, cue.end(), finish):
                value = number_value(figure.group(1))
                if value is None or _year_like(figure.group(1), value):
                    continue
                if (gold > value) != (new > value):
                    return f"{new:g} crosses {figure.group()!r}, ranked against the answer by {cue.group()!r}"
                break  # the first figure after the cue is the one ranked
    return None


#: a share in per cent as passages write it: "48.85 per cent", "41.45%", "70 per cent"
PERCENT = re.compile(rf"(?<![\d.,])(\d+(?:\.\d+)?)\s*{PER_CENT}", re.I)


def shares_over_whole(
    evidence: str, gold: str, gold_value: float, new: float, spans: Sequence[tuple[int, int]]
) -> str | None:
    """Another share of the passage that, with the new one, makes more than the whole.

    Set 63 (in-sample, both readers, RECALL): Ruto's "50.49 per cent" became 62.49 beside
    Odinga's "48.85 per cent". A share that already makes more than 100 with the gold one
    (a turnout, a share of another whole) binds nothing. A share of a vote is never more than
    100 per cent on its own (set 67, in-sample, both readers, RECALL: 88.83 became 110.83; not
    measured on a fresh pair).
    """
    if not _SHARE.search(gold):
        return None
    if gold_value <= 100 < new:
        return f"{new:g} per cent is more than the whole"
    for match in PERCENT.finditer(evidence):
        other = float(match.group(1))
        if outside(spans, *match.span()) and gold_value + other <= 100 < new + other:
            return f"{new:g} per cent and the passage's {match.group()!r} make more than the whole"
    return None


def clock_moved(gold: str, new: str) -> str | None:
    """A clock time whose hours or minutes the new one changes: "13:58.06" moves by its seconds only.

    "the first woman to run 5,000 metres in under 14 minutes, clocking 13:58.06": 10:58.06 read
    as a typo to both blind readers of set 51.
    """
    old, fresh = _CLOCK.match(gold), _CLOCK.match(new)
    if old is None or fresh is None:
        return None
    if old.group(1).split(":")[:-1] != fresh.group(1).split(":")[:-1]:
        return f"{new!r} moves the leading parts of the time {gold!r}"
    return None


def unit_dropped(gold: str, new: str) -> str | None:
    """A bare number put where the answer gives a unit: "100" for "98.83 per cent" read "100 of voters"."""
    if re.search(r"[^\d\s.,]", gold) and re.fullmatch(r"\s*[\d.,]+\s*", new) and not _CLOCK.match(gold):
        return f"{new!r} drops the unit of {gold!r}"
    return None


__all__ = [
    "FRACTION_MAJORITY",
    "PERCENT",
    "clock_moved",
    "listed_parts",
    "majority_count",
    "multiple_of",
    "ranked_against",
    "share_given_by_counts",
    "share_of_counts",
    "shares_over_whole",
    "sum_of_parts",
    "total_of_parts",
    "unit_counts",
    "unit_dropped",
]
