"""Answer swapping: evidence in which the gold answer is replaced by a plausible wrong one.

The attack
    A retrieval-augmented model should answer from the evidence it is given, even when the
    evidence contradicts what it memorised. Answer swapping (Category 1 of AutoDebug and
    ReEval) takes a question the generator model answers correctly with its evidence, asks
    the model for a short, believable, *wrong* answer of the same type, and rewrites the
    evidence so that the wrong answer stands everywhere the gold answer stood, with the rest
    of the passage untouched. The expected answer of the test case is the new one: a model
    that repeats the original answer is going by memory, not by the evidence (a knowledge
    conflict). The papers report large drops for every model, and that attacks forged with one
    model transfer to others; the open-book "faithful" (opinion) prompt of Zhou et al. (2023)
    does not reliably help.

Steps (each LLM step is validated and has a rule fallback, DESIGN §4)
    0. A seed case whose passage restates its answer in a form no swap can change (a count
       derived from other numbers, two names in one sentence, the name explained;
       :func:`~halluforge.families.shared.restatements.restatement`) is skipped with that
       reason: after the swap the passage would contradict itself.
    1. *propose* (template ``answer_swap/propose``): the wrong answer, chosen by the shared
       :class:`~halluforge.families.shared.wrong_answer.WrongAnswer` (RECALL's counterfactual
       answers go through the same checks). A proposal is accepted when it is non-empty, at
       most ``max_answer_words`` words, differs from every gold alias (after SQuAD
       normalisation, neither containing the other), has the gold answer's coarse type, does
       not already occur in the evidence and passes the plausibility check: the gold answer's
       fine kind (a writer for a writer, a river for a river), a date or number within a
       believable window. Up to ``max_attempts`` proposals (the first at temperature 0, later
       ones sampled with a fixed seed). Fallbacks, each passing the same check: a shifted date
       or number; the best-ranked same-kind rival (MiniLM: answers of neighbouring questions
       first, then the dataset's and the bundled lexicon's); the kind pool in a seeded random
       order. Nothing plausible: the seed case is skipped with the reason.
    2. *rewrite* (template ``answer_swap/rewrite``): the new evidence. Accepted when the new
       answer occurs in it, no gold alias does, and the passage with the answers masked is
       at least ``similarity`` close to the original (word-level difflib ratio). Fallback:
       :func:`~halluforge.families.shared.spans.span_replace`. If even that fails the
       checks, the seed case is skipped with the reason.

    The test case records which path produced each field (``provenance.fields``), so a report
    can show the generator model's acceptance rate, and where the gold answer stood in the
    original evidence (first, middle or last third; ReEval Table 14) and how often.

Differences from the papers
    The papers trust the pivot LLM's outputs (ReEval notes Alpaca-7B "sometimes generates
    invalid answers and also fails to replace all the occurrences"); here every output is
    checked, so a 135M model still yields valid test cases, mostly through the fallbacks.
    ReEval's "answer occurs exactly once" filter (used for its position analysis) is the
    ``require_single_occurrence`` option.

Papers
    - Yu, Cheng, Liu, Roth, Gao. *Automatic Hallucination Assessment for Aligned Large
      Language Models via Transferable Adversarial Attacks* (AutoDebug), 2023, §2.1.
    - Yu, Cheng, Liu, Roth. *ReEval: Automatic Hallucination Evaluation for
      Retrieval-Augmented Large Language Models via Transferable Adversarial Attacks*,
      §3.1 and Table 14.
    - Longpre et al. *Entity-Based Knowledge Conflicts in Question Answering*, 2021.
    - Zhou et al. *Context-faithful Prompting for Large Language Models*, 2023.
"""

from __future__ import annotations

import random
import re
from typing import Any, Literal, cast

from pydantic import Field

from halluforge.families.answer_swap import PROMPTS
from halluforge.families.shared.answer_types import classify_answer
from halluforge.families.shared.donors import example_kind
from halluforge.families.shared.real_donors import RealDonorsOption
from halluforge.families.shared.restatements import RESTATED, restatement
from halluforge.families.shared.spans import answer_spans, span_replace
from halluforge.families.shared.validate import (
    Check,
    check_kept,
    first_failure,
    parse_passage,
    similarity,
    swap_checks,
)
from halluforge.families.shared.wrong_answer import (
    NO_PLAUSIBLE,
    WrongAnswer,
    ask_attempt,
)
from halluforge.forge.base import ForgeContext, Generator, GeneratorOptions
from halluforge.knowledge.names import family_name_first
from halluforge.prompts import Template
from halluforge.records import (
    Edit,
    Example,
    FieldProvenance,
    Provenance,
    SeedBucket,
    SeedCase,
    Skip,
    TestCase,
    stable_id,
)
from halluforge.textkit.answers import answer_key

PROPOSE = "answer_swap/propose"
REWRITE = "answer_swap/rewrite"
Position = Literal["first", "middle", "last"]
#: AutoDebug keeps seed cases the generator model answers correctly with the evidence
DEFAULT_BUCKETS: tuple[SeedBucket, ...] = ("closed_right_open_right", "closed_wrong_open_right")


