"""Build a run's :class:`~halluforge.reports.model.Report`: every section asked for its content.

The report has, in order: one section per family (its title from the family spec, a headline
per target model in plain words (:mod:`halluforge.reports.headline`), then each section kind
its spec names: ``table`` is the paper-shaped results table, ``recall`` RECALL's tables...),
the notes, the counts, the cross-family analyses, the run-wide sections families asked for
(``invite``: INVITE Table 2) and, when people labelled anything, the agreement with their
labels. Section kinds are looked up in :data:`halluforge.reports.sections.SECTIONS` by name,
where each family's spec brings its own. Sections read the summary and the joined rows
(:class:`~halluforge.reports.sections.ReportInputs`) and aggregate through the metric layer;
the report stage only renders what this returns.
"""

from __future__ import annotations

from collections.abc import Mapping

from halluforge.family import Family
from halluforge.reports.agreement import labels_section
from halluforge.reports.analyses import analyses_section
from halluforge.reports.headline import family_headline
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
        section.blocks += [
            Paragraph(text=line, strong=True) for line in family_headline(summary, inputs.joined, name, spec)
        ]
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
        report.figures["analyses"] = analyses.data
    for kind_name, asked in run_wide.items():
        kind = SECTIONS.get(kind_name)
        report.sections.append(Section(title=kind.title or kind_name, blocks=kind.build(inputs, asked)))
    labels = labels_section(inputs)
    if labels is not None:
        report.sections.append(labels)
        if "annotations" in labels.data:
            report.figures["annotations"] = labels.data["annotations"]
    return report


__all__ = ["TITLE", "build_report"]
