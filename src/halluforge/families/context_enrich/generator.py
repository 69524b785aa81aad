"""``context_enrich``: ReEval / AutoDebug Category 2, evidence enriched with related passages.

The attack keeps the answer but buries it in denser evidence. For one seed case (by default
closed-book wrong and open-book right, so answering needs the evidence) the generator:

1. picks the **supporting sentence**: the generator LLM copies the evidence sentence that
   shows the answer; the reply must match a sentence of the evidence (fuzzy match allowed)
   that contains the gold answer. Fallback: the evidence sentence containing the answer with
   the highest word overlap with the question.
2. **retrieves** top-k passages from distinct titles, twice: with the question as the query
   (variant ``question``) and with the evidence as the query (variant ``evidence``). Passages
   that contain the query text and near-duplicates (cosine above ``dedupe_cosine`` with the
   retriever's embeddings, token Jaccard when it has none) are dropped.
3. asks the LLM to **summarize** the retrieved passages (grounded sentence by sentence in the
   passages, then validated: long enough and drawn from the passages; fallback: the passages'
   most question-relevant sentences).
4. asks the LLM to **merge** the supporting sentence with the summary (grounded in the
   supporting sentence, the summary and the passages, then validated: keeps the answer span,
   adds retrieved content, does not ramble; fallback: an extractive merge of the supporting
   sentence and the most question-relevant retrieved sentences).

Grounding (:mod:`halluforge.families.context_enrich.grounding`) drops the sentences of a summary or merge that
say what no source says, or that are list markers, prompt labels, echoes or loops; the rest is
used when it still passes the step's check, else the reply counts as rejected. With an NLI
model (the ``nli_model`` option, else ``score.nli_model`` handed over by the forge stage) each
sentence must also be entailed by a source sentence. ``metadata.grounding`` records per step
whether the LLM text was kept whole, trimmed, or replaced by the fallback, and how many
sentences were dropped and why.

Each seed yields two test cases, one per variant, sharing ``parent_seed``; a question counts
as answered only when both are (:func:`halluforge.metrics.nli.merge_variants`). The expected
answers are the original gold answers. Provenance records per field (support, summary,
context) whether the LLM or a fallback produced it, and why LLM outputs were rejected.

References: Yu et al., "ReEval: Automatic Hallucination Evaluation for Retrieval-Augmented
Large Language Models via Transferable Adversarial Attacks" (§3.2, Table 9); the AutoDebug
preprint of the same work (§2.2).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from pydantic import Field

from halluforge.families.context_enrich import PROMPTS
from halluforge.families.context_enrich.enrich_text import (
    check_merge,
    check_summary,
    extractive_merge,
    extractive_summary,
    fallback_support,
    has_answer,
    match_support,
    strip_reply,
)
from halluforge.families.context_enrich.grounding import Entails, Grounding, Sources, ground, instructions_of
from halluforge.families.context_enrich.passages import (
    open_retriever,
    passage_embedder,
    select_passages,
)
from halluforge.forge.base import PROGRESS, ForgeContext, Generator, GeneratorOptions
from halluforge.prompts import Template
from halluforge.records import (
    FieldProvenance,
    Provenance,
    SeedBucket,
    SeedCase,
    Skip,
    TestCase,
    stable_id,
)
from halluforge.retrieval.base import Passage, Retriever
from halluforge.textkit.markup import strip_html
from halluforge.textkit.sentences import split_sentences

Variant = Literal["question", "evidence"]


def _default_buckets() -> list[SeedBucket]:
    return ["closed_wrong_open_right"]


def _default_variants() -> list[Variant]:
    return ["question", "evidence"]


class ContextEnrichOptions(GeneratorOptions):
    """Options of the ``context_enrich`` family."""

    buckets: list[SeedBucket] = Field(
        default_factory=_default_buckets,
        description="seed status buckets to forge from (ReEval §3.2: closed-book wrong, open-book right)",
    )
    k: int = Field(default=3, ge=1, le=20, description="passages retrieved per variant, from distinct titles")
    retrieval: list[Variant] = Field(
        default_factory=_default_variants,
        min_length=1,
        description="queries to retrieve with: the question, the evidence, or both (two test cases)",
    )
    index: str = Field(default="default", description="'default' (wiki-offline summaries) or an index path")
    dedupe_cosine: float = Field(
        default=0.85, gt=0, le=1, description="drop a passage this similar to one already kept"
    )
    max_attempts: int = Field(default=2, ge=1, le=5, description="LLM tries per step before the fallback")
    candidates: int = Field(default=20, ge=1, description="hits fetched per query before filtering")
    max_tokens: int = Field(default=160, ge=16, description="token budget of the summary and merge replies")
    support_max_tokens: int = Field(
        default=80, ge=8, description="token budget of the supporting-sentence reply"
    )
    passage_words: int = Field(
        default=150,
        ge=10,
        description="words of each passage shown to the summarize prompt (fits small contexts)",
    )
    nli_model: str | None = Field(
        default=None,
        description="NLI model (hub id or local path) that must entail every summary and merge "
        "sentence from a source sentence; default: score.nli_model; none: lexical grounding only",
    )
    merge: Literal["llm", "extractive"] = Field(
        default="llm",
        description="'llm': the generator summarises the passages and merges them with the supporting "
        "sentence (ReEval), grounded, with the extractive merge as fallback; 'extractive': the "
        "supporting sentence and the most question-relevant retrieved sentences, copied whole, "
        "with no generator call (for small generators: docs/families/context_enrich.md)",
    )


# -- the generator ---------------------------------------------------------------------------


@dataclass
class _Step:
    """The outcome of one LLM step: the accepted text (or None) and its provenance."""

    text: str | None
    provenance: FieldProvenance
    grounding: dict[str, Any] = field(default_factory=dict)


class ContextEnrich(Generator):
    """Forges question- and evidence-focused enriched evidence from one seed case."""

    family: ClassVar[str] = "context_enrich"
    Options: ClassVar[type[GeneratorOptions]] = ContextEnrichOptions
    template_names: ClassVar[tuple[str, ...]] = (
        "context_enrich/support",
        "context_enrich/summarize",
        "context_enrich/merge",
    )
    templates_root: ClassVar[str | None] = PROMPTS

    def __init__(self, options: GeneratorOptions | None = None) -> None:
        super().__init__(options)
        self._retriever: Retriever | None = None
        self._entails: Entails | None = None
        self._entails_ready = False

    @property
    def opts(self) -> ContextEnrichOptions:
        """The options, typed."""
        assert isinstance(self.options, ContextEnrichOptions)
        return self.options

    def retriever(self, ctx: ForgeContext) -> Retriever:
        """The shared retriever from ``ctx.resources``, else the one the options name (opened once)."""
        shared = ctx.resources.get("retriever")
        if shared is not None:
            return shared  # type: ignore[no-any-return]
        if self._retriever is None:
            self._retriever = open_retriever(self.opts.index)
        return self._retriever

    def retrieve(
        self, retriever: Retriever, queries: Sequence[str], evidence: str = ""
    ) -> list[tuple[list[Passage], dict[str, int]]]:
        """Retrieve and filter passages for each query (blocking: run it in a worker thread).

        Passages that contain the original evidence (or are part of it) are dropped for every
        query: handing the evidence back as "related information" would enrich nothing.
        """
        hits = retriever.search_many(list(queries), self.opts.candidates)
        embed = passage_embedder(retriever)
        return [
            select_passages(
                found, query, self.opts.k, dedupe=self.opts.dedupe_cosine, embed=embed, exclude=[evidence]
            )
            for query, found in zip(queries, hits, strict=True)
        ]

    async def _llm_step(
        self,
        ctx: ForgeContext,
        template: Template,
        method: str,
        validate: Callable[[str], tuple[str | None, str]],
        max_tokens: int | None = None,
        **values: object,
    ) -> _Step:
        """Ask up to ``max_attempts`` times; each retry tells the model why the last reply failed."""
        rejected: list[str] = []
        note = ""
        attempts = 0
        if ctx.llm is not None:
            for _ in range(self.opts.max_attempts):
                attempts += 1
                budget = max_tokens or self.opts.max_tokens
                completion = await ctx.ask(template, max_tokens=budget, note=note, **values)
                if not completion.ok:
                    rejected.append(f"backend error: {completion.error}")
                    continue
                accepted, reason = await asyncio.to_thread(validate, completion.text)
                if accepted is not None:
                    return _Step(
                        accepted,
                        FieldProvenance(path="llm", method=method, attempts=attempts, rejected=rejected),
                    )
                rejected.append(reason)
                note = f" (Your last reply was not usable: {reason}.)"
        else:
            rejected.append("no generator model")
        return _Step(None, FieldProvenance(path="fallback", method="", attempts=attempts, rejected=rejected))

    async def support(self, ctx: ForgeContext, question: str, evidence: str, answers: Sequence[str]) -> _Step:
        """The supporting sentence (LLM, validated; fallback by question overlap); text None if none."""
        sentences = split_sentences(evidence)
        step = await self._llm_step(
            ctx,
            self.templates()["context_enrich/support"],
            "support_prompt",
            lambda reply: match_support(reply, sentences, answers),
            max_tokens=self.opts.support_max_tokens,
            question=question,
            answer=answers[0],
            evidence=evidence,
        )
        if step.text is None:
            step.text = fallback_support(question, sentences, answers)
            step.provenance.method = "question_overlap"
        return step

    def entails(self, ctx: ForgeContext) -> Entails | None:
        """The NLI judge of grounding: the ``nli_model`` option, else ``score.nli_model``; None without."""
        name = self.opts.nli_model or ctx.resources.get("nli_model")
        if not name:
            return None
        from halluforge.metrics.nli import load_nli

        model = load_nli(str(name))
        lock = threading.Lock()  # validators run in worker threads; one tokenizer call at a time

        def judge(pairs: Sequence[tuple[str, str]]) -> list[bool]:
            with lock:
                return [ok for ok, _ in model.entails(pairs)]

        return judge

    def _judge(self, ctx: ForgeContext) -> Entails | None:
        """:meth:`entails`, built once per generator (one model, one lock)."""
        if not self._entails_ready:
            self._entails = self.entails(ctx)
            self._entails_ready = True
        return self._entails

    def prepare(self, ctx: ForgeContext) -> None:
        """Open (building it the first time) the index and load the grounding NLI model, before forging.

        The default index is built once per cache folder (about 10,000 passages embedded with
        MiniLM) with a progress bar of its own, so the forge bar only counts forging.
        """
        self._judge(ctx)  # a wrong NLI model name fails first, before any index is built
        if ctx.resources.get("retriever") is None and self._retriever is None:
            bar = ctx.resources.get(PROGRESS)
            progress = bar(f"index:{self.opts.index}") if bar is not None else None
            self._retriever = open_retriever(self.opts.index, progress=progress)

    def _grounded(
        self, sources: Sources, check: Callable[[str], str], entails: Entails | None
    ) -> tuple[Callable[[str], tuple[str | None, str]], list[Grounding]]:
        """A validator that grounds a reply, then checks what is left; and the verdicts it saw."""
        seen: list[Grounding] = []

        def validate(reply: str) -> tuple[str | None, str]:
            verdict = ground(strip_reply(reply), sources, entails=entails)
            seen.append(verdict)
            reason = check(verdict.text) if verdict.kept else "no sentence is grounded in the sources"
            if "listing_echo" in verdict.dropped:  # it copied the prompt rather than writing text
                reason = "the reply copies the prompt's passage listing (Title: text)"
            if reason and verdict.trimmed:
                reason = f"{reason} ({verdict.summary()})"
            return (None, reason) if reason else (verdict.text, "")

        return validate, seen

    @staticmethod
    def _record(step: _Step, seen: Sequence[Grounding]) -> None:
        """Put on the step whether its LLM text was kept whole, trimmed or replaced, and the drops."""
        outcome = "fallback"
        if step.provenance.path == "llm":
            outcome = "trimmed" if seen[-1].trimmed else "llm"
        step.grounding = {"outcome": outcome, "sentences": 0, "dropped": {}}
        if seen:  # for a fallback: what grounding found in the last rejected reply
            step.grounding.update(seen[-1].record())

    async def summarize(
        self, ctx: ForgeContext, question: str, passages: Sequence[Passage], entails: Entails | None = None
    ) -> _Step:
        """The LLM summary of the passages, grounded and validated; fallback: the most relevant sentences."""
        cap = self.opts.passage_words
        listing = "\n".join(
            f"[{i}] {p.title}: {' '.join(p.text.split()[:cap])}" for i, p in enumerate(passages, 1)
        )
        template = self.templates()["context_enrich/summarize"]
        titles = [p.title for p in passages]
        sources = Sources.of([p.text for p in passages], instructions_of(template.text), titles)
        validate, seen = self._grounded(sources, lambda text: check_summary(text, passages), entails)
        step = await self._llm_step(
            ctx, template, "summarize_prompt", validate, count=len(passages), passages=listing
        )
        if step.text is None:
            step.text = extractive_summary(question, passages)
            step.provenance.method = "relevant_sentences"
        self._record(step, seen)
        return step

    async def merge(
        self,
        ctx: ForgeContext,
        question: str,
        support: str,
        summary: str,
        passages: Sequence[Passage],
        answers: Sequence[str],
        entails: Entails | None = None,
    ) -> _Step:
        """The LLM merge of support and summary, grounded, with the answer; fallback: extractive merge."""
        template = self.templates()["context_enrich/merge"]
        sources = Sources.of(
            [support, summary, *(p.text for p in passages)],
            instructions_of(template.text),
            [p.title for p in passages],
        )
        validate, seen = self._grounded(
            sources, lambda text: check_merge(text, support, summary, answers), entails
        )
        step = await self._llm_step(
            ctx, template, "merge_prompt", validate, answer=answers[0], support=support, summary=summary
        )
        if step.text is None:
            step.text = extractive_merge(support, question, passages)
            step.provenance.method = "extractive_merge"
        self._record(step, seen)
        return step

    @staticmethod
    def _extractive(question: str, support: str, passages: Sequence[Passage]) -> tuple[_Step, _Step]:
        """Summary and context of ``merge: extractive``: copied sentences, no generator call.

        The steps are recorded with outcome ``extractive``, so a report tells a chosen
        extractive context from one that replaced a rejected LLM merge (``fallback``).
        """
        chosen = {"outcome": "extractive", "sentences": 0, "dropped": {}}
        summary = _Step(
            extractive_summary(question, passages),
            FieldProvenance(path="fallback", method="relevant_sentences"),
            dict(chosen),
        )
        merged = _Step(
            extractive_merge(support, question, passages),
            FieldProvenance(path="fallback", method="extractive_merge"),
            dict(chosen),
        )
        return summary, merged

    def _skip(self, seed: SeedCase, reason: str, variant: str | None = None) -> Skip:
        return Skip(
            id=stable_id("forge-skip", self.family, seed.id, variant),
            stage=f"forge:{self.family}",
            reason=reason if variant is None else f"{variant}: {reason}",
            item=seed.id,
        )

    async def forge_one(self, item: Any, ctx: ForgeContext) -> list[TestCase | Skip]:
        """Two test cases (question- and evidence-focused) from one seed case, or skips with reasons."""
        seed: SeedCase = item
        example = seed.example
        answers = [a for a in example.answers if a.strip()]
        if not example.evidence or not answers:
            return [self._skip(seed, "the example has no evidence or no gold answer")]
        retriever = self.retriever(ctx)  # opened before any await, so concurrent calls share one
        entails = self._judge(ctx) if self.opts.merge == "llm" else None  # no LLM text to check
        evidence = strip_html(example.evidence)
        support = await self.support(ctx, example.question, evidence, answers)
        if support.text is None:
            return [self._skip(seed, "no evidence sentence contains the gold answer")]
        queries = {"question": example.question, "evidence": evidence}
        variants = list(dict.fromkeys(self.opts.retrieval))
        retrieved = await asyncio.to_thread(
            self.retrieve, retriever, [queries[v] for v in variants], evidence
        )
        out: list[TestCase | Skip] = []
        for variant, (passages, dropped) in zip(variants, retrieved, strict=True):
            if not passages:
                out.append(self._skip(seed, f"no usable passage retrieved (dropped {dropped})", variant))
                continue
            if self.opts.merge == "extractive":
                summary, merged = self._extractive(example.question, support.text, passages)
            else:
                summary = await self.summarize(ctx, example.question, passages, entails)
                assert summary.text is not None
                merged = await self.merge(
                    ctx, example.question, support.text, summary.text, passages, answers, entails
                )
            assert merged.text is not None
            out.append(self._case(seed, ctx, variant, support, summary, merged, passages, dropped))
        return out

    def case_id(
        self, seed_id: str, variant: str, generator: str | None, shared_nli: str | None = None
    ) -> str:
        """The id of a forged case: seed, variant, generator model, templates, options, NLI model.

        ``shared_nli`` is ``score.nli_model`` as handed over by the forge stage; it counts only
        when the ``nli_model`` option does not name another.
        """
        nli = [shared_nli] if shared_nli and not self.opts.nli_model else []
        # the default merge is left out, so cases forged before the option existed keep their ids
        options = self.opts.model_dump(exclude={"merge"} if self.opts.merge == "llm" else None)
        return stable_id(self.family, seed_id, variant, generator, self.template_hashes(), options, *nli)

    def _case(
        self,
        seed: SeedCase,
        ctx: ForgeContext,
        variant: str,
        support: _Step,
        summary: _Step,
        merged: _Step,
        passages: Sequence[Passage],
        dropped: dict[str, int],
    ) -> TestCase:
        example = seed.example
        context = merged.text or ""
        hashes = self.template_hashes()
        generator = ctx.llm.name if ctx.llm is not None else None
        return TestCase(
            id=self.case_id(seed.id, variant, generator, ctx.resources.get("nli_model")),
            family=self.family,
            question=example.question,
            context=context,
            expected=list(example.answers),
            original_answers=list(example.answers),
            original_context=example.evidence,
            parent_seed=seed.id,
            parent_example=example.id,
            variant=variant,
            provenance=Provenance(
                generator_model=generator,
                template_hashes=hashes,
                fields={
                    "support": support.provenance,
                    "summary": summary.provenance,
                    "context": merged.provenance,
                },
            ),
            checks={
                "support_in_evidence": True,
                "context_has_answer": has_answer(context, example.answers),
                "context_enriched": len(context.split()) > len((support.text or "").split()),
            },
            metadata={
                "support": support.text,
                "summary": summary.text,
                "retrieval_query": variant,
                "passages": [{"id": p.id, "title": p.title} for p in passages],
                "dropped_passages": dropped,
                "grounding": {"summary": summary.grounding, "context": merged.grounding},
            },
        )


__all__ = [
    "ContextEnrich",
    "ContextEnrichOptions",
    "open_retriever",
    "passage_embedder",
    "select_passages",
]