class AnswerSwapOptions(GeneratorOptions):
    """Options of the answer-swap generator (unknown keys are rejected)."""

    buckets: list[SeedBucket] = Field(
        default_factory=lambda: list(DEFAULT_BUCKETS),
        description="seed status buckets to forge from (AutoDebug: open-book correct)",
    )
    require_single_occurrence: bool = Field(
        default=False, description="skip seed cases whose gold answer occurs more than once (ReEval)"
    )
    max_attempts: int = Field(default=2, ge=0, le=10, description="LLM proposals tried before the fallback")
    similarity: float = Field(
        default=0.85, ge=0.0, le=1.0, description="least similarity of the evidence outside the answer"
    )
    max_answer_words: int = Field(default=5, ge=1, description="longest wrong answer accepted, in words")
    neighbours: bool = Field(
        default=True,
        description="draw fallback answers from the examples with the most similar questions (MiniLM; "
        "needs the retrieval extra, else the kind pool is used and the reason recorded)",
    )
    neighbour_min_examples: int = Field(
        default=20, ge=2, description="fewest usable examples for the neighbour path; below it, the kind pool"
    )
    knowledge: bool = Field(
        default=True,
        description="check person and place donors against the offline entity table and the sentence's "
        "facts (role, era, gender, nationality, country), and draw donors from the table",
    )
    invent_people: bool = Field(
        default=True,
        description="swap a person for an invented name of the same nationality and gender (Faker's "
        "names) before any real person; off: real donors only (table, neighbours, dataset)",
    )
    real_donors: RealDonorsOption = Field(
        default="unknown",
        description="when a real answer of the kind (entity table, neighbours, dataset, lexicon, a name the "
        "model proposes) may replace the gold one: 'unknown' (default) only for no person and an answer the "
        "entity table does not know, never a lexicon member (blind readers believed 3 of 89 real swaps); "
        "'always' every time; 'never' never; true/false mean always/never (docs/families/answer_swap.md)",
    )


def answer_position(evidence: str, start: int) -> Position:
    """Which third of the evidence a character offset falls in (ReEval Table 14)."""
    share = start / max(len(evidence), 1)
    if share < 1 / 3:
        return "first"
    return "middle" if share < 2 / 3 else "last"


def _surname(gold: list[str], evidence: str, kind: str) -> list[str]:
    """A person's surname the passage uses on its own ("... Undset wrote"), when no alias gives it.

    Left unswapped it would still state the true answer after the swap; as an alias it takes the
    new person's surname (:func:`~halluforge.families.shared.spans.short_form`). A name its
    stock writes family name first gives its first word ("Zhao Xintong ... Zhao, who had
    beaten"), which the invented name, written the same way, replaces: set 51 skipped two such
    seeds, and the code before issue 26 left "Hong" beside a new name.
    """
    words = gold[0].split()
    if not kind.startswith("person") or len(words) < 2:
        return []
    last = (words[0] if family_name_first(gold[0]) else words[-1]).strip(",.")
    if (
        len(last) < 3
        or not last[:1].isupper()
        or last.endswith(".")
        or any(answer_key(g) == answer_key(last) for g in gold)
    ):
        return []
    rest = evidence.replace(gold[0], " ")
    return [last] if re.search(rf"(?<![\w-]){re.escape(last)}(?![\w-])", rest) else []


