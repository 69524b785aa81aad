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
       :func:`halluforge.families.shared.restatements.restatement`) is skipped with that reason: after
       the swap the passage would contradict itself.
    1. *propose* (template ``answer_swap/propose``): the wrong answer. Accepted when it is
       non-empty, at most ``max_answer_words`` words, differs from every gold alias (after
       SQuAD normalisation, neither containing the other), has the gold answer's coarse type
       (:mod:`halluforge.families.shared.answer_types`), does not already occur in the evidence and passes
       the plausibility check (:meth:`AnswerSwap.implausible`): the gold answer's fine kind
       (:mod:`halluforge.families.shared.kinds`: a writer for a writer, a river for a river), a date or
       number within a believable window. Up to ``max_attempts`` proposals (the first at
       temperature 0, later ones sampled with a fixed seed). Fallbacks, each passing the same
       check (:mod:`halluforge.families.shared.donors`): a shifted date or number; the best-ranked
       same-kind rival (MiniLM: answers of neighbouring questions first, then the dataset's and
       the bundled lexicon's); the kind pool in a seeded random order. Nothing plausible: the
       seed case is skipped with the reason.
    2. *rewrite* (template ``answer_swap/rewrite``): the new evidence. Accepted when the new
       answer occurs in it, no gold alias does, and the passage with the answers masked is
       at least ``similarity`` close to the original (word-level difflib ratio). Fallback:
       :func:`~halluforge.families.shared.validate.span_replace`. If even that fails the checks, the
       seed case is skipped with the reason.

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
from collections.abc import Callable, Sequence
from typing import Any, Literal, cast

from pydantic import Field

from halluforge.errors import BackendError
from halluforge.families.shared.answer_types import (
    AnswerType,
    classify_answer,
    describe,
    form_type,
    looks_like_name,
)
from halluforge.families.shared.conflicts import conflict
from halluforge.families.shared.donors import (
    NeighbourIndex,
    build_kind_pool,
    build_neighbours,
    draw_kind,
    draw_ranked,
    example_kind,
)
from halluforge.families.shared.kinds import (
    FEMALE,
    GROUP_SUFFIX,
    Kind,
    has_members,
    is_member,
    numbers_close,
    title_only,
    wants_female,
    years_close,
)
from halluforge.families.shared.restatements import number_value, restatement, spell_number, written_forms
from halluforge.families.shared.validate import (
    Check,
    answer_shape,
    answer_spans,
    check_differs,
    check_kept,
    first_failure,
    parse_answer,
    parse_passage,
    perturb_answer,
    perturbable,
    shift_year,
    similarity,
    span_replace,
    swap_checks,
)
from halluforge.forge.base import EMBEDDING_CACHE, ForgeContext, Generator, GeneratorOptions
from halluforge.prompts import Template
from halluforge.records import (
    Completion,
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
from halluforge.textkit.answers import answer_key, contains_answer, normalize_answer

PROPOSE = "answer_swap/propose"
REWRITE = "answer_swap/rewrite"
#: words that show a proposal is commentary, not an answer
_META = re.compile(
    r"\b(?:wrong answer|correct answer|the answer|question|sorry|as an ai|i cannot|i can't|i don't|"
    r"not sure|unknown|none|n/a|must be|you've|i'll|i'm|instead|reply|sentence|in this case)\b|"
    r"^(?:not|no|yes|it|this|that|there|who|what|what's|when|where|which|why|how|maybe|perhaps|i|my|we|you)\b",
    re.I,
)

#: start of the skip reason when no wrong answer passes the plausibility check
NO_PLAUSIBLE = "no plausible wrong answer"
#: start of the skip reason when the passage restates the gold answer in a form no swap can change
RESTATED = "the passage restates the gold answer"
#: shifted dates or numbers tried before giving up on the perturb fallback
_PERTURB_DRAWS = 16

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


def answer_position(evidence: str, start: int) -> Position:
    """Which third of the evidence a character offset falls in (ReEval Table 14)."""
    share = start / max(len(evidence), 1)
    if share < 1 / 3:
        return "first"
    return "middle" if share < 2 / 3 else "last"


class AnswerSwap(Generator):
    """AutoDebug/ReEval Category 1: swap the gold answer in the evidence for a wrong one."""

    family = "answer_swap"
    Options = AnswerSwapOptions
    template_names = (PROPOSE, REWRITE)

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
        kind = example_kind(example)
        restated = restatement(evidence, gold, kind, example.question)
        if restated is not None:  # any wrong answer would leave the passage contradicting itself
            return [self.skip(item, f"{RESTATED}: {restated}")]
        rng = random.Random(int(stable_id("answer_swap", ctx.seed, self.input_id(item)), 16))
        templates = self.templates()

        new, expected_prov = await self._propose(
            example, gold, answer_type, kind, evidence, ctx, rng, templates
        )
        if new is None:
            reasons = "; ".join(expected_prov.rejected[-3:]) or "no generator model"
            return [self.skip(item, f"{NO_PLAUSIBLE} of kind {kind}: {reasons}")]

        old = evidence[spans[0][0] : spans[0][1]]
        outcome = await self._rewrite(evidence, gold, old, new, ctx, templates[REWRITE])
        if isinstance(outcome, str):
            return [self.skip(item, f"swapped evidence failed its checks: {outcome}")]
        context, context_prov, checks = outcome

        return [
            TestCase(
                id=stable_id(self.family, self.input_id(item), self.template_hashes()),
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
                },
            )
        ]

    # -- step 1: the wrong answer ---------------------------------------------------------------

    def reject_answer(
        self,
        candidate: str,
        gold: list[str],
        answer_type: AnswerType,
        question: str,
        evidence: str,
        *,
        kind: Kind | None = None,
        dataset: dict[Kind, list[str]] | None = None,
    ) -> str | None:
        """Why a proposed wrong answer is unusable, or None when it is acceptable.

        With ``kind``, the proposal must also pass :meth:`implausible` (same fine kind, a
        value in a plausible window), as every fallback answer does.
        """
        reason = self._reject_form(candidate, gold, answer_type, question, evidence)
        if reason is None and kind is not None:
            reason = self.implausible(candidate, gold, kind, evidence, dataset, question=question)
        return reason

    def implausible(
        self,
        candidate: str,
        gold: list[str],
        kind: Kind,
        evidence: str,
        dataset: dict[Kind, list[str]] | None = None,
        *,
        shaped: bool = False,
        question: str | None = None,
    ) -> str | None:
        """The plausibility check every wrong answer passes, from the LLM or a fallback.

        Same kind (a known member of the gold answer's fine kind when anything is known of
        that kind; :mod:`halluforge.families.shared.kinds`), a date within a window of years and a
        number within a factor of the gold one, written like the gold answer (proper name
        for proper name; a date like every place the passage writes it; with ``shaped``, a
        full date for a full date), not a gold alias, and
        not already in the evidence, and not contradicting the rest of the passage (a date that
        keeps its order against the passage's other dates, a noun that agrees with the verb
        after the gold answer; :func:`halluforge.families.shared.conflicts.conflict`). Returns the
        reason it fails, or None.
        """
        ok, reason = check_differs(candidate, gold)
        if not ok:
            return reason
        if title_only(candidate, person=kind.startswith("person")):
            return f"{candidate!r} is only a title or kind word, not an answer"
        if len(candidate.split()) > self.opts.max_answer_words:
            return f"{candidate!r} is too long"
        if contains_answer(evidence, candidate):
            return f"{candidate!r} already occurs in the evidence"
        form = form_type(candidate)
        if kind in ("date", "number"):
            if form is None or form not in (kind, form_type(gold[0])):  # "476" is written as a number
                return f"{candidate!r} is not a {kind} like the gold answer"
            # a date as the passage writes it: "on 7 November 1917" must not become "on November 1908"
            forms = written_forms(evidence, gold) if kind == "date" else ()
            forms = forms or ((gold[0],) if shaped else ())
            for written in forms:
                if answer_shape(candidate) != answer_shape(written):
                    return f"{candidate!r} is not written like {written!r} (the gold answer as written)"
            close = years_close(gold[0], candidate) if kind == "date" else numbers_close(gold[0], candidate)
            if not close:
                return f"{candidate!r} is too far from the gold answer {gold[0]!r} to be believed"
            return conflict(evidence, gold, kind, candidate)
        if form is not None:
            return f"{candidate!r} is a {form}, the gold answer a {kind}"
        member = is_member(candidate, kind, dataset)
        # a group kind ("thing:cat family") wants a known member even when none is known
        if ":" in kind and (has_members(kind, dataset) or kind.endswith(GROUP_SUFFIX)) and not member:
            return f"{candidate!r} is not a known {kind.partition(':')[2] or kind}"
        if kind.startswith("person") and not member and not looks_like_name(candidate, single=True):
            return f"{candidate!r} does not look like a person's name"
        female = kind.startswith("person") and bool(question) and wants_female(question or "")
        if female and not is_member(candidate, FEMALE, dataset):
            return f"{candidate!r} is not known to be a woman, as the question asks"
        if _proper(gold[0]) != _proper(candidate):
            return (
                f"{candidate!r} is not written like the gold answer {gold[0]!r} (proper name vs common noun)"
            )
        return conflict(evidence, gold, kind, candidate)

    def _reject_form(
        self, candidate: str, gold: list[str], answer_type: AnswerType, question: str, evidence: str
    ) -> str | None:
        """The form checks of a generator model's proposal (no commentary, same type and casing)."""
        if not answer_key(candidate):
            return "empty proposal"
        words = len(candidate.split())
        if words > self.opts.max_answer_words:
            return f"proposal too long ({words} words > {self.opts.max_answer_words})"
        ok, reason = check_differs(candidate, gold)
        if not ok:
            return reason
        if _META.search(candidate) or normalize_answer(candidate) == normalize_answer(question):
            return f"proposal {candidate!r} is not an answer"
        form = form_type(candidate)
        if answer_type in ("date", "number"):
            # the question's wh-word alone would call anything a date ("when ...? banana")
            found = classify_answer(candidate, question) if form is not None else "other"
            if found != answer_type:
                return f"proposal {candidate!r} is not a {answer_type} like the gold answer"
        else:
            if form is not None:
                return f"proposal {candidate!r} is a {form}, the gold answer a {answer_type}"
            found = classify_answer(candidate, question)
            if answer_type != "other" and found != answer_type:
                return f"proposal {candidate!r} is a {found}, the gold answer a {answer_type}"
            if gold[0][:1].isupper() and not candidate[:1].isupper():
                return f"proposal {candidate!r} is not capitalised like the gold answer {gold[0]!r}"
            if _is_title(gold[0]) and not _is_title(candidate):
                return f"proposal {candidate!r} is not a name like the gold answer {gold[0]!r}"
            if answer_type == "person" and not looks_like_name(candidate, single=True):
                return f"proposal {candidate!r} does not look like a person's name"
        if contains_answer(evidence, candidate):
            return f"proposal {candidate!r} already occurs in the evidence"
        return None

    async def _propose(
        self,
        example: Example,
        gold: list[str],
        answer_type: AnswerType,
        kind: Kind,
        evidence: str,
        ctx: ForgeContext,
        rng: random.Random,
        templates: dict[str, Template],
    ) -> tuple[str | None, FieldProvenance]:
        rejected: list[str] = []
        attempts = 0
        pool, neighbours = self._donors(ctx)
        if ctx.llm is None:
            rejected.append("no generator model")
        else:
            candidate, attempts, rejected = await propose_answer(
                ctx,
                templates[PROPOSE],
                self.opts.max_attempts,
                question=example.question,
                gold=gold,
                answer_type=answer_type,
                reject=lambda c: self.reject_answer(
                    c, gold, answer_type, example.question, evidence, kind=kind, dataset=pool
                ),
            )
            if candidate is not None:
                return candidate, FieldProvenance(
                    path="llm", method=PROPOSE, attempts=attempts, rejected=rejected
                )

        def fallback(method: str, answer: str) -> tuple[str, FieldProvenance]:
            return answer, FieldProvenance(
                path="fallback", method=method, attempts=attempts, rejected=rejected
            )

        def accept(answer: str) -> str | None:
            return self.implausible(
                answer, gold, kind, evidence, pool, shaped=True, question=example.question
            )

        # fallbacks, best first (docs/families/answer_swap.md): a date or number shifted within a
        # plausible window; the nearest question's answer of the same kind; any answer of the
        # same kind in the dataset, then in the bundled lexicon
        if kind in ("date", "number"):
            # a date is shifted as the passage writes it ("7 November 1917", not the alias "November 1917")
            base = next(iter(written_forms(evidence, gold)), gold[0]) if kind == "date" else gold[0]
            # a number in words the shift cannot write ("eighteen") is shifted as digits, then spelled
            value = None if kind == "date" or perturbable(base) else number_value(base)
            digits = str(int(value)) if value is not None and value.is_integer() else None
            for _ in range(_PERTURB_DRAWS):
                perturbed = perturb_answer(digits or base, cast(AnswerType, kind), rng)
                if digits is not None and perturbed is not None:
                    perturbed = spell_number(int(perturbed))
                if perturbed is not None and accept(perturbed) is not None and kind == "date":
                    perturbed = shift_year(base, rng)  # "9 November 1989" must lose its year alias
                if perturbed is not None and accept(perturbed) is None:
                    return fallback("perturb", perturbed)
        if neighbours.reason is not None:
            rejected.append(f"no neighbours: {neighbours.reason}")
        else:
            new, path, why = draw_ranked(neighbours.ranked(example.id), accept)
            rejected.extend(why[:3])
            if new is not None and path is not None:
                return fallback(path, new)
        if ":" in kind or kind == "person":  # a bare "place" or "other": only a neighbour is trusted
            new, path = draw_kind(kind, pool, rng, accept)
            if new is not None and path is not None:
                return fallback(path, new)
        rejected.append(f"no answer of kind {kind} passes the plausibility check")
        return None, FieldProvenance(path="fallback", method="none", attempts=attempts, rejected=rejected)

    def prepare(self, ctx: ForgeContext) -> None:
        """Build the kind pool and the neighbour donors once, before the units are forged."""
        self._donors(ctx)

    def donors_key(self) -> str:
        """The key of the donors in ``ForgeContext.resources`` (it names the options they depend on)."""
        opts = self.opts
        return f"answer_swap:donors:{opts.max_answer_words}:{opts.neighbours}:{opts.neighbour_min_examples}"

    def _donors(self, ctx: ForgeContext) -> tuple[dict[Kind, list[str]], NeighbourIndex]:
        """The dataset's answers by fine kind and the neighbour donors, built once per forge context."""
        key = self.donors_key()
        found = ctx.resources.get(key)
        if found is None:
            examples = list(ctx.examples) or [s.example for s in ctx.seed_cases]
            pool = build_kind_pool(examples, max_words=self.opts.max_answer_words)
            if self.opts.neighbours:
                cache = ctx.resources.get(EMBEDDING_CACHE)
                index = build_neighbours(
                    examples,
                    pool=pool,
                    min_examples=self.opts.neighbour_min_examples,
                    max_words=self.opts.max_answer_words,
                    cache_dir=str(cache) if cache else None,
                )
            else:
                index = NeighbourIndex(reason="neighbours are off (families.answer_swap.neighbours)")
            found = (pool, index)
            ctx.resources[key] = found
        return cast(tuple[dict[Kind, list[str]], NeighbourIndex], found)

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


def _proper(text: str) -> bool:
    """Whether an answer is written as a proper name ("the Nile", "Au") rather than a common noun."""
    words = text.split()
    if words and words[0].lower() in ("the", "a", "an") and len(words) > 1:
        words = words[1:]
    return bool(words) and words[0][:1].isupper()


def _is_title(text: str) -> bool:
    """Every word capitalised, small linking words aside: "HMS Beagle", "Leonardo da Vinci"."""
    small = {"a", "an", "and", "da", "de", "del", "der", "di", "du", "for", "in", "la", "le", "of", "on"}
    small |= {"the", "to", "van", "von"}
    words = [w for w in text.split() if w[:1].isalpha()]
    return bool(words) and all(w[0].isupper() or w.lower() in small for w in words)


async def ask_attempt(
    ctx: ForgeContext, template: Template, attempt: int, *, max_tokens: int, **values: object
) -> Completion:
    """Attempt ``attempt`` of one LLM step: the first at temperature 0, later ones sampled, seeded.

    A backend that raises instead of returning an error completion is turned into one, so
    the step falls back to its rule instead of losing the seed case.
    """
    try:
        if attempt == 0:
            return await ctx.ask(template, max_tokens=max_tokens, **values)
        return await ctx.sample(
            template, values, attempt=attempt, temperature=0.8, top_p=0.95, max_tokens=max_tokens
        )
    except BackendError as exc:
        return Completion(error=str(exc), error_type=type(exc).__name__)


async def propose_answer(
    ctx: ForgeContext,
    template: Template,
    max_attempts: int,
    *,
    question: str,
    gold: Sequence[str],
    answer_type: AnswerType,
    reject: Callable[[str], str | None],
) -> tuple[str | None, int, list[str]]:
    """Ask the generator model for a wrong answer of ``answer_type`` up to ``max_attempts`` times.

    Each reply is parsed and put to ``reject`` (None: accepted). Returns the accepted answer or
    None, the attempts made, and why each earlier reply was rejected, for the provenance.
    answer_swap's proposal and RECALL's counterfactual answer share this loop.
    """
    rejected: list[str] = []
    for attempt in range(max_attempts):
        completion = await ask_attempt(
            ctx,
            template,
            attempt,
            max_tokens=24,
            question=question,
            answer=gold[0],
            answer_type=describe(answer_type),
        )
        if completion.error is not None:
            rejected.append(f"backend error: {completion.error_type or completion.error}")
            continue
        candidate = parse_answer(completion.text)
        reason = reject(candidate)
        if reason is None:
            return candidate, attempt + 1, rejected
        rejected.append(reason)
    return None, max_attempts, rejected


__all__ = ["AnswerSwap", "AnswerSwapOptions", "answer_position", "ask_attempt", "propose_answer"]
