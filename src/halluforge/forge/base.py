"""The generator contract shared by every family.

A generator declares its family name, an options model (unknown keys rejected), which inputs
it consumes (seed cases in given status buckets, or raw examples, or a resource such as a
knowledge base) and forges each input independently in :meth:`Generator.forge_one`. Forging
one input at a time is what lets the pipeline store results as they come and resume after an
interruption. Every LLM step has a validator and a rule fallback; the test case's provenance
records which path produced each field.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from halluforge.backends.base import Backend
from halluforge.errors import BackendError
from halluforge.prompts import Template, load_template
from halluforge.records import Completion, Example, Message, Request, SeedCase, Skip, TestCase, stable_id

#: ``ForgeContext.resources`` key of a folder where generators may keep embeddings between runs
#: (set by the forge stage next to the response cache; absent when the cache is off)
EMBEDDING_CACHE = "embedding_cache"
#: ``ForgeContext.resources`` key of ``(name) -> (done, total) -> None``: a progress bar of its own
#: for work a generator does once before forging (building a retrieval index), set by the forge stage
#: for :meth:`Generator.prepare` only (removed before forging: a bar cannot travel to Ray workers)
PROGRESS = "progress"


class GeneratorOptions(BaseModel):
    """Base of every generator's options: unknown keys are errors, NaN and infinity are no numbers."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


@dataclass
class ForgeContext:
    """What a generator may use: the generator LLM, the data, shared resources and the seed."""

    llm: Backend | None
    seed: int = 0
    examples: Sequence[Example] = ()
    seed_cases: Sequence[SeedCase] = ()
    resources: dict[str, Any] = field(default_factory=dict)
    max_tokens: int = 256

    async def ask(self, template: Template, *, max_tokens: int | None = None, **values: object) -> Completion:
        """Render ``template`` and send it to the generator model at temperature 0 (cacheable)."""
        return await self._send(template, values, max_tokens=max_tokens)

    async def sample(
        self,
        template: Template,
        values: Mapping[str, object],
        *,
        attempt: int,
        temperature: float,
        top_p: float = 1.0,
        max_tokens: int | None = None,
    ) -> Completion:
        """A sampled retry of a step, seeded with ``seed + attempt`` so a rerun repeats it."""
        return await self._send(
            template, values, max_tokens=max_tokens, attempt=attempt, temperature=temperature, top_p=top_p
        )

    async def _send(
        self,
        template: Template,
        values: Mapping[str, object],
        *,
        max_tokens: int | None,
        attempt: int = 0,
        temperature: float = 0.0,
        top_p: float = 1.0,
    ) -> Completion:
        if self.llm is None:
            raise BackendError("this step needs a generator model", hint="set models.generator")
        prompt = template.render(**values)
        request = Request(
            id=stable_id("forge", template.name, prompt, attempt),
            messages=[Message(role="user", content=prompt)],
            max_tokens=max_tokens or self.max_tokens,
            temperature=temperature,
            top_p=top_p,
            seed=self.seed + attempt,
        )
        (completion,) = await self.llm.generate([request])
        return completion


class Generator(abc.ABC):
    """Base class of a family's generator."""

    family: ClassVar[str]
    Options: ClassVar[type[GeneratorOptions]] = GeneratorOptions
    #: names of the prompt templates this generator uses (hashed into the manifest)
    template_names: ClassVar[tuple[str, ...]] = ()
    #: True when inputs are seed cases (the select stage must run first)
    uses_seed_cases: ClassVar[bool] = True
    #: folder of the family's own templates, for a family kept outside this package
    templates_root: ClassVar[str | None] = None

    @property
    def needs_examples(self) -> bool:
        """Whether it forges from the run's loaded examples (False: from its own inputs, e.g. a KB)."""
        return True

    def __init__(self, options: GeneratorOptions | None = None) -> None:
        self.options = options if options is not None else self.Options()

    @classmethod
    def from_config(cls, raw: dict[str, Any]) -> Generator:
        """Build from a config mapping; unknown keys raise a validation error."""
        return cls(cls.Options.model_validate(raw))

    def templates(self) -> dict[str, Template]:
        """The templates this generator uses, by name."""
        return {name: load_template(name, self.templates_root) for name in self.template_names}

    def template_hashes(self) -> dict[str, str]:
        """Template name → hash, for the manifest and provenance."""
        return {name: t.sha256 for name, t in self.templates().items()}

    def prepare(self, ctx: ForgeContext) -> None:  # noqa: B027 - optional hook, default is a no-op
        """Build shared resources once, before any unit is forged (default: nothing).

        Put them in ``ctx.resources`` as plain values, or open them from a path (an index
        folder, a KB file): an executor that ships units to other processes ships the
        resources with the context, never a live engine.
        """

    def buckets(self) -> tuple[str, ...]:
        """Seed status buckets this generator consumes (from options when it has ``buckets``)."""
        return tuple(getattr(self.options, "buckets", ()))

    def inputs(self, ctx: ForgeContext) -> list[Any]:
        """The items to forge from: by default the seed cases in this generator's buckets."""
        wanted = set(self.buckets())
        return [s for s in ctx.seed_cases if s.error is None and s.bucket in wanted]

    def input_id(self, item: Any) -> str:
        """A stable id for one input item (seed-case id by default)."""
        return str(item.id)

    def skip(self, item: Any, reason: str) -> Skip:
        """A skip record for an input that yields no test case."""
        item_id = self.input_id(item)
        return Skip(
            id=stable_id("forge-skip", self.family, item_id),
            stage=f"forge:{self.family}",
            reason=reason,
            item=item_id,
        )

    @abc.abstractmethod
    async def forge_one(self, item: Any, ctx: ForgeContext) -> list[TestCase | Skip]:
        """Forge test cases from one input; return a Skip (with reason) when none is valid."""


__all__ = ["EMBEDDING_CACHE", "ForgeContext", "Generator", "GeneratorOptions"]
