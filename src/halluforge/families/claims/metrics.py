"""Scorers and the ``score_t`` metric of the ``claims`` family (ABCD, Balepur et al. 2023, §3.2).

**Verdict parsing** (:func:`parse_verdict`). A "True or False: <claim>" reply is read as
``true``, ``false`` or ``idk`` (no answer). ABCD App. A.2 lower-cases the reply and looks for
the substring "true", then "false", else IDK, and maps a reply that says "False." and then
states the claim as fact to true. ``paper`` mode is that rule read literally. ``robust`` mode
(the default) reads whole words and takes the first verdict word ("not true" and "untrue" are
false, "yes"/"correct" true and "no"/"incorrect" false when they open the reply), keeps the
special case (a "false" followed by the claim restated without a negation is true) and reads a
reply with no verdict word that restates the claim as true (false when it negates it).
Refusals and "I'm not sure" are IDK.

**Scorers** (one score per item, ``Score.item`` = claim id): ``claim_verdict`` for the claims
filled with the target's answer (turns ``claim:``), ``gt_claim_verdict`` for the ground-truth
variant (turns ``gt:``), and ``whole_verdict`` for the whole-question baseline (turn
``whole``). A verdict scores 1 when true, 0 when false or IDK (IDK stays in the denominator);
``details["verdict"]`` keeps which. A claim whose tag the target never named is IDK with the
reason.

**``score_t``** (derived, one row per answer): ``score_T(C, a) = 1/(n-1) * sum_{i>=2} 1[C_tf(i)
= true]``, the share of non-type claims judged true; undefined (``None``) when the case has one
claim only or a verdict is missing. It also writes ``score_t_gt``, the same over the
ground-truth variant, and puts the answer's correctness (``correct_by``: ``hit`` by default,
or ``em``/``entail``) and the whole-question verdict in its details for Table 1, Table 3 and
the AUROC (:mod:`halluforge.families.claims.stats`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from halluforge.families.claims import CLAIM_TURN, GOLD_CLAIM_TURN, WHOLE_TURN, ClaimsMetadata
from halluforge.metrics.base import Scorer, ScoreValue
from halluforge.metrics.joined import Joined
from halluforge.metrics.layer import Metric, derived_score
from halluforge.plans import turn_item
from halluforge.records import Response, Score, TestCase
from halluforge.textkit.overlap import restates

Verdict = Literal["true", "false", "idk"]
ParseMode = Literal["robust", "paper"]
VERDICT_VALUE: dict[Verdict, float] = {"true": 1.0, "false": 0.0, "idk": 0.0}
#: where a verdict score keeps which verdict it read (:func:`verdict_of`)
VERDICT_KEY = "verdict"
_NEGATION = re.compile(
    r"\b(not|never|no|none|neither|nor|cannot|didn't|doesn't|isn't|wasn't|aren't|weren't)\b|n't\b"
)
_OPENERS = re.compile(r"^\W*(?:(?:answer|verdict|response)\s*:\s*)?\W*(yes|correct|no|incorrect|wrong)\b")
_VERDICT_WORD = re.compile(r"\b(not\s+(?:true|false)|untrue|true|false)\b")
_PROMPT_HEAD = re.compile(r"^\s*true\s+or\s+false\s*[:?]\s*", re.IGNORECASE)
#: share of a claim's content words a reply must carry to restate it
RESTATES_CLAIM = 0.8


def _negates(reply: str, claim: str) -> bool:
    """A negation in the reply that the claim itself does not have."""
    return len(_NEGATION.findall(reply.lower())) > len(_NEGATION.findall(claim.lower()))


def parse_verdict(reply: str, claim: str = "", mode: ParseMode = "robust") -> Verdict:
    """``true``, ``false`` or ``idk`` for a "True or False" reply (see the module docstring)."""
    text = reply.lower().replace("’", "'")
    if mode == "paper":
        if "true" in text:
            return "true"
        if "false" in text:
            after = text.split("false", 1)[1]
            return "false" if not (claim and restates(after, claim, share=RESTATES_CLAIM)) else "true"
        return "idk"
    opener = _OPENERS.match(text)
    found = _VERDICT_WORD.search(text)
    if opener and (found is None or opener.start(1) < found.start()):
        return "true" if opener.group(1) in {"yes", "correct"} else "false"
    if found is None:
        if claim and restates(text, claim, share=RESTATES_CLAIM):
            return "false" if _negates(text, claim) else "true"
        return "idk"
    word = re.sub(r"\s+", " ", found.group(1))
    if word in {"true", "not false"}:
        return "true"
    if word == "false" and claim:
        after = text[found.end() :]
        if restates(after, claim, share=RESTATES_CLAIM) and not _negates(after, claim):
            return "true"  # "False. <the claim stated as fact>" (ABCD App. A.2)
    return "false"


def claim_of(response: Response) -> str:
    """The claim a verification turn asked about (its prompt without "True or False:")."""
    return _PROMPT_HEAD.sub("", response.prompt).strip()


def unfilled(case: TestCase, claim: str) -> list[str]:
    """The case's tags still left in a filled-in claim."""
    return [t for t in ClaimsMetadata.of(case).tags if t in claim]


