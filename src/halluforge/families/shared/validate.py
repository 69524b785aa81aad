"""Validators for LLM outputs and the rule fallbacks used when an output is rejected.

Every LLM step of a generator is checked here, and every check has a rule that can stand in
for the LLM (DESIGN §4): a tiny generator model must still yield valid test cases. The pieces
are shared by the families that edit evidence (answer swap, counterfactual contexts):

- parsing: :func:`parse_answer` and :func:`parse_passage` clean what a small model writes
  (prefixes such as "Wrong answer:", quotes, trailing periods, explanations after the answer);
- checks, each returning ``(ok, reason)``: :func:`check_differs`, :func:`check_present`,
  :func:`check_absent`, :func:`check_close`, gathered by :func:`swap_checks`;
- fallbacks: :func:`draw_pool_answer` (a same-type answer taken from the dataset's own gold
  answers) and :func:`perturb_answer` (a shifted year or number when the pool has none); the
  evidence fallback, :func:`~halluforge.families.shared.spans.span_replace`, is in
  :mod:`.spans`.

Occurrences are found with :func:`halluforge.textkit.answers.find_answer_spans`, the same matcher the
checks use, so a span replacement never leaves an occurrence that a check would see.
"""

from __future__ import annotations

import difflib
import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from halluforge.families.shared.answer_types import ANSWER_TYPES, AnswerType, classify_answer
from halluforge.families.shared.spans import (
    answer_spans,
    short_form,
)
from halluforge.records import Example
from halluforge.textkit.answers import (
    answer_key,
    contains_answer,
    normalize_answer,
)
from halluforge.textkit.dates import MONTH_NAME_PATTERN, MONTH_NAMES, ordinal_suffix
from halluforge.textkit.stopwords import ARTICLES
from halluforge.textkit.tokens import words

Check = tuple[bool, str]

# -- parsing what a small model writes -------------------------------------------------------

_PREFIX = re.compile(
    r"^\s*(?:"
    # a label: "Wrong answer:", "A:", "New passage -"
    r"(?:(?:the\s+)?(?:wrong|incorrect|false|fake|alternative|new|right|correct|true)\s+(?:answer|span)|"
    r"answer|a|new\s+passage|passage|rewritten\s+passage)\s*[:\-–]|"
    # a sentence: "The wrong answer is", "The answer to this question would be"
    r"(?:the\s+)?(?:(?:wrong|incorrect|false|fake|alternative|new|right|correct|true)\s+)?answer"
    r"(?:\s+to\s+(?:this|the)\s+question)?\s+(?:is|would\s+be|could\s+be)\b\s*:?|"
    r"here\s+is\s+(?:the|a)\s+(?:wrong\s+answer|rewritten\s+passage|new\s+passage)\s*:?"
    r")\s*",
    re.I,
)
_BULLET = re.compile(r"^\s*(?:[-*•]+|\d+[.)])\s+")
_QUOTES = "\"'“”‘’`*_ "
_CLAUSE_END = re.compile(
    r"\s+(?:is|was|would be)\s+(?:incorrect|wrong|not|false)\b|"
    r"\s+(?:because|since|which|as it|as the|but|instead of)\s+|\s+[-–—]\s+|[;(\[]|\.\s+|,\s+(?=[a-z]{3,}\s)"
)
_ABBREV_END = re.compile(r"(?:\b[A-Za-z]\.[A-Za-z]\.|\b(?:Jr|Sr|St|Dr|Mr|Mrs|Ms|Co|Inc|Ltd)\.)$")


def parse_answer(raw: str) -> str:
    """The short answer in a model's output: first line, no prefix, quotes or explanation."""
    lines = [line for line in raw.strip().splitlines() if line.strip()]
    text = lines[0] if lines else ""
    for _ in range(3):
        text = _BULLET.sub("", text).strip(_QUOTES)
        stripped = _PREFIX.sub("", text, count=1)
        if stripped == text:
            break
        text = stripped
    if not text and len(lines) > 1:  # "Wrong answer:" alone on the first line
        return parse_answer("\n".join(lines[1:]))
    clause = _CLAUSE_END.search(text)
    if clause and clause.start() > 0:
        text = text[: clause.start()]
    text = text.strip(_QUOTES + ",:")
    if text.endswith((".", "!", "?")) and not _ABBREV_END.search(text):
        text = text[:-1].rstrip()
    return " ".join(text.strip(_QUOTES).split())


