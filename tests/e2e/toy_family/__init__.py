"""A toy family kept outside the package, to show (and test) that a family is one folder.

``toy_claims`` turns each example into a case with two claims about ``<answer>``: one asked of
the generator model (validated: it must name ``<answer>``; else a rule fallback), one fixed.
Its answer plan has two turns per claim setting: the target answers, then judges each claim
with its own answer filled in (a small ABCD). The ``toy_claim_true`` scorer gives one score
per claim; the ``toy`` report section lists the per-claim means. Everything the core needs is
in :data:`FAMILY` (its scorer and section included, in ``brings``) and the one registration in
:func:`register`; a plugin package would make it an entry point of ``halluforge.families``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from halluforge.family import FAMILIES, CaseMetadata, Components, Family
from halluforge.forge.base import ForgeContext, Generator
from halluforge.metrics import Scorer, ScoreValue
from halluforge.plans import Plan, Turn, turn_key
from halluforge.prompts import load_template
from halluforge.records import Claim, FieldProvenance, Provenance, Response, Skip, TestCase, stable_id
from halluforge.reports.model import Paragraph, Table, aligned
from halluforge.reports.sections import ReportInputs, SectionKind

PROMPTS = Path(__file__).parent / "prompts"
NAME = "toy_claims"


class ToyMetadata(CaseMetadata):
    """The toy family's case metadata."""

    source: str


class ToyGenerator(Generator):
    """One case per example, with an LLM-made claim (validated) and a fixed one."""

    family: ClassVar[str] = NAME
    template_names: ClassVar[tuple[str, ...]] = ("toy/decompose",)
    templates_root: ClassVar[str | None] = str(PROMPTS)
    uses_seed_cases: ClassVar[bool] = False

    def inputs(self, ctx: ForgeContext) -> list[Any]:
        return list(ctx.examples)

    async def forge_one(self, item: Any, ctx: ForgeContext) -> list[TestCase | Skip]:
        if not item.answers:
            return [self.skip(item, "no gold answer")]
        reply = await ctx.ask(self.templates()["toy/decompose"], question=item.question)
        made = reply.text.strip()
        if "<answer>" in made:
            first = Claim(id="c1", text=made, provenance=FieldProvenance(path="llm", method="toy/decompose"))
        else:
            reason = "no <answer> in the statement"
            first = Claim(
                id="c1",
                text="<answer> answers the question",
                provenance=FieldProvenance(path="fallback", method="fixed", rejected=[reason]),
            )
        fixed = Claim(id="c2", text="<answer> is a name", provenance=FieldProvenance(path="rule"))
        return [
            TestCase(
                id=stable_id(NAME, item.id),
                family=NAME,
                question=item.question,
                expected=list(item.answers),
                parent_example=item.id,
                claims=[first, fixed],
                provenance=Provenance(generator_model=ctx.llm.name if ctx.llm else None),
                checks={"has_claims": True},
                metadata={"source": item.source},
            )
        ]


def plan(case: TestCase, setting: str, first: Turn) -> Plan:
    """Answer, then one turn per claim that quotes the answer and the claim with it filled in."""
    template = load_template("toy/check", PROMPTS)
    checks = tuple(
        Turn(
            prompt=template.render(reply="{reply}", claim=claim.text.replace("<answer>", "{reply}")),
            key=turn_key("claim", claim.id),
            after=first.key,
            item=claim.id,
            max_tokens=4,
        )
        for claim in case.claims
    )
    return (first, *checks)


class ClaimTrue(Scorer):
    """1 when the target says the claim holds for its own answer (per claim)."""

    name: ClassVar[str] = "toy_claim_true"
    owned: ClassVar[bool] = True
    turns: ClassVar[str | None] = "claim"  # scores every "claim:<id>" turn; the id becomes Score.item

    def score(self, case: TestCase, response: Response) -> ScoreValue:
        said = response.text.strip().lower()
        if not said.startswith(("true", "false")):
            return ScoreValue(None, reason="reply is neither true nor false")
        return ScoreValue(1.0 if said.startswith("true") else 0.0)


def section(inputs: ReportInputs, families: dict[str, Family | None]) -> list[Paragraph | Table]:
    """Per-claim share judged true, per model."""
    rows = [s for s in inputs.joined.of_metric("toy_claim_true") if s.value is not None]
    table = Table(title="Claims judged true", columns=["model", "claim", "true", "n"], align=aligned(2, 2))
    for key in sorted({(s.model, s.item or "") for s in rows}):
        mine = [s.value or 0.0 for s in rows if (s.model, s.item or "") == key]
        table.rows.append([key[0], key[1], f"{100 * sum(mine) / len(mine):.1f}", str(len(mine))])
    return [table]


SECTION = SectionKind(section)

FAMILY = Family(
    name=NAME,
    paper="a toy for the tests (after ABCD, Balepur et al. 2023)",
    title="toy_claims: answers checked against their own claims",
    correct_means="gives the gold answer, then judges its claims",
    generator=f"{__name__}:ToyGenerator",
    settings=("closed_book",),
    scorers=("toy_claim_true",),
    sections=("table", "toy"),
    metadata=ToyMetadata,
    plan=plan,
    brings=Components(
        scorers={ClaimTrue.name: f"{__name__}:ClaimTrue"}, sections={"toy": f"{__name__}:SECTION"}
    ),
)


def register() -> None:
    """The one registration a plugin makes (an entry point of ``halluforge.families`` does the same)."""
    FAMILIES.register(NAME, FAMILY)


def unregister() -> None:
    """Undo :func:`register`, so other tests see only the built-in components."""
    FAMILIES.unregister(NAME)
