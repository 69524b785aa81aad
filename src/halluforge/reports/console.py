"""Print a run's report on the terminal.

On a terminal the report model's tables are drawn with rich (one table per family, rows model
x method, a Zero-shot and a Few-shot column block); anywhere else (a CI log, ``| tee``,
``nohup``) the same report is printed as Markdown, so no table is squeezed into 80 columns.
Model names and note texts come from users and models, so they are printed as plain text,
never interpreted as rich markup.

A rich table never cuts a name: when its columns do not fit the terminal, the value columns
are split into several tables that each repeat the key columns (model, method), and a header
wraps at its spaces instead of losing letters.

``halluforge run`` prints the *first screen* (:func:`first_screen`): the family sections with
their headlines and tables, without columns that have no value on any row, each note once
(the same cause is not repeated under several metrics), and the counts only when there are
no scores to show (they then say where the seed cases went). The whole report stays in the
run directory (``summary.md``, ``report.html``).
"""

from __future__ import annotations

from difflib import SequenceMatcher

from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from halluforge.reports.markdown import render_markdown
from halluforge.reports.model import Paragraph, Report, Section, Table

#: the paragraph of a report without scores (reports/build.py)
NO_SCORES = "No scores in this run."
#: a cell that holds no value
EMPTY_CELLS = frozenset({"-", ""})
#: two notes sharing this many characters in a row say the same thing; the later one is dropped
SAME_NOTE_CHARS = 40
#: sections left off the first screen when there are scores (they stay in summary.md and report.html)
LATER_SECTIONS = ("Counts", "Analyses")
#: the first columns of a family table, repeated in each part when a wide table is split
KEY_COLUMNS = 2


def rich_table(table: Table, columns: list[int] | None = None) -> RichTable:
    """One report table as a rich table (same cells as the Markdown table), optionally some columns."""
    keep = list(range(len(table.columns))) if columns is None else columns
    out = RichTable(title=Text(table.title) if table.title else None, title_justify="left")
    for i in keep:
        label = table.columns[i]
        widest = max([len(row[i]) for row in table.rows if i < len(row)] + [1])
        out.add_column(
            Text(label),
            justify="right" if table.alignment(i) == "right" else "left",
            # a cell keeps its whole text (a model name is never cut); only a header may wrap
            min_width=max(widest, *(len(word) for word in label.split() or [""])),
            overflow="fold",
        )
    strong = set(table.strong)
    for r, row in enumerate(table.rows):
        out.add_row(*(Text(row[c], style="bold" if (r, c) in strong else "") for c in keep if c < len(row)))
    return out


def column_width(table: Table, index: int) -> int:
    """Characters a column needs drawn whole: its widest cell or its header, plus padding and border.

    The header is counted unwrapped: rich keeps a header on one line when it can, and a part
    that relied on wrapping it came out wider than the terminal and was cut at the edge.
    """
    cells = [len(row[index]) for row in table.rows if index < len(row)]
    return max([*cells, len(table.columns[index]), 1]) + 3


def split_columns(table: Table, width: int) -> list[list[int]]:
    """Column groups that each fit ``width``: key columns in every group, value columns packed in order."""
    n = len(table.columns)
    keys = list(range(min(KEY_COLUMNS if n > KEY_COLUMNS else 0, n)))
    base = sum(column_width(table, i) for i in keys) + 1
    groups: list[list[int]] = []
    current: list[int] = []
    used = base
    for i in range(len(keys), n):
        need = column_width(table, i)
        if current and used + need > width:
            groups.append(keys + current)
            current, used = [], base
        current.append(i)
        used += need
    if current or not groups:
        groups.append(keys + current)
    return groups


def drop_empty_columns(table: Table) -> Table:
    """The table without value columns that are "-" or blank on every row (key columns stay)."""
    if not table.rows:
        return table
    keep = [
        i
        for i in range(len(table.columns))
        if i < KEY_COLUMNS or any(i < len(row) and row[i] not in EMPTY_CELLS for row in table.rows)
    ]
    if len(keep) == len(table.columns):
        return table
    where = {old: new for new, old in enumerate(keep)}
    return table.model_copy(
        update={
            "columns": [table.columns[i] for i in keep],
            "rows": [[row[i] for i in keep if i < len(row)] for row in table.rows],
            "align": [table.alignment(i) for i in keep],
            "strong": [(r, where[c]) for r, c in table.strong if c in where],
        }
    )


class NoteFilter:
    """Lets each note through once: a note that shares a long stretch with one already shown is dropped."""

    def __init__(self) -> None:
        self.shown: list[str] = []

    def first_time(self, note: str) -> bool:
        """Whether ``note`` says something not yet shown (and remember it)."""
        text = " ".join(note.lower().split())
        for seen in self.shown:
            match = SequenceMatcher(None, text, seen, autojunk=False).find_longest_match(
                0, len(text), 0, len(seen)
            )
            if match.size >= min(SAME_NOTE_CHARS, len(text), len(seen)):
                return False
        self.shown.append(text)
        return True


def _is_note(block: Paragraph | Table) -> bool:
    return isinstance(block, Paragraph) and block.text.startswith("- ")


def first_screen(report: Report) -> Report:
    """The part of the report ``halluforge run`` prints: families, notes once, empty columns gone."""
    has_scores = not any(
        isinstance(b, Paragraph) and b.text == "No scores in this run."
        for s in report.sections
        for b in s.blocks
    )
    notes = NoteFilter()
    sections: list[Section] = []
    for section in report.sections:
        if has_scores and section.title in LATER_SECTIONS:
            continue
        blocks: list[Paragraph | Table] = []
        for block in section.blocks:
            if isinstance(block, Table):
                table = drop_empty_columns(block)
                blocks.append(
                    table.model_copy(update={"notes": [n for n in table.notes if notes.first_time(n)]})
                )
            elif not _is_note(block) or notes.first_time(block.text[2:]):
                blocks.append(block)
        if blocks:
            sections.append(section.model_copy(update={"blocks": blocks}))
    if not has_scores:
        sections.insert(
            1,
            Section(
                title="Why no scores",
                blocks=[
                    Paragraph(
                        text="No test case was answered and scored. The counts below say where the inputs "
                        "went: the select stage forges only seed cases in the bucket select.match asks "
                        "for (a small --limit may leave none), and 'Skipped inputs by reason' names "
                        "every input a family could not use."
                    )
                ],
            ),
        )
    return report.model_copy(update={"sections": sections})


def print_report(report: Report, console: Console) -> None:
    """Print the report: rich tables on a terminal (split to fit, never cut), Markdown otherwise."""
    if not console.is_terminal:
        console.print(Text(render_markdown(report)), end="", soft_wrap=True)
        return
    for section in report.sections:
        console.print(Text(section.title, style="bold"))
        for block in section.blocks:
            if isinstance(block, Paragraph):
                console.print(Text(block.text, style="bold" if block.strong else ""))
                continue
            for columns in split_columns(block, console.width):
                console.print(rich_table(block, columns))
            if block.caption:
                console.print(Text(block.caption, style="dim"))
            for note in block.notes:
                console.print(Text(f"note: {note}", style="yellow"))


__all__ = [
    "drop_empty_columns",
    "first_screen",
    "print_report",
    "rich_table",
    "split_columns",
]
