"""Print a run's report on the terminal.

On a terminal the report model's tables are drawn with rich (one table per family, rows model
x method, a Zero-shot and a Few-shot column block); anywhere else (a CI log, ``| tee``,
``nohup``) the same report is printed as Markdown, so no table is squeezed into 80 columns.
Model names and note texts come from users and models, so they are printed as plain text,
never interpreted as rich markup.
"""

from __future__ import annotations

from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from halluforge.reports.markdown import render_markdown
from halluforge.reports.model import Paragraph, Report, Table


def rich_table(table: Table) -> RichTable:
    """One report table as a rich table (same cells as the Markdown table)."""
    out = RichTable(title=Text(table.title) if table.title else None, title_justify="left")
    for i, column in enumerate(table.columns):
        out.add_column(Text(column), justify="right" if table.alignment(i) == "right" else "left")
    strong = set(table.strong)
    for r, row in enumerate(table.rows):
        out.add_row(*(Text(cell, style="bold" if (r, c) in strong else "") for c, cell in enumerate(row)))
    return out


def print_report(report: Report, console: Console) -> None:
    """Print the report: rich tables on a terminal, Markdown otherwise."""
    if not console.is_terminal:
        console.print(Text(render_markdown(report)), end="", soft_wrap=True)
        return
    for section in report.sections:
        console.print(Text(section.title, style="bold"))
        for block in section.blocks:
            if isinstance(block, Paragraph):
                console.print(Text(block.text, style="bold" if block.strong else ""))
                continue
            console.print(rich_table(block))
            if block.caption:
                console.print(Text(block.caption, style="dim"))
            for note in block.notes:
                console.print(Text(f"note: {note}", style="yellow"))


__all__ = ["print_report", "rich_table"]
