"""String-match metrics against a test case's expected answers: EM, token F1 and hit.

These are the QA metrics of SQuAD (Rajpurkar et al., 2016) that ReEval and AutoDebug report
next to entailment accuracy:

- ``em`` (exact match): 1 when the normalised response equals a normalised expected answer.
- ``f1``: the harmonic mean of token precision and recall between the normalised response
  and the best-matching expected answer.
- ``hit``: 1 when an expected answer occurs in the response as whole tokens (the lenient
  "answer appears in the output" check, useful because chat models answer in sentences).

Normalisation is SQuAD's (:func:`halluforge.textkit.answers.normalize_answer`: lowercase, drop
punctuation and the articles a/an/the, collapse spaces). EM and F1 take the best value over
all expected answers (aliases). Chat models often open with "Answer:" or "The answer is",
which would make every such response an EM miss though the answer itself is exact, so EM and
F1 also try the response with such lead-ins stripped (:func:`strip_answer_prefix`) and keep
the better value; ``details["stripped"]`` says when the stripped form was used.

A response that failed gets ``None`` with the reason "response failed"; it is counted as
missing in the summary, never as wrong.
"""

from __future__ import annotations

import re
from collections import Counter

from halluforge.metrics.base import Scorer, ScoreValue
from halluforge.records import Response, TestCase
from halluforge.textkit.answers import contains_answer, normalize_answer

#: lead-ins a chat model puts before its answer; stripped repeatedly from the start
_LEAD_IN = re.compile(
    r"""^\s*(?:
        (?:final\s+|short\s+)?answer\s*[:\-]
      | (?:a|assistant|response)\s*:
      | (?:so\s*,?\s*)?(?:i\s+(?:think|believe)\s+)?the\s+(?:correct\s+|final\s+|short\s+)?answer
        (?:\s+to\s+(?:the|this|your)\s+question)?\s+(?:is|would\s+be)\s*:?
      | in\s+bob['’]?s\s+opinion\s*,?
      | according\s+to\s+(?:bob|the\s+(?:given\s+|provided\s+)?(?:text|context|passage))\s*,
      | based\s+on\s+the\s+(?:given\s+|provided\s+)?(?:text|context|passage|information)\s*,
    )\s*""",
    re.IGNORECASE | re.VERBOSE,
)
FAILED = ScoreValue(None, reason="response failed")
NO_EXPECTED = ScoreValue(None, reason="test case has no expected answers")


def strip_answer_prefix(text: str) -> str:
    """The response without lead-ins such as "Answer:" or "The answer is" (repeatedly)."""
    out = text.strip()
    while True:
        stripped = _LEAD_IN.sub("", out, count=1).strip()
        if stripped == out:
            return out
        out = stripped


def _candidates(text: str) -> list[tuple[str, bool]]:
    """The response as given and, when different, with its lead-ins stripped."""
    stripped = strip_answer_prefix(text)
    return [(text, False)] if stripped == text.strip() else [(text, False), (stripped, True)]


def exact_match(prediction: str, gold: str) -> float:
    """1.0 when both normalise to the same string, else 0.0."""
    return float(normalize_answer(prediction) == normalize_answer(gold))


def token_f1(prediction: str, gold: str) -> float:
    """SQuAD token F1 of two texts after normalisation.

    When either side has no tokens, F1 is 1.0 if both are empty and 0.0 otherwise.
    """
    pred_tokens = normalize_answer(prediction).split()
    gold_tokens = normalize_answer(gold).split()
    if not pred_tokens or not gold_tokens:
        return float(pred_tokens == gold_tokens)
    common = sum((Counter(pred_tokens) & Counter(gold_tokens)).values())
    if common == 0:
        return 0.0
    precision = common / len(pred_tokens)
    recall = common / len(gold_tokens)
    return 2 * precision * recall / (precision + recall)


def is_exact(text: str, answers: list[str] | tuple[str, ...]) -> bool:
    """Whether ``text`` exactly matches some answer the way the ``em`` scorer reads it (lead-ins stripped)."""
    return any(exact_match(form, gold) == 1.0 for form, _ in _candidates(text) for gold in answers)


class _BestOverGolds(Scorer):
    """Shared loop: best value over (response forms) x (expected answers)."""

    def _value(self, prediction: str, gold: str) -> float:
        raise NotImplementedError

    def score(self, case: TestCase, response: Response) -> ScoreValue:
        if response.error is not None:
            return FAILED
        if not case.expected:
            return NO_EXPECTED
        best, best_gold, used_stripped = -1.0, "", False
        for text, stripped in _candidates(response.text):
            for gold in case.expected:
                value = self._value(text, gold)
                if value > best:
                    best, best_gold, used_stripped = value, gold, stripped
        details: dict[str, object] = {"best_expected": best_gold}
        if used_stripped:
            details["stripped"] = True
        return ScoreValue(best, details)


class ExactMatch(_BestOverGolds):
    """SQuAD exact match, best over expected answers, with answer lead-ins stripped."""

    name = "em"

    def _value(self, prediction: str, gold: str) -> float:
        return exact_match(prediction, gold)


class TokenF1(_BestOverGolds):
    """SQuAD token F1, best over expected answers, with answer lead-ins stripped."""

    name = "f1"

    def _value(self, prediction: str, gold: str) -> float:
        return token_f1(prediction, gold)


class Hit(Scorer):
    """1 when an expected answer occurs in the response as whole tokens (normalised)."""

    name = "hit"

    def score(self, case: TestCase, response: Response) -> ScoreValue:
        if response.error is not None:
            return FAILED
        if not case.expected:
            return NO_EXPECTED
        for gold in case.expected:
            if contains_answer(response.text, gold):
                return ScoreValue(1.0, {"matched": gold})
        return ScoreValue(0.0)


__all__ = ["ExactMatch", "Hit", "TokenF1", "exact_match", "is_exact", "strip_answer_prefix", "token_f1"]