class AnswerSwap(Generator):
    """AutoDebug/ReEval Category 1: swap the gold answer in the evidence for a wrong one."""

    family = "answer_swap"
    Options = AnswerSwapOptions
    template_names = (PROPOSE, REWRITE)
    templates_root = PROMPTS

    def __init__(self, options: GeneratorOptions | None = None) -> None:
        super().__init__(options)
        opts = self.opts
        #: the shared wrong-answer checks and fallbacks, configured by this family's options
        self.wrong = WrongAnswer(
            max_answer_words=opts.max_answer_words,
            max_attempts=opts.max_attempts,
            neighbours=opts.neighbours,
            neighbour_min_examples=opts.neighbour_min_examples,
            option_prefix="families.answer_swap",
            knowledge=opts.knowledge,
            invent_people=opts.invent_people,
            real_donors=opts.real_donors,
        )

    @property
    def opts(self) -> AnswerSwapOptions:
        """The options, typed."""
        return cast(AnswerSwapOptions, self.options)

    def input_id(self, item: Any) -> str:
        """Seed-case id (or example id when forging straight from examples)."""
        return str(item.id)

    async def forge_one(self, item: Any, ctx: ForgeContext) -> list[TestCase | Skip]:
        """Forge one answer-swapped test case from a seed case (or an example), or a Skip."""
        example: Example = item.example if isinstance(item, SeedCase) else item
        evidence = example.evidence or ""
        gold = [a for a in example.answers if answer_key(a)]
        if not evidence.strip():
            return [self.skip(item, "the example has no evidence to edit")]
        if not gold:
            return [self.skip(item, "the example has no usable gold answer")]
        spans = answer_spans(evidence, gold)
        if not spans:
            return [self.skip(item, f"gold answer {gold[0]!r} does not occur in the evidence")]
        if self.opts.require_single_occurrence and len(spans) != 1:
            return [
                self.skip(item, f"gold answer occurs {len(spans)} times; require_single_occurrence is on")
            ]
        answer_type = classify_answer(gold[0], example.question)
        table = self.wrong.table()
        kind = example_kind(example, roles=table.occupation_words if table is not None else frozenset())
        gold = gold + _surname(gold, evidence, kind)
        restated = restatement(evidence, gold, kind, example.question)
        if restated is not None:  # any wrong answer would leave the passage contradicting itself
            return [self.skip(item, f"{RESTATED}: {restated}")]
        namesake = self.wrong.namesake(evidence, gold, kind)
        if namesake is not None:
            return [self.skip(item, namesake)]
        rng = random.Random(int(stable_id("answer_swap", ctx.seed, self.input_id(item)), 16))
        templates = self.templates()

        new, expected_prov = await self.wrong.choose(
            example, gold, answer_type, kind, evidence, ctx, rng, templates[PROPOSE]
        )
        if new is None:
            reasons = "; ".join(expected_prov.rejected[-3:]) or "no generator model"
            return [self.skip(item, f"{NO_PLAUSIBLE} of kind {kind}: {reasons}")]

        old = evidence[spans[0][0] : spans[0][1]]
        outcome = await self._rewrite(evidence, gold, old, new, ctx, templates[REWRITE])
        if isinstance(outcome, str):
            return [self.skip(item, f"swapped evidence failed its checks: {outcome}")]
        context, context_prov, checks = outcome
        fit = self.wrong.fit_checks(new, gold, kind, evidence, example.question)
        # the id covers everything that changes the case: the donor, its path and the new passage
        donor = [new, expected_prov.path, expected_prov.method, context]

        return [
            TestCase(
                id=stable_id(self.family, self.input_id(item), self.template_hashes(), donor),
                family=self.family,
                question=example.question,
                context=context,
                expected=[new],
                original_answers=list(example.answers),
                original_context=evidence,
                edits=[Edit.locate("context", "answer", old, new, context)],
                parent_seed=item.id if isinstance(item, SeedCase) else None,
                parent_example=example.id,
                provenance=Provenance(
                    generator_model=ctx.llm.name if ctx.llm is not None else None,
                    template_hashes=self.template_hashes(),
                    fields={"expected": expected_prov, "context": context_prov},
                ),
                checks={name: ok for name, (ok, _) in checks.items()}
                | {"answer_short": len(new.split()) <= self.opts.max_answer_words},
                metadata={
                    "answer_type": answer_type,
                    "answer_kind": kind,
                    "answer_position": answer_position(evidence, spans[0][0]),
                    "occurrences": len(spans),
                    "similarity": round(similarity(evidence, context, gold, new), 4),
                    "fact_checks": fit,
                }
                | ({"invented": found} if (found := self.wrong.invented_from(new)) else {}),
            )
        ]

    def prepare(self, ctx: ForgeContext) -> None:
        """Build the kind pool and the neighbour donors once, before the units are forged."""
        self.wrong.donors(ctx)

    # -- step 2: the new evidence -------------------------------------------------------------

    async def _rewrite(
        self, evidence: str, gold: list[str], old: str, new: str, ctx: ForgeContext, template: Template
    ) -> tuple[str, FieldProvenance, dict[str, Check]] | str:
        """The swapped evidence with its provenance and checks, or the reason it failed."""
        rejected: list[str] = []
        attempts = 0
        if ctx.llm is None:
            rejected.append("no generator model")
        else:
            attempts = 1
            budget = max(48, int(len(evidence.split()) * 1.5) + 24)  # the passage and a little more
            completion = await ask_attempt(
                ctx, template, 0, max_tokens=budget, evidence=evidence, old=old, new=new
            )
            if completion.error is not None:
                rejected.append(f"backend error: {completion.error_type or completion.error}")
            else:
                text = parse_passage(completion.text)
                checks = swap_checks(evidence, text, gold, new, self.opts.similarity)
                kept, why = check_kept(evidence, text, gold, new)
                reason = first_failure(checks) or (None if kept else why)
                if reason is None:
                    return text, FieldProvenance(path="llm", method=REWRITE, attempts=1), checks
                rejected.append(reason)
        text = span_replace(evidence, gold, new)
        checks = swap_checks(evidence, text, gold, new, self.opts.similarity)
        reason = first_failure(checks)
        if reason is not None:
            return reason
        prov = FieldProvenance(path="fallback", method="span_replace", attempts=attempts, rejected=rejected)
        return text, prov, checks


__all__ = ["AnswerSwap", "AnswerSwapOptions", "answer_position"]
