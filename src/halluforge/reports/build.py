"""Build a run's :class:`~halluforge.reports.model.Report` from its summary and joined rows.

The report has, in order: one section per family (its title from the family spec, then each
section its spec names: ``table`` is the paper-shaped results table, ``invite`` is INVITE
Table 2), the notes, the counts and the cross-family analyses. Sections are looked up in
:data:`SECTIONS` by name, so a new family can register a section of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from halluforge.families.claims.report import claims_blocks
from halluforge.families.invite.report import invite_blocks
from halluforge.family import Family
from halluforge.metrics.layer import Joined
from halluforge.reports.analyses import analyses_section
from halluforge.reports.model import Paragraph, Report, Section, Table
from halluforge.reports.summary import Summary
from halluforge.reports.tables import count_tables, family_table

TITLE = "halluforge summary"


@dataclass(frozen=True)
class ReportInputs:
    """What a section builder may read."""

    summary: Summary
    joined: Joined
    n_boot: int = 1000
    seed: int = 0


#: builds blocks from the report inputs and the families that asked for the section
SectionBuilder = Callable[[ReportInputs, Mapping[str, Family | None]], list[Paragraph | Table]]


@dataclass(frozen=True)
class SectionKind:
    """A kind of report section: inside each family's section, or one section for the run."""

    build: SectionBuilder
    title: str | None = None  # set for a run-wide section (built once, after the analyses)


def _table(inputs: ReportInputs, families: Mapping[str, Family | None]) -> list[Paragraph | Table]:
    (family, spec), *_ = families.items()
    if not inputs.summary.rows_for(family):
        return [Paragraph(text=f"No scores for {family}.")]
    return [family_table(inputs.summary, family, spec)]


def _invite(inputs: ReportInputs, families: Mapping[str, Family | None]) -> list[Paragraph | Table]:
    return invite_blocks(
        [s for s in inputs.joined.scores if s.family in families],
        inputs.joined.cases,
        n_boot=inputs.n_boot,
        confidence=inputs.summary.confidence or 0.95,
        seed=inputs.seed,
    )


def _claims(inputs: ReportInputs, families: Mapping[str, Family | None]) -> list[Paragraph | Table]:
    return claims_blocks(
        inputs.joined,
        families,
        n_boot=inputs.n_boot,
        confidence=inputs.summary.confidence or 0.95,
        seed=inputs.seed,
    )


def _recall(inputs: ReportInputs, families: Mapping[str, Family | None]) -> list[Paragraph | Table]:
    from halluforge.families.counterfactual.report import recall_blocks

    return recall_blocks(inputs.joined, families, n_boot=inputs.n_boot, seed=inputs.seed)


SECTIONS: dict[str, SectionKind] = {
    "table": SectionKind(_table),
    "claims": SectionKind(_claims),
    "invite": SectionKind(_invite, title="Hallucination rate (INVITE Table 2)"),
    "recall": SectionKind(_recall),
}


def build_report(inputs: ReportInputs, families: Mapping[str, Family]) -> Report:
    """The whole report of a run."""
    summary = inputs.summary
    report = Report(title=TITLE)
    present = summary.families()
    if not present:
        report.sections.append(Section(title="Results", blocks=[Paragraph(text="No scores in this run.")]))
    run_wide: dict[str, dict[str, Family | None]] = {}
    for name in present:
        spec = families.get(name)
        section = Section(title=spec.title if spec else name)
        for kind_name in spec.sections if spec else ("table",):
            kind = SECTIONS[kind_name]
            if kind.title is None:
                section.blocks += kind.build(inputs, {name: spec})
            else:
                run_wide.setdefault(kind_name, {})[name] = spec
        report.sections.append(section)
    if summary.notes:
        report.sections.append(
            Section(title="Notes", blocks=[Paragraph(text=f"- {n}") for n in summary.notes])
        )
    counts = count_tables(summary.counts)
    if counts:
        report.sections.append(Section(title="Counts", blocks=list(counts)))
    analyses = analyses_section(inputs.joined, summary)
    if analyses is not None:
        report.sections.append(analyses)
    for kind_name, asked in run_wide.items():
        kind = SECTIONS[kind_name]
        report.sections.append(Section(title=kind.title or kind_name, blocks=kind.build(inputs, asked)))
    return report


__all__ = ["SECTIONS", "TITLE", "ReportInputs", "SectionBuilder", "SectionKind", "build_report"]