def verdict_of(score: Score) -> Verdict | None:
    """The verdict a ``*_verdict`` score read from its reply (None for other scores)."""
    found = score.details.get(VERDICT_KEY)
    return found if found in VERDICT_VALUE else None


class ClaimVerdict(Scorer):
    """``claim_verdict``: 1 when the target judges a claim (filled with its own answer) true."""

    name: ClassVar[str] = "claim_verdict"
    owned: ClassVar[bool] = True
    turns: ClassVar[str | None] = CLAIM_TURN

    def score(self, case: TestCase, response: Response) -> ScoreValue:
        item = turn_item(response.turn)
        claim = claim_of(response)
        details: dict[str, Any] = {"type_claim": item == ClaimsMetadata.of(case).type_claim}
        missing = unfilled(case, claim)
        if missing:
            return ScoreValue(0.0, {**details, VERDICT_KEY: "idk"}, reason=f"unfilled tag(s) {missing}")
        mode: ParseMode = "paper" if self.ctx.options.get("parse_mode") == "paper" else "robust"
        verdict = parse_verdict(response.text, claim, mode)
        return ScoreValue(VERDICT_VALUE[verdict], {**details, VERDICT_KEY: verdict})


class GroundTruthClaimVerdict(ClaimVerdict):
    """``gt_claim_verdict``: the same claims filled with the gold answer, judged by the same target."""

    name: ClassVar[str] = "gt_claim_verdict"
    turns: ClassVar[str | None] = GOLD_CLAIM_TURN


class WholeVerdict(Scorer):
    """``whole_verdict``: 1 when the target says its answer is correct for the whole question (baseline)."""

    name: ClassVar[str] = "whole_verdict"
    owned: ClassVar[bool] = True
    turns: ClassVar[str | None] = WHOLE_TURN

    def score(self, case: TestCase, response: Response) -> ScoreValue:
        mode: ParseMode = "paper" if self.ctx.options.get("parse_mode") == "paper" else "robust"
        verdict = parse_verdict(response.text, "", mode)
        return ScoreValue(VERDICT_VALUE[verdict], {VERDICT_KEY: verdict})


def score_t(
    verdicts: Mapping[str, float | None], claim_ids: list[str], type_claim: str
) -> tuple[float | None, str]:
    """``(score_T, reason)``: the mean verdict over the non-type claims, or None with why not."""
    counted = [c for c in claim_ids if c != type_claim]
    if not counted:
        return None, "undefined: no claim besides the type claim"
    values = [verdicts.get(c) for c in counted]
    if any(v is None for v in values):
        return None, "a verdict is missing (failed response)"
    return sum(v for v in values if v is not None) / len(counted), ""


