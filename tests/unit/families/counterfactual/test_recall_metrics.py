"""RECALL's metrics against hand-computed toy cases: accuracy parsing, M-Rate, R-Rate (R1, R2, Eq. 3)."""

from __future__ import annotations

import pytest

from halluforge.families.counterfactual.metrics import (
    AnswerConfidence,
    ChoiceAccuracy,
    ErrorDetection,
    MisleadingRate,
    ReappearanceRate,
    parse_choice,
    word_probabilities,
)
from halluforge.family import FAMILIES
from halluforge.metrics.aggregate import aggregate
from halluforge.metrics.joined import Joined
from halluforge.records import Option, Response, Score, TestCase

FAMILIES_ = {"counterfactual": FAMILIES.get("counterfactual")}
OPTIONS = [Option(text="Athens", role="correct"), Option(text="Rome", role="counterfactual")]


def _choice(cid: str) -> TestCase:
    return TestCase(
        id=cid,
        family="counterfactual",
        question="q?",
        context="c",
        format="choice",
        options=OPTIONS,
        variant="qa_a",
    )


def _response(cid: str, setting: str, text: str, model: str = "m") -> Response:
    return Response(id=f"{cid}-{setting}-{model}", test_case_id=cid, model=model, setting=setting, text=text)


@pytest.mark.parametrize(
    ("reply", "index", "how"),
    [
        ("A", 0, "letter"),
        ("(B)", 1, "letter"),
        ("B. Rome", 1, "letter"),
        ("Answer: A", 0, "letter"),
        ("It was Rome.", 1, "text"),
        ("Athens or Rome", None, "both"),
        ("Paris", None, "neither"),
        ("Option B", 1, "letter"),
        ("A battle in Rome", 1, "text"),
        ("A. Rome", None, "conflict"),
        ("C. Rome", 1, "text"),
    ],
)
def test_parse_choice(reply: str, index: int | None, how: str) -> None:
    assert parse_choice(reply, OPTIONS) == (index, how)


def test_accuracy_counts_unparsed_as_wrong_and_says_so() -> None:
    scorer = ChoiceAccuracy()
    case = _choice("c1")
    assert scorer.score(case, _response("c1", "open_book", "A")).value == 1.0
    wrong = scorer.score(case, _response("c1", "open_book", "Rome"))
    assert wrong.value == 0.0 and wrong.details["chosen"] == "counterfactual"
    unparsed = scorer.score(case, _response("c1", "open_book", "I am not sure"))
    assert unparsed.value == 0.0 and unparsed.details["parsed"] is False


def test_error_detection_phrases() -> None:
    scorer = ErrorDetection()
    case = _choice("c1")
    assert (
        scorer.score(case, _response("c1", "open_book", "The context is incorrect; it was Athens.")).value
        == 1.0
    )
    assert scorer.score(case, _response("c1", "open_book", "This contradicts what I know.")).value == 1.0
    assert scorer.score(case, _response("c1", "open_book", "Athens.")).value == 0.0
    # phrasings a model uses that the first rule missed
    for text in (
        "It was built in 1999, which is incorrect.",
        "There is an error in the passage: it was Athens.",
        "The text seems to have a mistake.",
    ):
        assert scorer.score(case, _response("c1", "self_trust", text)).value == 1.0, text
    # ordinary free text and a bare option are no flag
    for text in ("A. Athens", "Keys in one bucket collide, which is handled by chaining."):
        assert scorer.score(case, _response("c1", "open_book", text)).value == 0.0, text
    # repeating the trust-yourself instruction is not flagging the context
    echo = "The context may contain false information. If it contradicts what you know to be true, trust"
    assert scorer.score(case, _response("c1", "self_trust", echo + " your own knowledge. A")).value == 0.0
    # a reply given without the context cannot flag it: not computed, never 0
    blind = scorer.score(case, _response("c1", "closed_book", "That is wrong."))
    assert blind.value is None and "closed_book" in (blind.reason or "")


def _joined(cases: list[TestCase], replies: dict[tuple[str, str], str]) -> Joined:
    responses = [_response(cid, setting, text) for (cid, setting), text in replies.items()]
    by_id = {c.id: c for c in cases}
    scores = []
    for r in responses:
        case = by_id[r.test_case_id]
        if case.format != "choice":
            continue
        value = ChoiceAccuracy().score(case, r)
        scores.append(
            Score(
                id=f"s-{r.id}",
                response_id=r.id,
                test_case_id=r.test_case_id,
                model=r.model,
                setting=r.setting,
                family="counterfactual",
                metric="accuracy",
                value=value.value,
                details=value.details,
            )
        )
    return Joined.build(cases, responses, scores)


def _mean(rows: list[Score]) -> float | None:
    (group,) = aggregate(rows, lambda s: (s.metric,), n_boot=0)
    return group.mean


