"""EM, token F1 and hit under SQuAD conventions."""

from __future__ import annotations

import pytest

from halluforge.metrics import SCORERS, ScoreValue
from halluforge.metrics.match import ExactMatch, Hit, TokenF1, exact_match, strip_answer_prefix, token_f1
from halluforge.records import Response, TestCase


def _case(*expected: str) -> TestCase:
    return TestCase(id="c1", family="answer_swap", question="Where is the tower?", expected=list(expected))


def _response(text: str, error: str | None = None) -> Response:
    return Response(
        id="r1", test_case_id="c1", model="mock/echo", setting="open_book", text=text, error=error
    )


def _em(text: str, *expected: str) -> ScoreValue:
    return ExactMatch().score(_case(*expected), _response(text))


@pytest.mark.parametrize(
    ("prediction", "gold", "value"),
    [
        ("The Eiffel Tower", "eiffel tower", 1.0),  # article and case
        ("Eiffel tower!!", "The Eiffel Tower.", 1.0),  # punctuation
        ("  eiffel   tower ", "Eiffel Tower", 1.0),  # whitespace
        ("An apple", "apple", 1.0),
        ("Eiffel", "Eiffel Tower", 0.0),
        ("", "Paris", 0.0),  # empty output
        ("Answer: Lyon", "Lyon", 1.0),  # lead-in stripped
        ("The answer is Lyon.", "Lyon", 1.0),
        ("Answer: The answer is: Lyon", "Lyon", 1.0),  # repeated lead-ins
        ("Lyon is the answer", "Lyon", 0.0),  # EM stays strict about trailing words
    ],
)
def test_exact_match_cases(prediction: str, gold: str, value: float) -> None:
    assert _em(prediction, gold).value == value


def test_exact_match_takes_best_over_multiple_golds() -> None:
    result = _em("NYC", "New York City", "NYC")
    assert result.value == 1.0
    assert result.details["best_expected"] == "NYC"


def test_exact_match_helper_ignores_articles_only() -> None:
    assert exact_match("the cat", "a cat") == 1.0
    assert exact_match("cats", "cat") == 0.0


def test_f1_by_hand() -> None:
    # "paris capital of france": 4 tokens ("the" dropped), overlap 1 -> p=1/4, r=1 -> f1=0.4
    assert token_f1("Paris, the capital of France", "Paris") == pytest.approx(0.4)
    assert token_f1("new york", "new york city") == pytest.approx(2 * 1 * (2 / 3) / (1 + 2 / 3))
    assert token_f1("", "Paris") == 0.0
    assert token_f1("the", "a") == 1.0  # both normalise to no tokens


def test_f1_repeated_tokens_count_once_per_match() -> None:
    # prediction [paris, paris], gold [paris] -> common 1, p = 1/2, r = 1 -> 2/3
    assert token_f1("Paris Paris", "Paris") == pytest.approx(2 / 3)


def test_f1_scorer_best_over_golds_and_strips_lead_in() -> None:
    case = _case("Berlin", "New York City")
    value = TokenF1().score(case, _response("The answer is New York"))
    # stripped "New York" vs "New York City": p=1, r=2/3 -> 0.8
    assert value.value == pytest.approx(0.8)
    assert value.details == {"best_expected": "New York City", "stripped": True}


@pytest.mark.parametrize(
    ("output", "value"),
    [
        ("I think it is in Lyon, France.", 1.0),
        ("LYON", 1.0),
        ("It is in Lyonnais country.", 0.0),  # not on a token boundary
        ("", 0.0),
        ("Paris", 0.0),
    ],
)
def test_hit_cases(output: str, value: float) -> None:
    assert Hit().score(_case("Lyon"), _response(output)).value == value


def test_hit_any_gold_and_articles() -> None:
    result = Hit().score(_case("Kraków", "the city of Krakow"), _response("It was the City of Krakow."))
    assert result.value == 1.0


def test_failed_response_gets_none_with_reason() -> None:
    failed = _response("", error="timeout")
    for scorer in (ExactMatch(), TokenF1(), Hit()):
        value = scorer.score(_case("Lyon"), failed)
        assert value.value is None
        assert value.reason == "response failed" and value.details == {}


def test_no_expected_answers_is_not_scored_and_not_applicable() -> None:
    case = _case()
    assert not ExactMatch().applies_to(case)
    assert ExactMatch().score(case, _response("x")).value is None


def test_strip_answer_prefix_keeps_plain_answers() -> None:
    assert strip_answer_prefix("Answer is overrated") == "Answer is overrated"
    assert strip_answer_prefix("In Bob's opinion, Lyon") == "Lyon"
    assert strip_answer_prefix("A: 1871") == "1871"
    assert strip_answer_prefix("Apple") == "Apple"


def test_registered_names_load_these_classes() -> None:
    assert SCORERS.get("em") is ExactMatch
    assert SCORERS.get("f1") is TokenF1
    assert SCORERS.get("hit") is Hit


def test_batch_scores_match_single_scores() -> None:
    pairs = [(_case("Lyon"), _response("Lyon")), (_case("Lyon"), _response("Paris"))]
    assert [v.value for v in ExactMatch().score_batch(pairs)] == [1.0, 0.0]
