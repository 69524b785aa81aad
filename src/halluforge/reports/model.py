"""The report model: one format-neutral description of a run's results.

A :class:`Report` is a title and :class:`Section` s; a section holds blocks: :class:`Table`
(columns, rows of cell texts, a caption and note lines) and :class:`Paragraph` (plain text,
optionally emphasised). Renderers turn it into Markdown (:mod:`halluforge.reports.markdown`),
a terminal view (:mod:`halluforge.reports.console`) or, later, HTML, without any family
knowing about the format. Cell texts are plain strings: each renderer escapes them for its
own format. The same figures, unformatted, are kept in ``data`` for exports.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Align = Literal["left", "right"]


def aligned(left: int, right: int) -> list[Align]:
    """Column alignments: ``left`` text columns, then ``right`` numeric ones."""
    lefts: list[Align] = ["left"] * left
    rights: list[Align] = ["right"] * right
    return lefts + rights


class Block(BaseModel):
    """Base of every block of a section."""

    model_config = ConfigDict(extra="forbid")


class Paragraph(Block):
    """A line of plain text; ``strong`` shows it emphasised (a table's heading line)."""

    kind: Literal["paragraph"] = "paragraph"
    text: str
    strong: bool = False


class Table(Block):
    """A table of cell texts, with an optional heading, caption and note lines."""

    kind: Literal["table"] = "table"
    title: str | None = None
    columns: list[str]
    rows: list[list[str]] = Field(default_factory=list)
    align: list[Align] = Field(default_factory=list, description="per column; left by default")
    #: cells to show in bold (row index, column index), e.g. self-attack cells
    strong: list[tuple[int, int]] = Field(default_factory=list)
    caption: str | None = None
    notes: list[str] = Field(default_factory=list)

    def alignment(self, column: int) -> Align:
        """The alignment of one column."""
        return self.align[column] if column < len(self.align) else "left"


class Section(BaseModel):
    """A titled part of the report; ``level`` 2 for top-level sections, 3 below them."""

    model_config = ConfigDict(extra="forbid")

    title: str
    level: int = 2
    blocks: list[Paragraph | Table] = Field(default_factory=list)
    data: dict[str, Any] = Field(default_factory=dict)


class Report(BaseModel):
    """A whole report: its title and sections in reading order.

    ``figures`` holds what sections computed besides their blocks, by name (the analyses, the
    agreement with human labels), for ``summary.json`` and the plots.
    """

    model_config = ConfigDict(extra="forbid")

    title: str
    sections: list[Section] = Field(default_factory=list)
    figures: dict[str, Any] = Field(default_factory=dict)


__all__ = ["Align", "Block", "Paragraph", "Report", "Section", "Table", "aligned"]