def parse_passage(raw: str) -> str:
    """The passage in a model's rewrite: drop a leading label and wrapping quotes."""
    text = raw.strip()
    first, _, rest = text.partition("\n")
    if rest and first.rstrip().endswith(":") and len(first.split()) <= 8:
        text = rest.strip()
    text = _PREFIX.sub("", text, count=1) if re.match(r"^\s*(?:new\s+)?passage\s*:", text, re.I) else text
    if len(text) > 1 and text[0] in '"“' and text[-1] in '"”':
        text = text[1:-1]
    return text.strip()


# -- checks --------------------------------------------------------------------------------


def _clash(a: str, b: str) -> bool:
    """True when two answers are the same after normalisation or one contains the other."""
    if not answer_key(a) or not answer_key(b):
        return False
    return normalize_answer(a) == normalize_answer(b) or contains_answer(a, b) or contains_answer(b, a)


def check_differs(new: str, gold: Sequence[str]) -> Check:
    """The new answer is not a gold alias, does not contain one and is not contained in one."""
    if not answer_key(new):
        return False, "new answer is empty"
    for alias in gold:
        if _clash(new, alias):
            return False, f"new answer {new!r} overlaps gold answer {alias!r}"
    return True, ""


def near_copy(candidate: str, gold: Sequence[str]) -> bool:
    """A name one or two letters off a gold alias ("Nihon Hidakyo" for "Nihon Hidankyo"): no other answer."""
    key = normalize_answer(candidate)
    return any(difflib.SequenceMatcher(None, key, normalize_answer(g)).ratio() >= 0.85 for g in gold)


def check_present(evidence: str, new: str) -> Check:
    """The new answer occurs in the new evidence."""
    if contains_answer(evidence, new):
        return True, ""
    return False, f"new answer {new!r} is not in the new evidence"


def check_absent(evidence: str, gold: Sequence[str]) -> Check:
    """No gold alias occurs in the new evidence any more."""
    left = [alias for alias in gold if contains_answer(evidence, alias)]
    if left:
        return False, f"gold answer {left[0]!r} still occurs in the new evidence"
    return True, ""


def _mask(text: str, answers: Iterable[str]) -> list[str]:
    """Words of ``text`` with every occurrence of ``answers`` replaced by one marker word."""
    spans = answer_spans(text, answers)
    pieces, last = [], 0
    for start, end in spans:
        pieces.append(text[last:start])
        pieces.append(" \x00 ")
        last = end
    pieces.append(text[last:])
    return "".join(pieces).split()


def _new_forms(gold: Sequence[str], new: str) -> list[str]:
    """The new answer and the short forms span replacement gives it ("Kepler" of "Johannes Kepler")."""
    return [new, *{f for alias in gold if (f := short_form(alias, gold, new)) is not None}]


def similarity(original: str, rewritten: str, gold: Sequence[str], new: str) -> float:
    """Word-level difflib ratio of the two passages with the answer spans masked."""
    before = _mask(original, gold)
    after = _mask(rewritten, _new_forms(gold, new))
    return difflib.SequenceMatcher(None, before, after, autojunk=False).ratio()


def check_close(original: str, rewritten: str, gold: Sequence[str], new: str, threshold: float) -> Check:
    """Apart from the answer, the new evidence stays close to the original (ratio >= threshold)."""
    ratio = similarity(original, rewritten, gold, new)
    if ratio >= threshold:
        return True, ""
    return False, f"evidence changed too much besides the answer (similarity {ratio:.2f} < {threshold:.2f})"


def check_kept(original: str, rewritten: str, gold: Sequence[str], new: str) -> Check:
    """Every word of the original outside the answers survives in the rewrite, in order.

    A model's rewrite may add words (an article, "was") but not drop or change any: a
    similarity ratio alone let "On 14 July 1789 a crowd" become "14 July 1793 A crowd".
    Articles are not counted, since the new answer may need another one.
    """

    def kept_words(text: str, answers: Sequence[str]) -> list[str]:
        found = [w for piece in _mask(text, answers) for w in ([piece] if piece == "\x00" else words(piece))]
        return [w for w in found if w not in ARTICLES]

    rest = iter(kept_words(rewritten, _new_forms(gold, new)))
    for word in kept_words(original, gold):
        if not any(word == r for r in rest):  # consumes ``rest``: an in-order subsequence test
            return False, f"the rewrite dropped or changed the evidence's word {word!r}"
    return True, ""


def swap_checks(
    original: str, rewritten: str, gold: Sequence[str], new: str, threshold: float
) -> dict[str, Check]:
    """Every check of a swapped evidence, by name (the names go into ``TestCase.checks``)."""
    return {
        "differs_from_gold": check_differs(new, gold),
        "new_answer_present": check_present(rewritten, new),
        "gold_absent": check_absent(rewritten, gold),
        "context_close": check_close(original, rewritten, gold, new, threshold),
    }


