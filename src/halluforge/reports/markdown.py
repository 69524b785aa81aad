"""Render a :class:`~halluforge.reports.model.Report` as Markdown (``summary.md``).

Every text that comes from a model, a dataset or a user is escaped for a Markdown table cell
or line by :func:`cell_text`; headings and captions are our own words.
"""

from __future__ import annotations

import re

from halluforge.reports.model import Paragraph, Report, Section, Table

#: characters with a meaning in Markdown (emphasis, code, tables, strikethrough, links). An
#: underscore inside a word (``closed_book``) means nothing in CommonMark and stays as it is; a
#: bracket only makes a link when ``](``, ``][`` or ``]:`` follows, so ``[0.2, 0.4]`` stays too
_MARKDOWN_SPECIAL = re.compile(r"([\\`*|~]|\](?=[(\[:])|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")
#: HTML's special characters, written as entities so no tag or entity from a cell is ever live
_HTML_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def cell_text(text: object) -> str:
    """Make any value safe as one Markdown table cell or inline text.

    HTML's ``& < >`` become entities (a model name ``<img onerror=...>`` shows as text, never
    as a tag), Markdown's special characters are backslash-escaped (no emphasis, code, link
    or extra table column comes from a cell), and line breaks become spaces.
    """
    value = " ".join(str(text).splitlines())
    value = "".join(_HTML_ENTITIES.get(ch, ch) for ch in value)
    return _MARKDOWN_SPECIAL.sub(r"\\\1", value)


def render_table(table: Table) -> str:
    """A Markdown table with its heading, caption and notes."""
    lines: list[str] = []
    if table.title:
        lines += [f"### {cell_text(table.title)}", ""]
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
