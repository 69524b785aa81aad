"""Counterfactual contexts (RECALL, Liu et al. 2023): a model should keep the true answer.

The attack
    A retrieval-augmented model is handed a passage with counterfactual facts about something
    it already knows. RECALL asks whether it still gives the **true** answer. Following the
    edited passage is the mistake here, the opposite of ``answer_swap`` (AutoDebug/ReEval),
    where the same kind of edited passage has the new answer as the expected one.

What one input yields (each case names its parent input in ``parent_example``)
    - ``qa_a``: the answer text in the passage is replaced by an unrelated value of the same
      type; the model chooses between the true answer (role ``correct``) and that value (role
      ``counterfactual``), in an order shuffled per seed and repeat.
    - ``qa_na``: people, places, dates or numbers *other than the answer* are changed, the
      sentences holding the answer stay as they were; same two options.
    - ``textgen``: free text written from the edited source (a record with one item changed,
      or a description with the QA-A and QA-NA edits); the case stores the edited words and
      their originals, which R-Rate counts in the output.

Inputs (``sources``)
    ``records`` (key-value event records, EventKG-like), ``terms`` (term descriptions,
    UJ-like) and ``examples`` (the run's QA examples with evidence). Records and terms default
    to the bundled sample (:mod:`halluforge.families.counterfactual.sources`).

Steps (each LLM step validated, with a rule fallback; ``provenance.fields`` says which ran;
the steps are in :mod:`halluforge.families.counterfactual.steps`)
    1. paragraph: a record is paraphrased (``counterfactual/paraphrase_record``; every value must
       survive) else written one sentence per item; a description's sentences are merged
       (``counterfactual/paraphrase_term``; the term and every recognised value must survive)
       else joined as they are; an example's evidence is used as it is.
    2. question and answer (``counterfactual/question``; :func:`qa_checks`); fallback: a
       question about one record item, or a fill-the-blank question over a recognised value.
    3. counterfactual answer (``counterfactual/edit_answer``), accepted by answer_swap's own
       proposal checks; fallback: a same-type answer of the same shape from the pool of every
       input's values (:func:`~halluforge.families.shared.validate.draw_pool_answer`), else a shifted date
       or number. The QA-A passage is a span replacement of every answer occurrence.
    4. QA-NA passage (``counterfactual/edit_context``; :func:`na_checks`); fallback:
       :func:`rule_na_edits`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal, cast

from pydantic import Field

from halluforge.families.counterfactual import PROMPTS
from halluforge.families.counterfactual.rules import (
    cloze_candidates,
    edit_words,
    qa_checks,
    record_examples,
    rule_question,
    value_spans,
)
from halluforge.families.counterfactual.sources import load_event_records, load_terms, resolve
from halluforge.families.counterfactual.steps import (
    Base,
    Unit,
    counterfactual_answer,
    edit_context,
    make_question,
    write_paragraph,
)
from halluforge.families.shared.answer_types import AnswerType, classify_answer
from halluforge.families.shared.real_donors import RealDonorsOption
from halluforge.families.shared.spans import answer_spans, span_replace
from halluforge.families.shared.validate import Check, build_answer_pool, swap_checks
from halluforge.forge.base import ForgeContext, Generator, GeneratorOptions
from halluforge.prompts import Template
from halluforge.records import Edit, Example, FieldProvenance, Option, Provenance, Skip, TestCase, stable_id
from halluforge.textkit.answers import answer_key
from halluforge.textkit.sentences import split_sentences

PARAPHRASE_RECORD = "counterfactual/paraphrase_record"
PARAPHRASE_TERM = "counterfactual/paraphrase_term"
QUESTION = "counterfactual/question"
EDIT_ANSWER = "counterfactual/edit_answer"
EDIT_CONTEXT = "counterfactual/edit_context"
Variant = Literal["qa_a", "qa_na", "textgen"]
Source = Literal["records", "terms", "examples"]
VARIANTS: tuple[Variant, ...] = ("qa_a", "qa_na", "textgen")
DEFAULT_SOURCES: tuple[Source, ...] = ("records", "terms")
POOL_KEY = "counterfactual:pool"
DONORS_KEY = "counterfactual:donors"


class CounterfactualOptions(GeneratorOptions):
    """Options of the ``counterfactual`` family (``families.counterfactual`` in a run config)."""

    sources: list[Source] = Field(
        default_factory=lambda: list(DEFAULT_SOURCES), description="inputs to forge from"
    )
    knowledge: bool = Field(
        default=True,
        description="a person or place counterfactual answer fits the sentence's facts (the entity table's "
        "role, era, gender, nationality and country checks) and may come from the table",
    )
    real_donors: RealDonorsOption = Field(
        default="unknown",
        description="a counterfactual answer that is no shifted date or number and no invented person may "
        "come from the entity table, the pool of every input's answers or the model's proposal of a name: "
        "'always'; 'unknown' (default) only for no person and an answer the entity table does not know; "
        "'never': the input is skipped",
    )
    records: str = Field(
        default="bundled", description="event records file (.jsonl/.csv/.parquet) or 'bundled'"
    )
    terms: str = Field(default="bundled", description="term descriptions file or 'bundled'")
    limit: int | None = Field(default=None, ge=1, description="at most N records and N terms")
    variants: list[Variant] = Field(default_factory=lambda: list(VARIANTS))
    repeats: int = Field(
        default=1,
        ge=1,
        le=10,
        description="option orders per choice case (seeds seed..seed+N-1), for mean ± std",
    )
    paraphrase: bool = Field(
        default=True, description="ask the generator model to paraphrase records and terms"
    )
    max_attempts: int = Field(
        default=1, ge=0, le=5, description="LLM tries per step before the rule fallback"
    )
    similarity: float = Field(
        default=0.6, ge=0.0, le=1.0, description="least word similarity of a QA-NA passage"
    )
    max_na_edits: int = Field(default=2, ge=1, description="non-answer values the rule fallback changes")


class Counterfactual(Generator):
    """RECALL: QA-A, QA-NA and text-generation cases from records, terms and QA examples."""

    family = "counterfactual"
    Options = CounterfactualOptions
    template_names = (PARAPHRASE_RECORD, PARAPHRASE_TERM, QUESTION, EDIT_ANSWER, EDIT_CONTEXT)
    templates_root = PROMPTS
    uses_seed_cases = False

    @property
    def needs_examples(self) -> bool:
        """Only when ``sources`` names examples; records and terms are read by the family itself."""
        return "examples" in self.opts.sources

    @property
    def opts(self) -> CounterfactualOptions:
        """The options, typed."""
        return cast(CounterfactualOptions, self.options)

    # -- inputs ---------------------------------------------------------------------------------

    def units(self, ctx: ForgeContext) -> list[Unit]:
        """Every input unit, records first, then terms, then examples with evidence."""
        units: list[Unit] = []
        limit = self.opts.limit
        if "records" in self.opts.sources:
            for r in load_event_records(resolve(self.opts.records, "events"), limit=limit):
                units.append(Unit("record", f"record:{r.id}", record=r))
        if "terms" in self.opts.sources:
            for t in load_terms(resolve(self.opts.terms, "terms"), limit=limit):
                units.append(Unit("term", f"term:{t.id}", term=t))
        if "examples" in self.opts.sources:
            units += [Unit("example", f"example:{e.id}", example=e) for e in ctx.examples if e.evidence]
        return units

    def inputs(self, ctx: ForgeContext) -> list[Any]:
        """The units to forge from."""
        return list(self.units(ctx))

    def input_id(self, item: Any) -> str:
        """The unit's id."""
        return str(item.id)

    def prepare(self, ctx: ForgeContext) -> None:
        """The same-type answer pool over every input's values, built once."""
        if POOL_KEY in ctx.resources:
            return
        examples: list[Example] = []
        units = self.units(ctx)
        ctx.resources[DONORS_KEY] = [
            (u.term.term, list(u.term.sentences)) for u in units if u.term is not None
        ]
        for unit in units:
            if unit.record is not None:
                examples += record_examples([unit.record])
            elif unit.term is not None:
                found = value_spans(" ".join(unit.term.sentences))
                # typed by form alone: without a question a two-word capitalised value is a name
                examples += [
                    Example.build("", [v], source="terms", metadata={"answer_type": classify_answer(v)})
                    for v in found
                ]
                # the closing phrases a fill-the-blank question may ask for, as "other" answers
                tails = {v for _, v in cloze_candidates(" ".join(unit.term.sentences), unit.term.term)}
                examples += [
                    Example.build("", [v], source="terms", metadata={"answer_type": "other"})
                    for v in sorted(tails - set(found))
                ]
            elif unit.example is not None:
                examples.append(unit.example)
        ctx.resources[POOL_KEY] = build_answer_pool(examples, max_words=6)

    def _pool(self, ctx: ForgeContext) -> dict[AnswerType, list[str]]:
        self.prepare(ctx)
        return cast(dict[AnswerType, list[str]], ctx.resources[POOL_KEY])

    def skip_variant(self, unit: Unit, variant: str, reason: str) -> Skip:
        """A skip for one variant of one unit (the others may still be forged)."""
        return Skip(
            id=stable_id("forge-skip", self.family, unit.id, variant),
            stage=f"forge:{self.family}",
            reason=f"{variant} not forged ({reason})",
            item=unit.id,
        )

    # -- forging --------------------------------------------------------------------------------

    async def forge_one(self, item: Any, ctx: ForgeContext) -> list[TestCase | Skip]:
        """Every wanted variant of one unit, or skips with reasons."""
        unit: Unit = item
        templates = self.templates()
        rng = random.Random(int(stable_id("counterfactual", ctx.seed, unit.id), 16))
        base = await self._base(unit, ctx, rng, templates)
        if isinstance(base, str):
            return [self.skip(unit, base)]
        out: list[TestCase | Skip] = []
        qa_a_context = span_replace(base.paragraph, base.gold, base.counterfactual)
        qa_a_checks = swap_checks(base.paragraph, qa_a_context, base.gold, base.counterfactual, 0.5)
        answer_edit = Edit.locate("context", "answer", base.gold[0], base.counterfactual, qa_a_context)
        if "qa_a" in self.opts.variants:
            fields = base.fields | {"context": FieldProvenance(path="rule", method="span_replace")}
            out += self._choice(unit, "qa_a", base, qa_a_context, [answer_edit], fields, qa_a_checks, ctx)
        na = await edit_context(
            unit,
            base,
            ctx,
            rng,
            templates[EDIT_CONTEXT],
            self._pool(ctx),
            ctx.resources.get(DONORS_KEY, []),
            max_attempts=self.opts.max_attempts,
            similarity=self.opts.similarity,
            max_na_edits=self.opts.max_na_edits,
        )
        na_context, na_edits, na_prov, na_ok = na
        if "qa_na" in self.opts.variants:
            if na_context is None:
                out.append(
                    self.skip_variant(unit, "qa_na", na_prov.rejected[-1] if na_prov.rejected else "no edit")
                )
            else:
                fields = base.fields | {"context": na_prov}
                out += self._choice(unit, "qa_na", base, na_context, na_edits, fields, na_ok, ctx)
        if "textgen" in self.opts.variants:
            out.append(self._textgen(unit, base, qa_a_context, answer_edit, na_context, na_edits, ctx))
        return out

    def _case(self, unit: Unit, variant: str, repeat: int, **fields: Any) -> TestCase:
        metadata = {"domain": unit.kind, "title": unit.title, "repeat": repeat, **fields.pop("metadata")}
        return TestCase(
            # the id covers what the case holds (the counterfactual answer, the edited passage)
            id=stable_id(
                self.family,
                unit.id,
                variant,
                repeat,
                self.template_hashes(),
                [fields.get(k) for k in ("question", "context", "expected", "choices")],
            ),
            family=self.family,
            variant=variant,
            parent_example=unit.id,
            metadata=metadata,
            **fields,
        )

    def _provenance(self, ctx: ForgeContext, fields: dict[str, FieldProvenance]) -> Provenance:
        return Provenance(
            generator_model=ctx.llm.name if ctx.llm is not None else None,
            template_hashes=self.template_hashes(),
            fields=fields,
        )

    def _choice(
        self,
        unit: Unit,
        variant: str,
        base: Base,
        context: str,
        edits: list[Edit],
        fields: dict[str, FieldProvenance],
        checks: dict[str, Check],
        ctx: ForgeContext,
    ) -> list[TestCase | Skip]:
        cases: list[TestCase | Skip] = []
        for repeat in range(self.opts.repeats):
            options = [
                Option(text=base.gold[0], role="correct"),
                Option(text=base.counterfactual, role="counterfactual"),
            ]
            order = random.Random(stable_id("options", ctx.seed + repeat, unit.id, variant))
            order.shuffle(options)
            cases.append(
                self._case(
                    unit,
                    variant,
                    repeat,
                    question=base.question,
                    context=context,
                    original_context=base.paragraph,
                    format="choice",
                    options=options,
                    original_answers=list(base.gold),
                    edits=edits,
                    provenance=self._provenance(ctx, fields),
                    checks={k: ok for k, (ok, _) in (base.qa | checks).items()},
                    metadata={
                        "answer_type": base.answer_type,
                        "true_answers": list(base.gold),
                        "counterfactual_answer": base.counterfactual,
                        "answer_key": base.answer_key,
                        "failed": [why for ok, why in (base.qa | checks).values() if not ok],
                    },
                )
            )
        return cases

    def _textgen(
        self,
        unit: Unit,
        base: Base,
        qa_a_context: str,
        answer_edit: Edit,
        na_context: str | None,
        na_edits: list[Edit],
        ctx: ForgeContext,
    ) -> TestCase | Skip:
        if unit.record is not None and base.answer_key is not None:
            record = unit.record
            edited_items = tuple(
                (k, base.counterfactual if k == base.answer_key else v) for k, v in record.items
            )
            context, original = record.render(edited_items), record.render()
            edits = [Edit.locate("context", "answer", base.gold[0], base.counterfactual, context)]
            reference, reference_kind = base.paragraph, "paragraph"
            task = f"Write a short paragraph about {record.name} from the record."
        else:
            context = span_replace(na_context or base.paragraph, base.gold, base.counterfactual)
            original = base.paragraph
            edits = [answer_edit.model_copy(update=_span(context, base.counterfactual)), *na_edits]
            if unit.term is not None:
                if not unit.term.definition:
                    return self.skip_variant(unit, "textgen", "the term has no definition to compare with")
                reference, reference_kind = unit.term.definition, "definition"
                task = f"Write a definition of {unit.term.term} in one sentence."
            else:
                reference, reference_kind = base.paragraph, "original_context"
                task = "Retell the passage in a few sentences."
        found = edit_words(edits)
        checks = {"has_edited_words": bool(found["word_pairs"]), "has_reference": bool(reference.strip())}
        return self._case(
            unit,
            "textgen",
            0,
            question=task,
            context=context,
            original_context=original,
            reference=reference,
            format="generation",
            edits=edits,
            provenance=self._provenance(ctx, dict(base.fields)),
            checks=checks,
            metadata={"reference_kind": reference_kind, **found},
        )

    # -- steps 1-3 ------------------------------------------------------------------------------

    async def _base(
        self, unit: Unit, ctx: ForgeContext, rng: random.Random, templates: dict[str, Template]
    ) -> Base | str:
        fields: dict[str, FieldProvenance] = {}
        if unit.example is not None:
            example = unit.example
            paragraph = " ".join(split_sentences(example.evidence or ""))
            gold = [a for a in example.answers if answer_key(a)]
            if not gold or not answer_spans(paragraph, gold):
                return "the gold answer does not occur in the evidence"
            question, key = example.question, None
            fields["context"] = FieldProvenance(path="source", method=example.source)
            fields["question"] = FieldProvenance(path="source", method=example.source)
            qa = qa_checks(question, gold[0], paragraph, title=unit.title or "\0", query_style=True)
        else:
            paragraph, fields["original_context"] = await write_paragraph(
                unit,
                ctx,
                templates[PARAPHRASE_RECORD],
                templates[PARAPHRASE_TERM],
                paraphrase=self.opts.paraphrase,
                max_attempts=self.opts.max_attempts,
            )
            made = await make_question(
                unit, paragraph, ctx, rng, templates[QUESTION], max_attempts=self.opts.max_attempts
            )
            if made is None:
                return "no question-answer pair passed its checks"
            question, answer, key, fields["question"], qa = made
            gold = [answer]
        # a record value is typed by its key's rule question, as the answer pool types it, so
        # an LLM question's wording ("What was the last emperor ...?") does not change the type
        # a fill-the-blank question says nothing of the type, so the value's form decides
        # ("Isaac Newton" is a person, not "other")
        asked: str | None = question
        if unit.record is not None and key:
            asked = rule_question(unit.record, key)
        elif fields["question"].method == "cloze":
            asked = None
        answer_type = classify_answer(gold[0], asked)
        cf, fields["counterfactual_answer"] = await counterfactual_answer(
            question,
            gold,
            answer_type,
            paragraph,
            ctx,
            rng,
            templates[EDIT_ANSWER],
            self._pool(ctx),
            max_attempts=self.opts.max_attempts,
            knowledge=self.opts.knowledge,
            real_donors=self.opts.real_donors,
        )
        if cf is None:
            why = "; ".join(fields["counterfactual_answer"].rejected)
            return f"no counterfactual {answer_type} answer: {why}"
        return Base(paragraph, question, gold, answer_type, cf, key, fields, qa)


def _span(text: str, new: str) -> dict[str, int | None]:
    start = text.find(new)
    return {"start": start, "end": start + len(new)} if start >= 0 else {"start": None, "end": None}


def choice_order(options: Sequence[Option]) -> list[str]:
    """The roles of a choice case's options in shown order (for tests and reports)."""
    return [o.role for o in options]


__all__ = ["VARIANTS", "Counterfactual", "CounterfactualOptions", "Unit", "choice_order"]
