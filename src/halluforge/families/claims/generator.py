"""The ``claims`` generator: answer-based claim decomposition (ABCD, Balepur et al. 2023, §3.1).

A complex question ("Which author wrote a novel with a flying saucer and a character named
X?") is decomposed once into true/false claims about ``<answer>`` that any correct answer
must satisfy. The generator model gets one few-shot prompt with the paper's three steps
(``claims/decompose``, our own wording and examples):

1. reason about the entity type of ``<answer>``; claim 1 states it ("<answer> is an author");
2. write each criterion of the question as its own claim about ``<answer>``;
3. give other entities that several claims share a tag (``<novel>``, ``<play>``), so a
   multi-hop question stays consistent when the tags are filled in.

The numbered list is parsed and checked (:func:`halluforge.families.claims.rules.check_claims`:
2-8 claims, a type claim first, ``<answer>`` in every claim, tags shared consistently, no
restatement of the whole question, no gold answer). A rejected output is retried
``retries`` times with sampling; after that the rule decomposition is used and recorded as
``fallback`` with the reasons the model's outputs were rejected. The test case keeps the
claims, their tags and the path that made them; its id hashes the example only, so the claims
are made once per question and reused by every target, setting and rerun.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from pydantic import Field

from halluforge.families.claims import PROMPTS
from halluforge.families.claims.rules import ANSWER_TAG, check_claims, rule_claims, tags_of
from halluforge.forge.base import ForgeContext, Generator, GeneratorOptions
from halluforge.records import Claim, Example, FieldProvenance, Provenance, Skip, TestCase, stable_id

FAMILY = "claims"
_NUMBERED = re.compile(r"^\s*(\d{1,2})\s*[.)]\s*(.+?)\s*$")
_TYPE_LINE = re.compile(r"answer is (?:a|an|the)\s+([^.\n]+)", re.IGNORECASE)
_NEXT_QUESTION = re.compile(r"^\s*Question\s*:", re.IGNORECASE | re.MULTILINE)


class ClaimsOptions(GeneratorOptions):
    """Options of the ``claims`` generator (``families.claims`` in a config)."""

    retries: int = Field(default=1, ge=0, le=5, description="sampled retries after a rejected decomposition")
    retry_temperature: float = Field(default=0.7, ge=0.0, le=2.0)
    max_tokens: int = Field(default=200, ge=32, le=1024)
    use_llm: bool = Field(default=True, description="false: rule decomposition only (no generator model)")


def parse_decomposition(text: str) -> tuple[list[str], str | None]:
    """The numbered claims of a decomposition reply and the entity type it reasoned about.

    Reading stops at a following "Question:" (small models go on to invent the next example);
    tag spellings are normalised to lower case (``<Novel>`` -> ``<novel>``).
    """
    body = _NEXT_QUESTION.split(text, maxsplit=1)[0]
    claims: list[str] = []
    for line in body.splitlines():
        found = _NUMBERED.match(line)
        if found and int(found.group(1)) == len(claims) + 1:
            claims.append(
                re.sub(r"<([^<>]{1,40})>", lambda m: f"<{m.group(1).strip().lower()}>", found.group(2))
            )
    kind = _TYPE_LINE.search(body.split("Claims:", 1)[0])
    return claims, (kind.group(1).strip() if kind else None)


def declared_tags(texts: list[str]) -> list[str]:
    """Every tag the claims use, ``<answer>`` first, the others in order of first use."""
    ordered = dict.fromkeys([ANSWER_TAG, *(t for text in texts for t in tags_of(text))])
    return list(ordered)


class ClaimsGenerator(Generator):
    """Decompose every loaded example into claims, once per question."""

    family: ClassVar[str] = FAMILY
    Options: ClassVar[type[GeneratorOptions]] = ClaimsOptions
    template_names: ClassVar[tuple[str, ...]] = ("claims/decompose",)
    templates_root: ClassVar[str | None] = PROMPTS
    uses_seed_cases: ClassVar[bool] = False

    @property
    def opts(self) -> ClaimsOptions:
        assert isinstance(self.options, ClaimsOptions)
        return self.options

    def inputs(self, ctx: ForgeContext) -> list[Any]:
        """Every loaded example (closed-book: no seed-case selection, no evidence needed)."""
        return list(ctx.examples)

    async def _llm_claims(
        self, example: Example, ctx: ForgeContext
    ) -> tuple[list[str], str | None, list[str]]:
        """The first accepted decomposition (claims, entity type) or none, with the rejections."""
        rejected: list[str] = []
        if not self.opts.use_llm or ctx.llm is None:
            return [], None, ["no generator model" if self.opts.use_llm else "use_llm is false"]
        template = self.templates()["claims/decompose"]
        for attempt in range(self.opts.retries + 1):
            if attempt == 0:
                reply = await ctx.ask(template, max_tokens=self.opts.max_tokens, question=example.question)
            else:
                reply = await ctx.sample(
                    template,
                    {"question": example.question},
                    attempt=attempt,
                    temperature=self.opts.retry_temperature,
                    max_tokens=self.opts.max_tokens,
                )
            if not reply.ok:
                rejected.append(f"model error: {reply.error}")
                continue
            texts, kind = parse_decomposition(reply.text)
            problems = check_claims(texts, example.question, example.answers)
            if not problems:
                return texts, kind, rejected
            rejected.append("; ".join(problems))
        return [], None, rejected

    async def forge_one(self, item: Any, ctx: ForgeContext) -> list[TestCase | Skip]:
        example: Example = item
        if not example.question.strip():
            return [self.skip(example, "empty question")]
        texts, kind, rejected = await self._llm_claims(example, ctx)
        if texts:
            path = FieldProvenance(
                path="llm", method="claims/decompose", attempts=len(rejected) + 1, rejected=rejected
            )
        else:
            rule = rule_claims(example.question)
            texts, kind = list(rule.texts), rule.entity_type
            path = FieldProvenance(
                path="fallback", method="rule_split", attempts=len(rejected), rejected=rejected
            )
        problems = check_claims(texts, example.question, example.answers)
        claims = [
            Claim(id=f"c{number}", text=text, provenance=path) for number, text in enumerate(texts, start=1)
        ]
        case = TestCase(
            id=stable_id(FAMILY, example.id),
            family=FAMILY,
            question=example.question,
            expected=list(example.answers),
            original_answers=list(example.answers),
            parent_example=example.id,
            claims=claims,
            provenance=Provenance(
                generator_model=ctx.llm.name if ctx.llm is not None and self.opts.use_llm else None,
                template_hashes=self.template_hashes(),
                fields={"claims": path},
            ),
            checks={"claims_valid": not problems},
            metadata={
                "tags": declared_tags(texts),
                "entity_type": kind,
                "type_claim": "c1",
                "decomposition": "llm" if path.path == "llm" else "rule",
                "problems": problems,
                "category": example.metadata.get("category"),
                "source": example.source,
            },
        )
        return [case]


__all__ = ["FAMILY", "ClaimsGenerator", "ClaimsOptions", "declared_tags", "parse_decomposition"]
