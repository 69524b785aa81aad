"""The ``context_enrich`` family (AutoDebug / ReEval Category 2): denser evidence, same answer.

The generator (:mod:`halluforge.families.context_enrich.generator`) merges the supporting sentence with a
summary of retrieved passages, once for question-focused and once for evidence-focused
retrieval (``variant``). A correct response still gives the gold answer; ReEval §4.2 counts a
question as correct only when both variants are answered correctly (the ``*_both`` metrics).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from halluforge.family import CaseMetadata, Components, Family
from halluforge.prompts import family_prompts

#: this family's prompt templates (``<name>.txt``; names ``context_enrich/<name>``)
PROMPTS = family_prompts(__file__)


class GroundingRecord(BaseModel):
    """What grounding did to one LLM step (summary or merge) of a case.

    ``outcome``: ``llm`` (the reply kept whole), ``trimmed`` (some sentences dropped, the rest
    used), ``fallback`` (every reply rejected, or no generator model) or ``extractive`` (the
    ``merge: extractive`` option: no LLM step was run). ``sentences`` and
    ``dropped`` (count by reason, see ``halluforge.families.context_enrich.grounding.REASONS``) describe the
    accepted reply, or for a fallback the last rejected one (zero when none was read).
    """

    model_config = ConfigDict(extra="forbid")

    outcome: Literal["llm", "trimmed", "fallback", "extractive"]
    sentences: int = Field(default=0, ge=0)
    dropped: dict[str, int] = Field(default_factory=dict)


class ContextEnrichMetadata(CaseMetadata):
    """What the context-enrich generator records about each case."""

    support: str | None = None
    summary: str | None = None
    retrieval_query: str | None = None
    passages: list[dict[str, Any]] = Field(default_factory=list)
    dropped_passages: dict[str, int] = Field(default_factory=dict)
    grounding: dict[Literal["summary", "context"], GroundingRecord] = Field(default_factory=dict)


FAMILY = Family(
    name="context_enrich",
    paper="AutoDebug (Zhang et al. 2023) §3.3; ReEval (Yu et al. 2023) Category 2",
    title="context_enrich: evidence enriched with related passages (AutoDebug/ReEval Category 2)",
    correct_means="finds the gold answer in the enriched evidence (both retrieval variants for *_both)",
    generator="halluforge.families.context_enrich.generator:ContextEnrich",
    scorers=("entail",),
    metrics=("norm_entail", "both_variants"),
    metadata=ContextEnrichMetadata,
    baseline="original",
    # dense retrieval (MiniLM, FAISS); the default index also needs the wiki-offline corpus package
    brings=Components(extras=("retrieval",), needs="halluforge.families.context_enrich.needs:packages"),
    # ReEval §4.2 order: question-focused retrieval first, then evidence-focused
    options={"variants": ("question", "evidence")},
)

__all__ = [
    "FAMILY",
    "PROMPTS",
    "ContextEnrichMetadata",
    "GroundingRecord",
]
