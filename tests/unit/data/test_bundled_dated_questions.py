"""The bundled dated questions: each one must give the invalid_date family something to distort."""

from __future__ import annotations

from halluforge.config import DataSource
from halluforge.data.bundled import BUNDLED_FILES, load_bundled
from halluforge.families.invite.invalid_date import InvalidDate, InvalidDateOptions
from halluforge.records import Example, TestCase


def _dated() -> list[Example]:
    return list(load_bundled(DataSource(loader="bundled", path="dated_questions")))


def test_dated_questions_are_registered_and_large_enough() -> None:
    assert "dated_questions" in BUNDLED_FILES
    examples = _dated()
    assert len(examples) >= 40
    assert len({e.id for e in examples}) == len(examples)
    assert all(e.id.startswith("hf-dated-") and e.answers for e in examples)


def test_every_dated_question_yields_an_invalid_date_test_case() -> None:
    generator = InvalidDate(InvalidDateOptions(current_year=2026))
    kinds: dict[str, int] = {"invalid_day": 0, "future_year": 0}
    for example in _dated():
        made = generator.forge_example(example, seed=0)
        cases = [m for m in made if isinstance(m, TestCase)]
        assert cases, f"{example.id}: no date found in {example.question!r}"
        for case in cases:
            assert case.question != example.question
            assert all(case.checks.values()), (example.id, case.checks)
            kinds[str(case.variant)] += 1
    # Both distortions are exercised: about half the questions give a full date, half a year alone.
    assert kinds["invalid_day"] >= 18
    assert kinds["future_year"] >= 18
