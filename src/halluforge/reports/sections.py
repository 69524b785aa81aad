"""Report sections: the kinds a family's spec may name, and the registry that finds them.

A :class:`SectionKind` builds blocks (paragraphs and tables) from the :class:`ReportInputs` of
a run, for the families that asked for it. A kind without ``title`` is built inside each such
family's section; a kind with a ``title`` is one section for the whole run, built once after
the analyses with every family that asked for it (INVITE Table 2). :data:`SECTIONS` holds the
generic ``table`` kind (the paper-shaped results table) and draws every other kind from the
family specs (:attr:`halluforge.family.Components.sections`), so a plugin family brings its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from halluforge.family import Family, components_of
from halluforge.metrics.joined import Joined
from halluforge.metrics.summary import Summary
from halluforge.records import Annotation
from halluforge.registry import Registry
from halluforge.reports.model import Paragraph, Table
from halluforge.reports.tables import family_table


@dataclass(frozen=True)
class ReportInputs:
    """What a section builder may read: the summary, the joined rows and the run's human labels."""

    summary: Summary
    joined: Joined
    n_boot: int = 1000
    seed: int = 0
    annotations: Sequence[Annotation] = ()

    @property
    def confidence(self) -> float:
        """The level of the summary's intervals (0.95 when the summary does not say)."""
        return self.summary.confidence or 0.95


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


TABLE = SectionKind(_table)

SECTIONS: Registry[SectionKind] = Registry(
    "sections",
    {"table": "halluforge.reports.sections:TABLE"},
    source=lambda: components_of("sections"),
)

__all__ = ["SECTIONS", "TABLE", "ReportInputs", "SectionBuilder", "SectionKind"]