@dataclass(frozen=True)
class AnswerFigures:
    """What a ``score_t`` row records about its answer: correctness (by which metric) and the baseline."""

    correct: float | None
    correct_by: str
    whole: float | None
    n_claims: int

    @classmethod
    def of(cls, score: Score) -> AnswerFigures:
        """The figures stored in a ``score_t`` or ``score_t_gt`` row's details."""
        found = score.details

        def number(key: str) -> float | None:
            value = found.get(key)
            return None if value is None else float(value)

        return cls(
            number("correct"),
            str(found.get("correct_by", "")),
            number("whole"),
            int(found.get("n_claims", 0)),
        )

    def details(self) -> dict[str, Any]:
        """As stored in a row's details."""
        return {
            "correct": self.correct,
            "correct_by": self.correct_by,
            "whole": self.whole,
            "n_claims": self.n_claims,
        }


class ScoreT(Metric):
    """``score_t`` and ``score_t_gt`` per answer of a ``claims`` case (see the module docstring)."""

    name: ClassVar[str] = "score_t"
    requires: ClassVar[tuple[str, ...]] = ("score:claim_verdict", "score:gt_claim_verdict", "score:hit")
    single_output: ClassVar[bool] = False

    @property
    def correct_by(self) -> str:
        """The scorer that says whether an answer is correct (``hit`` by default)."""
        return str(self.options.get("correct_by", "hit"))

    def requirements(self) -> tuple[str, ...]:
        """The verdicts, and the scorer ``correct_by`` names (answers without it get no row)."""
        return ("score:claim_verdict", "score:gt_claim_verdict", f"score:{self.correct_by}")

    def derive(self, joined: Joined, families: Mapping[str, Any]) -> list[Score]:
        correct_by = self.correct_by
        # (case, model, setting) -> metric -> item -> value
        verdicts: dict[tuple[str, str, str], dict[str, dict[str, float | None]]] = defaultdict(
            lambda: defaultdict(dict)
        )
        firsts: dict[tuple[str, str, str], Score] = {}
        for score in joined.scores:
            spec = families.get(score.family)
            if spec is None or self.name not in spec.metrics:
                continue
            key = (score.test_case_id, score.model, score.setting)
            if score.metric in {"claim_verdict", "gt_claim_verdict"} and score.item:
                verdicts[key][score.metric][score.item] = score.value
            elif score.metric in {correct_by, "whole_verdict"}:
                verdicts[key][score.metric][""] = score.value
                response = joined.responses.get(score.response_id)
                if score.metric == correct_by and response is not None and not response.turn:
                    firsts[key] = score
        out: list[Score] = []
        for key, first in sorted(firsts.items()):
            case = joined.cases.get(key[0])
            if case is None:
                continue
            ids = [c.id for c in case.claims]
            type_claim = ClaimsMetadata.of(case).type_claim
            found = verdicts[key]
            figures = AnswerFigures(
                found[correct_by].get(""), correct_by, found["whole_verdict"].get(""), len(ids)
            )
            source = first.model_copy(update={"item": None})
            for metric, scorer in (("score_t", "claim_verdict"), ("score_t_gt", "gt_claim_verdict")):
                value, reason = score_t(found[scorer], ids, type_claim)
                row_details = {**figures.details(), "verdicts": dict(found[scorer])}
                inputs = [
                    metric,
                    str(sorted(found[scorer].items())),
                    str(figures.correct),
                    str(figures.whole),
                ]
                out.append(
                    derived_score(
                        self.name, metric, source, value, row_details, inputs=inputs, reason=reason or None
                    )
                )
        return out


__all__ = [
    "VERDICT_KEY",
    "VERDICT_VALUE",
    "AnswerFigures",
    "ClaimVerdict",
    "GroundTruthClaimVerdict",
    "ParseMode",
    "ScoreT",
    "Verdict",
    "WholeVerdict",
    "claim_of",
    "parse_verdict",
    "score_t",
    "unfilled",
    "verdict_of",
]