def first_failure(checks: Mapping[str, Check]) -> str | None:
    """The reason of the first failing check, or None when all pass."""
    for ok, reason in checks.values():
        if not ok:
            return reason
    return None


# -- fallbacks: answers ---------------------------------------------------------------------


def build_answer_pool(examples: Iterable[Example], *, max_words: int = 5) -> dict[AnswerType, list[str]]:
    """The dataset's canonical answers grouped by type (a loader's ``answer_type`` wins), sorted."""
    pool: dict[AnswerType, dict[str, str]] = {t: {} for t in ANSWER_TYPES}
    for example in examples:
        if not example.answers:
            continue
        answer = example.answers[0].strip().strip("\"'“”‘’").strip()  # '“Squid Game”' -> 'Squid Game'
        if not answer_key(answer) or len(answer.split()) > max_words:
            continue
        given = example.metadata.get("answer_type")
        kind: AnswerType = given if given in ANSWER_TYPES else classify_answer(answer, example.question)
        pool[kind].setdefault(normalize_answer(answer), answer)
    return {kind: sorted(found.values()) for kind, found in pool.items()}


def draw_pool_answer(
    answer_type: AnswerType,
    pool: Mapping[AnswerType, Sequence[str]],
    exclude: Sequence[str],
    rng: random.Random,
    *,
    avoid_in: str | None = None,
    like: str | None = None,
    accept: Callable[[str], str | None] | None = None,
) -> str | None:
    """A same-type answer from ``pool`` clashing with no ``exclude`` entry, or None.

    ``avoid_in`` (the original evidence) rules out answers that already occur in it, since
    swapping one in would make the passage repeat or contradict itself. ``like`` keeps only
    answers written in the same shape (:func:`answer_shape`: a full date for a full date, a
    year for a year), so the swapped sentence still reads well. The draw is deterministic for
    a given ``rng`` state. ``accept`` (None: accepted) is a last check, e.g. the sentence's facts.
    """
    shape = answer_shape(like) if like is not None else None
    candidates = sorted(pool.get(answer_type, ()))
    if shape is not None:
        candidates = [answer for answer in candidates if answer_shape(answer) == shape]
    # a seeded shuffle, then the first answer that passes: cheap on a large pool
    for answer in rng.sample(candidates, len(candidates)):
        if any(_clash(answer, gold) for gold in exclude):
            continue
        if avoid_in is not None and contains_answer(avoid_in, answer):
            continue
        if accept is not None and accept(answer) is not None:
            continue
        return answer
    return None


def answer_shape(answer: str) -> str:
    """How an answer is written, without its values: "15 June 1215" and "4 July 1776" -> "0 M 0"."""
    text = _MONTH_RE.sub("M", answer.lower())
    text = _INT_RE.sub("0", text)
    return re.sub(r"[a-z]+", "w", text)


_MONTH_RE = re.compile(rf"\b({MONTH_NAME_PATTERN})\b", re.I)
#: the day of a full date, either way round: "15 August 2021", "August 15, 2021"
_DAY_RE = re.compile(
    rf"(?:\b(?P<day>[0-3]?\d)\s+(?:{MONTH_NAME_PATTERN})\b"
    rf"|\b(?:{MONTH_NAME_PATTERN})\s+(?P<day2>[0-3]?\d)\b)",
    re.I,
)
_WORD_NUMBERS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
_WORD_NUMBER_RE = re.compile(r"\b(" + "|".join(["one", *_WORD_NUMBERS]) + r")\b", re.I)
_INT_RE = re.compile(r"\d{1,3}(?:,\d{3})+|\d+")
_ORDINAL_RE = re.compile(r"^(st|nd|rd|th)")
#: a scale word after a number: "965 million", "2.5 billion"
_SCALE_AFTER = re.compile(r"^(?:\.\d+)?\s+(?:thousand|million|billion|trillion)\b", re.I)


#: a year is shifted by up to this many years; a caller may ask for a nearer year first
YEAR_SPREAD = 30


def _shift(value: int, answer_type: AnswerType, rng: random.Random, years: int = YEAR_SPREAD) -> int:
    if answer_type == "date" and 1000 <= value <= 2100:
        step = rng.randint(min(2, years), years) * rng.choice((-1, 1))
        return value + step if value + step <= 2100 else value - abs(step)
    if value < 13:
        return rng.choice([n for n in range(1, 13) if n != value])
    # a tenth to a quarter off: the passage's other figures (a total, a share, "short of 272")
    # still hold around it; halving or tripling broke them in two of three blind-read numbers
    factor = rng.choice((0.75, 0.8, 0.85, 0.9, 1.1, 1.15, 1.2, 1.25))
    shifted = round(value * factor)
    digits = len(str(shifted))
    if digits > 2:  # keep the original precision: 1,500 -> 3,000, not 2,997
        unit = 10 ** (digits - 2)
        shifted = round(shifted / unit) * unit
    return shifted if shifted != value else value + 1


