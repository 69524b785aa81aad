"""The premise judge's modes put together: options, combination rules and the scorer.

Modes (``modes`` option): ``rule`` (:mod:`.steps`), ``nli`` (entailment of the reference
answer), ``llm`` (:mod:`.llm`), ``learned`` (:mod:`.learned`). Combination (``combine``):

``any`` (default)
    0 if any computed mode says 0, since each mode catches a different way of rejecting.
``majority``
    the more frequent label; ties 0.
``all``
    0 only if every computed mode says 0.
``learned-with-rule-veto``
    the learned label, except that a rule decision at the engagement or stance step (the
    reply does not engage, or rejects the premise) vetoes a 1; without a learned label, the rule's.

Modes that could not be computed are left out and named in the notes; if none was computed
the value is ``None``.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from halluforge.backends.base import Backend
from halluforge.errors import ConfigError
from halluforge.families.invite import FalsePremiseMetadata
from halluforge.families.invite.judge.base import Judgement, PremiseInput
from halluforge.families.invite.judge.llm import run_llm
from halluforge.families.invite.judge.steps import rule_judge
from halluforge.family import metadata_of
from halluforge.metrics.base import ScoreContext, Scorer, ScoreValue
from halluforge.records import Response, TestCase

MODES = ("rule", "nli", "llm", "learned")
COMBINE_RULES = ("any", "majority", "all", "learned-with-rule-veto")
#: the rule steps whose 0 vetoes a learned 1 under ``learned-with-rule-veto``
VETO_STEPS = ("engagement", "stance")


@dataclass(frozen=True)
class JudgeOptions:
    """Which modes run and how their labels combine (from ``ScoreContext.options``)."""

    modes: tuple[str, ...] = ("rule",)
    combine: str = "any"
    nli_model: str | None = None
    learned_model: str | None = None

    @classmethod
    def from_options(cls, options: Mapping[str, Any], nli_model: str | None = None) -> JudgeOptions:
        """Validate ``modes`` (list or comma string), ``combine``, ``nli_model``, ``learned_model``."""
        raw = options.get("modes", ("rule",))
        modes = tuple(m.strip() for m in (raw.split(",") if isinstance(raw, str) else raw) if m.strip())
        unknown = [m for m in modes if m not in MODES]
        if unknown or not modes:
            raise ConfigError(
                f"premise_judge: unknown modes {unknown or modes!r}", hint=f"choose from {', '.join(MODES)}"
            )
        combine = str(options.get("combine", "any"))
        if combine not in COMBINE_RULES:
            raise ConfigError(
                f"premise_judge: unknown combine rule {combine!r}",
                hint=f"choose from {', '.join(COMBINE_RULES)}",
            )
        learned = options.get("learned_model")
        if "learned" in modes and not learned:
            raise ConfigError(
                "premise_judge: the learned mode needs learned_model",
                hint="train one with `halluforge judge train FILES --out DIR` and pass --learned-model DIR",
            )
        return cls(
            modes=modes,
            combine=combine,
            nli_model=options.get("nli_model") or nli_model,
            learned_model=str(learned) if learned else None,
        )


def combine(labels: Mapping[str, int | None], rule: str = "any", *, rule_veto: bool = False) -> int | None:
    """Combine per-mode labels; modes with ``None`` (not computed) are left out.

    ``rule_veto`` says the rule decided 0 at a veto step (used by ``learned-with-rule-veto``).
    """
    values = [v for v in labels.values() if v is not None]
    if not values:
        return None
    if rule == "any":
        return min(values)
    if rule == "all":
        return max(values)
    if rule == "majority":
        return 1 if sum(values) * 2 > len(values) else 0
    if rule == "learned-with-rule-veto":
        learned = labels.get("learned")
        if learned is None:
            return labels.get("rule")
        return 0 if rule_veto else learned
    raise ConfigError(f"unknown combine rule {rule!r}", hint=f"choose from {', '.join(COMBINE_RULES)}")


async def ajudge_premise(
    inputs: Sequence[PremiseInput], options: JudgeOptions, *, judge: Backend | None = None
) -> list[Judgement]:
    """Judge many responses with every selected mode; batches NLI, learned and judge-model calls."""
    per_mode: list[dict[str, int | None]] = [{} for _ in inputs]
    notes: list[dict[str, Any]] = [{} for _ in inputs]
    vetoes = [False] * len(inputs)
    if "rule" in options.modes or options.combine == "learned-with-rule-veto":
        for i, item in enumerate(inputs):
            verdict = rule_judge(
                item.question, item.response, entities=item.entities, invalid=item.invalid,
                valid_answers=item.valid_answers,
            )  # fmt: skip
            if "rule" in options.modes:
                per_mode[i]["rule"] = verdict.label
            notes[i]["rule_step"], notes[i]["rule_reason"] = verdict.step, verdict.reason
            if verdict.split:
                notes[i]["rule_split"] = verdict.split
            if verdict.knowledge:
                notes[i]["rule_knowledge"] = verdict.knowledge
            vetoes[i] = verdict.label == 0 and verdict.step in VETO_STEPS
    if "nli" in options.modes:
        _run_nli(inputs, options, per_mode, notes)
    if "learned" in options.modes and options.learned_model:
        from halluforge.families.invite.judge.learned import load_learned

        model = load_learned(options.learned_model)
        for i, (label, prob) in enumerate(model.predict(inputs)):
            per_mode[i]["learned"] = label
            notes[i]["learned_probability"] = round(prob, 4)
    if "llm" in options.modes:
        await run_llm(inputs, judge, per_mode, notes)
    return [
        Judgement(combine(labels, options.combine, rule_veto=veto), labels, note)
        for labels, note, veto in zip(per_mode, notes, vetoes, strict=True)
    ]


def judge_premise(
    inputs: Sequence[PremiseInput], options: JudgeOptions, *, judge: Backend | None = None
) -> list[Judgement]:
    """Synchronous :func:`ajudge_premise` (not for use inside a running event loop)."""
    return asyncio.run(ajudge_premise(inputs, options, judge=judge))


def _run_nli(
    inputs: Sequence[PremiseInput],
    options: JudgeOptions,
    per_mode: list[dict[str, int | None]],
    notes: list[dict[str, Any]],
) -> None:
    if not options.nli_model:
        for labels, note in zip(per_mode, notes, strict=True):
            labels["nli"] = None
            note["nli"] = "not computed: no NLI model given (set nli_model to a hub id or local folder)"
        return
    from halluforge.metrics.nli import load_nli  # shared loader: one model per process

    model = load_nli(options.nli_model)
    todo = [i for i, item in enumerate(inputs) if re.search(r"\w", item.response) and item.reference]
    results = model.entails([(inputs[i].response, inputs[i].reference) for i in todo])
    for i, item in enumerate(inputs):
        if not re.search(r"\w", item.response):
            per_mode[i]["nli"], notes[i]["nli"] = 0, "empty response"
        elif not item.reference:
            per_mode[i]["nli"], notes[i]["nli"] = None, "not computed: no reference answer"
    for i, (entailed, prob) in zip(todo, results, strict=True):
        per_mode[i]["nli"] = 0 if entailed else 1
        notes[i]["nli_entailment"] = round(prob, 4)


# ---------------------------------------------------------------- scorer


def premise_input(case: TestCase, response: Response) -> PremiseInput:
    """Build the judge input from a test case: swapped entity and impossible date from what it records.

    The swapped entity is what a false-premise case records (``swapped_entity``; older cases may
    have ``new_entity``, or a list); an invalid-date case has none.
    """
    meta = FalsePremiseMetadata.of(case)
    swapped: Any = meta.swapped_entity or (meta.model_extra or {}).get("new_entity")
    entities = tuple(swapped) if isinstance(swapped, list) else ((str(swapped),) if swapped else ())
    invalid = tuple(e.new for e in case.edits if e.kind == "date" and e.new)
    reference = case.reference or (case.expected[0] if case.expected else "")
    valid_answers = tuple(case.original_answers) if invalid else ()
    return PremiseInput(case.question, response.text, reference, entities, invalid, valid_answers)


class PremiseJudge(Scorer):
    """``premise_judge``: 1 when the response went along with the false premise; mean = hallucination rate."""

    name: ClassVar[str] = "premise_judge"
    owned: ClassVar[bool] = True
    higher_is_better: ClassVar[bool] = False
    #: INVITE Table 2: the rate per category, model and setting, both INVITE families pooled
    group_by: ClassVar[tuple[str, ...]] = ("category", "model", "setting")
    option_names: ClassVar[tuple[str, ...]] = ("modes", "combine", "nli_model", "learned_model")

    def __init__(self, ctx: ScoreContext | None = None) -> None:
        super().__init__(ctx)
        self.options = JudgeOptions.from_options(self.ctx.options, self.ctx.nli_model)

    @classmethod
    def check_config(cls, options: Mapping[str, Any], *, has_judge: bool) -> None:
        """Refuse unknown keys and modes, and the ``llm`` mode without a judge model to run it."""
        super().check_config(options, has_judge=has_judge)
        parsed = JudgeOptions.from_options(options)
        if "llm" in parsed.modes and not has_judge:
            raise ConfigError(
                "the llm mode needs a judge model, and models.judge is not set",
                hint="set models.judge (e.g. llamacpp/smollm2-135m) or drop 'llm' from modes",
            )

    async def ascore_batch(self, pairs: Sequence[tuple[TestCase, Response]]) -> list[ScoreValue]:
        """Judge a batch; a response that failed (error set) is not judged."""
        ok = [i for i, (_, response) in enumerate(pairs) if response.error is None]
        judged = await ajudge_premise(
            [premise_input(*pairs[i]) for i in ok], self.options, judge=self.ctx.judge
        )
        out = [ScoreValue(None, reason="response has an error") for _ in pairs]
        for i, judgement in zip(ok, judged, strict=True):
            details: dict[str, Any] = {"modes": dict(judgement.per_mode), "combine": self.options.combine}
            details.update(judgement.notes)
            category = metadata_of(pairs[i][0]).category or pairs[i][0].variant
            if category:
                details["category"] = category
            value = None if judgement.label is None else float(judgement.label)
            out[i] = ScoreValue(value, details)
        return out

    def score_batch(self, pairs: Sequence[tuple[TestCase, Response]]) -> list[ScoreValue]:
        """Synchronous entry (outside an event loop)."""
        return asyncio.run(self.ascore_batch(pairs))

    def score(self, case: TestCase, response: Response) -> ScoreValue:
        """Judge one response."""
        return self.score_batch([(case, response)])[0]
