"""Build a run's :class:`~halluforge.reports.model.Report` from its summary and joined rows.

The report has, in order: one section per family (its title from the family spec, then each
section its spec names: ``table`` is the paper-shaped results table, ``invite`` is INVITE
Table 2), the notes, the counts and the cross-family analyses. Sections are looked up in
:data:`halluforge.reports.sections.SECTIONS` by name, where each family's spec brings its own.
"""

from __future__ import annotations

from collections.abc import Mapping

from halluforge.family import Family
from halluforge.reports.analyses import analyses_section
from halluforge.reports.model import Paragraph, Report, Section
from halluforge.reports.sections import SECTIONS, ReportInputs
from halluforge.reports.tables import count_tables

TITLE = "halluforge summary"


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
            kind = SECTIONS.get(kind_name)
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
        kind = SECTIONS.get(kind_name)
        report.sections.append(Section(title=kind.title or kind_name, blocks=kind.build(inputs, asked)))
    return report


__all__ = ["TITLE", "build_report"]