def perturbable(answer: str) -> bool:
    """Whether :func:`perturb_answer` can shift ``answer`` as a number (digits or one to twelve in words)."""
    return bool(_INT_RE.search(answer) or _WORD_NUMBER_RE.search(answer))


def perturb_answer(
    answer: str, answer_type: AnswerType, rng: random.Random, *, years: int = YEAR_SPREAD
) -> str | None:
    """A changed date or number, or None if none applies.

    A full date moves one or two weeks within its month and so keeps its weekday ("15 August
    2021" -> "8 August 2021"): blind readers of sets 36 and 41 faulted dates moved off the
    weekday their institution keeps (a referendum off its Friday or Saturday, a supreme court
    ruling on a Saturday, a parliament sitting on a Sunday); a
    month and year moves one or two months within the year; a year alone moves up to ``years``
    years; an amount is shifted. Small moves keep the passage's other dates and figures ("later
    that month", "the last troops left on 30 August") true around the new value.
    """
    if answer_type not in ("date", "number"):
        return None
    day = _DAY_RE.search(answer)
    if day and answer_type == "date":
        group = "day" if day.group("day") else "day2"
        value = int(day.group(group))
        # whole weeks keep the weekday: a referendum stays on its Friday, a ruling off a Saturday
        days = [value + step for step in (-14, -7, 7, 14) if 1 <= value + step <= 28]
        if days:
            return answer[: day.start(group)] + str(rng.choice(days)) + answer[day.end(group) :]
    month = _MONTH_RE.search(answer)
    if month:
        current = month.group(1).lower()
        names = [m.lower() for m in MONTH_NAMES]
        at = names.index(current) if current in names else 0
        near = [MONTH_NAMES[i] for i in range(max(0, at - 2), min(12, at + 3)) if i != at]
        other = rng.choice(near or [m for m in MONTH_NAMES if m.lower() != current])
        other = other.lower() if month.group(1).islower() else other
        return answer[: month.start()] + other + answer[month.end() :]
    number = _INT_RE.search(answer)
    if number:
        raw = number.group()
        value = int(raw.replace(",", ""))
        new = _shift(value, answer_type, rng, years)
        rest = answer[number.end() :]
        if _SCALE_AFTER.match(rest) and value < 1000 <= new:
            # "$965 million" up to "$1200 million" is written "$1.2 billion" by everyone, and
            # read blind as an edit: a move down by as much keeps the scale word true
            new = max(1, 2 * value - new)
        text = f"{new:,}" if "," in raw else str(new)
        if _ORDINAL_RE.match(rest):
            rest = ordinal_suffix(new) + rest[2:]
        return answer[: number.start()] + text + rest
    word = _WORD_NUMBER_RE.search(answer)
    if word:
        other = rng.choice([w for w in _WORD_NUMBERS if w != word.group(1).lower()])
        other = other.capitalize() if word.group(1)[0].isupper() else other
        return answer[: word.start()] + other + answer[word.end() :]
    return None


_YEAR_RE = re.compile(r"\b([1-9][0-9]{2}|1[0-9]{3}|20[0-9]{2})\b")


#: a full date's year moves at most this many years (its day and month stay)
YEAR_SHIFT = 10


def shift_year(answer: str, rng: random.Random, *, max_shift: int = YEAR_SHIFT) -> str | None:
    """The date with its (last) year moved 1 to ``max_shift`` years: "9 November 1989" -> "9 November 1986".

    A full date whose year alone is also a gold alias ("1989") needs a new year, not only a new
    month, to differ from every alias; a small shift keeps it believable. None without a year.
    """
    years = list(_YEAR_RE.finditer(answer))
    if not years:
        return None
    year = years[-1]
    value = int(year.group())
    step = rng.randint(1, max_shift) * rng.choice((-1, 1))
    new = value + step if value + step <= 2100 else value - abs(step)
    return answer[: year.start()] + str(new) + answer[year.end() :]


__all__ = [
    "YEAR_SHIFT",
    "YEAR_SPREAD",
    "Check",
    "answer_shape",
    "build_answer_pool",
    "check_absent",
    "check_close",
    "check_differs",
    "check_kept",
    "check_present",
    "draw_pool_answer",
    "first_failure",
    "near_copy",
    "parse_answer",
    "parse_passage",
    "perturb_answer",
    "perturbable",
    "shift_year",
    "similarity",
    "swap_checks",
]
