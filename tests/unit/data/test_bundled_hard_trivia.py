"""The bundled hard trivia sample for the claims family (ABCD): size, shape, multi-criterion questions."""

from __future__ import annotations

import re

from halluforge.config import DataSource
from halluforge.data.bundled import BUNDLED_FILES, load_bundled
from halluforge.records import Example


def _examples() -> list[Example]:
    return list(load_bundled(DataSource(loader="bundled", path="hard_trivia")))


def test_hard_trivia_is_registered_with_at_least_60_questions() -> None:
    assert "hard_trivia" in BUNDLED_FILES
    examples = _examples()
    assert len(examples) >= 60
    assert len({e.id for e in examples}) == len(examples)
    assert len({e.question.lower() for e in examples}) == len(examples)


def test_every_question_has_gold_answers_a_category_and_no_evidence() -> None:
    for example in _examples():
        assert example.answers and all(a.strip() for a in example.answers), example.id
        assert example.evidence is None
        assert example.metadata["category"] and example.metadata["answer_type"]
        # the question never gives its own answer away
        assert example.answers[0].lower() not in example.question.lower(), example.id


def test_questions_join_several_criteria() -> None:
    joiners = re.compile(r"\b(and|also|which|who|whose|where|with|after|while|then)\b|,", re.IGNORECASE)
    for example in _examples():
        body = example.question.split(" ", 1)[1]  # past the wh-word
        assert joiners.search(body), example.question
        assert example.question.endswith("?")
