"""The invalid_date generator: leap years, month ends, future years, skips, determinism; TriviaQA loader."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from halluforge.config import DataSource
from halluforge.data import LOADERS
from halluforge.errors import DataError
from halluforge.families.invite.invalid_date import (
    InvalidDate,
    date_is_impossible,
    days_in_month,
    find_day_edit,
    find_year_edit,
    ordinal,
)
from halluforge.records import Example, Skip, TestCase


def _forge(question: str, seed: int = 0, **options: object) -> list[TestCase | Skip]:
    generator = InvalidDate.from_config({"current_year": 2026, **options})
    assert isinstance(generator, InvalidDate)
    return generator.forge_example(Example.build(question, ["x"]), seed)


def _new_day(question: str) -> int:
    (case,) = [c for c in _forge(question, kinds=["invalid_day"]) if isinstance(c, TestCase)]
    return int(case.metadata["new_day"])


def test_month_lengths_and_leap_years() -> None:
    assert days_in_month(2, 2000) == 29 and days_in_month(2, 1900) == 28 and days_in_month(2, 2024) == 29
    assert days_in_month(2, 2023) == 28 and days_in_month(2) == 29
    assert days_in_month(4) == 30 and days_in_month(12) == 31
    assert date_is_impossible(2, 29, 1900) and not date_is_impossible(2, 29, 2000)
    assert [ordinal(n) for n in (1, 2, 3, 11, 12, 13, 21, 22, 31, 101)] == [
        "1st", "2nd", "3rd", "11th", "12th", "13th", "21st", "22nd", "31st", "101st"
    ]  # fmt: skip


@pytest.mark.parametrize("seed", range(20))
def test_february_days_respect_leap_years(seed: int) -> None:
    rng = random.Random(seed)
    leap = find_day_edit("What happened on February 12, 2000?", rng, 35)
    plain = find_day_edit("What happened on February 12, 1900?", rng, 35)
    unknown = find_day_edit("Which festival falls on February 12?", rng, 35)
    assert leap is not None and plain is not None and unknown is not None
    assert 30 <= leap.details["new_day"] <= 35  # Feb 29 exists in 2000, so 29 is not used
    assert 29 <= plain.details["new_day"] <= 35  # 1900 is not a leap year: Feb 29 is already impossible
    assert 30 <= unknown.details["new_day"] <= 35  # year unknown: 29 might exist


def test_february_29_of_a_common_year_draws_another_day() -> None:
    for seed in range(10):
        (case,) = _forge("What happened on February 29, 1900?", seed, kinds=["invalid_day"])
        assert isinstance(case, TestCase)
        assert case.metadata["new_day"] != 29 and case.checks["date_impossible"]


@pytest.mark.parametrize(
    ("question", "lowest"),
    [
        ("Who was born on April 30, 1970?", 31),
        ("What began on June 1st?", 31),
        ("What ended on the 31st of December 1999?", 32),
        ("Known as the Ocean State, which state joined the union on May 29, 1790?", 32),
        ("Which offensive began on January 1st. 1950?", 32),
    ],
)
def test_month_ends(question: str, lowest: int) -> None:
    for seed in range(8):
        (case,) = [c for c in _forge(question, seed, kinds=["invalid_day"]) if isinstance(c, TestCase)]
        new_day = case.metadata["new_day"]
        assert lowest <= new_day <= 35
        assert case.checks == {"date_impossible": True, "question_changed": True}
        assert case.metadata["original_question"] == question
        assert case.question != question and case.metadata["month"] in case.question


def test_ordinal_style_is_kept() -> None:
    (case,) = _forge("What began on June 1st?", kinds=["invalid_day"])
    assert isinstance(case, TestCase)
    assert re.search(r"June \d+(st|nd|rd|th)\?", case.question)
    assert "There is no June" in (case.reference or "")


def test_years_move_into_the_future() -> None:
    for seed in range(10):
        cases = _forge("From which club did Liverpool sign Alan Hansen in 1977?", seed)
        (case,) = [c for c in cases if isinstance(c, TestCase)]
        assert case.variant == "future_year"
        year = case.metadata["new_year"]
        assert 2026 < year <= 2026 + 75 and str(year) in case.question and "1977" not in case.question
        assert "has not happened yet" in (case.reference or "")


def test_year_inside_a_full_date_is_not_a_standalone_year() -> None:
    variants = {c.variant for c in _forge("What happened on July 4, 1776?") if isinstance(c, TestCase)}
    assert variants == {"invalid_day"}
    both = {c.variant for c in _forge("Who was crowned on May 3, 1950, and what happened in 1955?")}
    assert both == {"invalid_day", "future_year"}


def test_numbers_that_are_not_years_are_left_alone() -> None:
    assert find_year_edit("Who ran the 1500 metres fastest?", random.Random(0), 2026, 50) is None
    assert find_year_edit("Which 1960s band sang this?", random.Random(0), 2026, 50) is None
    assert find_year_edit("What costs $1999?", random.Random(0), 2026, 50) is None


def test_questions_without_dates_are_skipped_with_reason() -> None:
    (skip,) = _forge("What is the capital of France?")
    assert isinstance(skip, Skip) and "no date found" in skip.reason


def test_determinism() -> None:
    question = "Which treaty was signed on March 3, 1918, and who signed it in 1918?"
    assert _forge(question, 7) == _forge(question, 7)
    draws = {tuple(c.question for c in _forge(question, s)) for s in range(10)}
    assert len(draws) > 1


def _trivia_file(tmp_path: Path) -> Path:
    path = tmp_path / "wikipedia-dev.json"
    data = {
        "Data": [
            {
                "QuestionId": "tc_1",
                "Question": "Which state joined the union on May 29, 1790?",
                "Answer": {"Value": "Rhode Island", "Aliases": ["Rhode Island", "RI"]},
                "EntityPages": [{"Filename": "Rhode_Island.txt"}],
            },
            {"QuestionId": "tc_2", "Question": "Who painted the Mona Lisa?"},
        ],
        "Version": 1.0,
    }
    path.write_text(json.dumps(data))
    (tmp_path / "evidence" / "wikipedia").mkdir(parents=True)
    (tmp_path / "evidence" / "wikipedia" / "Rhode_Island.txt").write_text("Rhode Island is a state.")
    return path


def test_triviaqa_loader(tmp_path: Path) -> None:
    path = _trivia_file(tmp_path)
    loader = LOADERS.get("triviaqa")
    examples = list(loader(DataSource(loader="triviaqa", path=str(path))))
    assert [e.answers for e in examples] == [["Rhode Island", "RI"], []]
    assert examples[0].metadata == {"question_id": "tc_1", "answers_are_aliases": True}
    assert examples[0].evidence is None
    with_evidence = list(
        loader(
            DataSource(
                loader="triviaqa", path=str(path), options={"evidence_dir": str(tmp_path / "evidence")}
            )
        )
    )
    assert with_evidence[0].evidence == "Rhode Island is a state."
    assert len(list(loader(DataSource(loader="triviaqa", path=str(path), limit=1)))) == 1
    generator = InvalidDate.from_config({"current_year": 2026})
    out = [generator.forge_example(e) for e in examples]
    assert isinstance(out[0][0], TestCase) and isinstance(out[1][0], Skip)


def test_triviaqa_loader_errors(tmp_path: Path) -> None:
    loader = LOADERS.get("triviaqa")
    bad = tmp_path / "bad.json"
    bad.write_text('{"Data": [{"QuestionId": "x"}]}')
    with pytest.raises(DataError, match=r"Data\[0\].*Question|Question.*Data\[0\]"):
        list(loader(DataSource(loader="triviaqa", path=str(bad))))
    broken = tmp_path / "broken.json"
    broken.write_text('{"Data": [\n{"Question": "a"},\n{oops}\n]}')
    with pytest.raises(DataError, match=r"broken\.json:3"):
        list(loader(DataSource(loader="triviaqa", path=str(broken))))


def test_triviaqa_json_lines(tmp_path: Path) -> None:
    path = tmp_path / "trivia.jsonl"
    path.write_text(
        json.dumps({"question": "What opened on April 31?", "answer": {"value": "a", "aliases": ["b"]}})
        + "\n"
        + json.dumps({"question_id": "q2", "question": "Who won in 1966?"})
        + "\n"
    )
    examples = list(LOADERS.get("triviaqa")(DataSource(loader="triviaqa", path=str(path))))
    assert [e.answers for e in examples] == [["a", "b"], []]
