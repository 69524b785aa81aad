"""Render a :class:`~halluforge.reports.model.Report` as Markdown (``summary.md``).

Every text that comes from a model, a dataset or a user is escaped for a Markdown table cell
or line by :func:`cell_text`; headings and captions are our own words.
"""

from __future__ import annotations

from halluforge.reports.model import Paragraph, Report, Section, Table


def cell_text(text: object) -> str:
    """Make any value safe inside a Markdown table cell (pipes, newlines)."""
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def render_table(table: Table) -> str:
    """A Markdown table with its heading, caption and notes."""
    lines: list[str] = []
    if table.title:
        lines += [f"### {table.title}", ""]
    lines.append("| " + " | ".join(cell_text(c) for c in table.columns) + " |")
    lines.append(
        "|"
        + "|".join("---:" if table.alignment(i) == "right" else "---" for i in range(len(table.columns)))
        + "|"
    )
    strong = set(table.strong)
    for r, row in enumerate(table.rows):
        cells = [f"**{cell_text(v)}**" if (r, c) in strong else cell_text(v) for c, v in enumerate(row)]
        lines.append("| " + " | ".join(cells) + " |")
    out = "\n".join(lines) + "\n"
    if table.caption:
        out += "\n" + cell_text(table.caption) + "\n"
    if table.notes:
        out += "\n" + "\n".join(f"- Note: {cell_text(note)}" for note in table.notes) + "\n"
    return out


def render_block(block: Paragraph | Table) -> str:
    """One block as Markdown."""
    if isinstance(block, Table):
        return render_table(block)
    text = cell_text(block.text)
    return (f"**{text}**" if block.strong else text) + "\n"


def render_section(section: Section) -> str:
    """A heading and its blocks, separated by blank lines."""
    parts = ["#" * section.level + " " + cell_text(section.title) + "\n"]
    parts += [render_block(b) for b in section.blocks]
    return "\n".join(parts)


def render_markdown(report: Report) -> str:
    """The whole report as one Markdown document."""
    parts = [f"# {cell_text(report.title)}\n"]
    parts += [render_section(s) for s in report.sections]
    return "\n".join(parts).rstrip() + "\n"


__all__ = ["cell_text", "render_block", "render_markdown", "render_section", "render_table"]