def test_m_rate_hand_computed() -> None:
    # c1: right without context, wrong edited -> misled; c2: right, right -> not misled;
    # c3: wrong without context -> not in the denominator; c4: never asked without context
    cases = [_choice(c) for c in ("c1", "c2", "c3", "c4")]
    replies = {
        ("c1", "closed_book"): "A",
        ("c1", "open_book"): "B",
        ("c2", "closed_book"): "Athens",
        ("c2", "open_book"): "A",
        ("c3", "closed_book"): "B",
        ("c3", "open_book"): "B",
        ("c4", "open_book"): "B",
    }
    rows = MisleadingRate().derive(_joined(cases, replies), FAMILIES_)
    assert len(rows) == 4 and all(r.metric == "m_rate" for r in rows)
    assert _mean(rows) == pytest.approx(0.5)  # 1 misled of 2 known
    reasons = {r.test_case_id: r.reason for r in rows if r.value is None}
    assert reasons == {
        "c3": "wrong without context (not in the denominator)",
        "c4": "no answer without context",
    }


def test_m_rate_empty_denominator_is_not_computed_never_zero() -> None:
    cases = [_choice("c1")]
    rows = MisleadingRate().derive(
        _joined(cases, {("c1", "closed_book"): "B", ("c1", "open_book"): "B"}), FAMILIES_
    )
    (group,) = aggregate(rows, lambda s: (s.metric,), n_boot=0)
    assert group.mean is None and group.n == 0 and group.missing_reasons


def _textgen(cid: str, domain: str, pairs: list[list[str]], reference: str) -> TestCase:
    return TestCase(
        id=cid,
        family="counterfactual",
        question="write",
        context="edited",
        original_context="original",
        reference=reference,
        format="generation",
        variant="textgen",
        metadata={
            "domain": domain,
            "word_pairs": pairs,
            "edited_words": [e for _, e in pairs],
            "original_words": [o for o, _ in pairs],
        },
    )


def test_r_rate_r1_and_r2_hand_computed() -> None:
    # pairs: (1066 -> 1071) and (hastings -> dover); the reference names both originals
    case = _textgen("t1", "record", [["1066", "1071"], ["hastings", "dover"]], "It was at Hastings in 1066.")
    replies = {
        ("t1", "open_book"): "The battle at Dover in 1066.",
        ("t1", "original_context"): "The battle in 1066.",
    }
    joined = _joined([case], replies)
    r1 = ReappearanceRate().derive(joined, FAMILIES_)
    assert [r.value for r in r1] == [0.0, 1.0]  # 1071 not reproduced, dover reproduced
    bits = {k: r1[1].details[k] for k in ("e_in_pe", "o_in_pe", "o_in_ref", "o_in_po")}
    assert bits == {"e_in_pe": True, "o_in_pe": False, "o_in_ref": True, "o_in_po": False}
    assert _mean(r1) == pytest.approx(0.5)
    # R2: the original word must occur in the original-context output: only 1066 does
    r2 = ReappearanceRate({"reading": "R2"}).derive(joined, FAMILIES_)
    assert [r.value for r in r2] == [0.0, None]
    assert r2[1].reason == "original word not in the original-context output"


def test_r_rate_empty_denominator_and_normalised_form() -> None:
    case = _textgen("t1", "record", [["1066", "1071"]], "No numbers here.")
    rows = ReappearanceRate().derive(_joined([case], {("t1", "open_book"): "1071"}), FAMILIES_)
    (group,) = aggregate(rows, lambda s: (s.metric,), n_boot=0)
    assert group.mean is None and "original word not in the reference" in group.missing_reasons
    # terms, Eq. 3: E-rate 1/2 (one of two edited words reproduced), O-rate 2/4 over the two cases
    t1 = _textgen("t1", "term", [["1959", "1988"], ["hoare", "knuth"]], "Made by Hoare in 1959.")
    t2 = _textgen("t2", "term", [["1827", "1830"], ["ohm", "volta"]], "A law.")
    replies = {("t1", "open_book"): "Knuth made it.", ("t2", "open_book"): "A law."}
    rows = ReappearanceRate().derive(_joined([t1, t2], replies), FAMILIES_)
    assert {r.metric for r in rows} == {"r_rate_norm"}
    assert _mean(rows) == pytest.approx((1 / 4) / (2 / 4))


def test_confidence_reads_word_probabilities() -> None:
    import math

    tokens, logprobs = (
        ["The", " year", " 10", "71", "."],
        [0.0, math.log(0.5), math.log(0.2), math.log(0.4), 0.0],
    )
    assert word_probabilities(tokens, logprobs, ["1071"]) == [pytest.approx(0.3)]
    case = _textgen("t1", "record", [["1066", "1071"]], "ref")
    response = _response("t1", "open_book", "The year 1071.").model_copy(
        update={"tokens": tokens, "token_logprobs": logprobs}
    )
    value = AnswerConfidence().score(case, response)
    assert value.value == pytest.approx((1 + 0.5 + 0.2 + 0.4 + 1) / 5)
    assert (
        value.details["edited_word_prob"] == pytest.approx(0.3)
        and value.details["original_word_prob"] is None
    )
    assert AnswerConfidence().score(case, _response("t1", "open_book", "x")).value is None
