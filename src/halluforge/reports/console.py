"""Print a run summary on the terminal with rich tables.

The same layout as ``summary.md`` (:func:`halluforge.reports.tables.render_family_table`): one
table per family, rows model x method, a Zero-shot and a Few-shot column block, cells in
percent with the half-width of the confidence interval. Notes follow, then the key counts.
Model names and note texts come from users and models, so they are printed as plain text,
never interpreted as rich markup.
"""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from halluforge.reports.summary import Summary
from halluforge.reports.tables import FAMILY_TITLES, caption, family_grid, metric_label, metric_notes


def family_table(summary: Summary, family: str) -> Table:
    """One family's results as a rich table (same cells as the Markdown table)."""
    grid = family_grid(summary, family)
    table = Table(title=Text(FAMILY_TITLES.get(family, family)), title_justify="left")
    table.add_column("Model")
    table.add_column("Method")
    for block in grid.blocks:
        for metric in grid.metrics:
            table.add_column(f"{block}\n{metric_label(metric)}", justify="right")
    for i, (model, method) in enumerate(grid.rows):
        first = i == 0 or grid.rows[i - 1][0] != model
        last = i == len(grid.rows) - 1 or grid.rows[i + 1][0] != model
        values = [Text(v) for v in grid.values(model, method)]
        table.add_row(Text(model if first else ""), Text(method), *values, end_section=last)
    return table


def print_summary(summary: Summary, console: Console) -> None:
    """Print every family's table, the notes and the main counts."""
    families = summary.families()
    if not families:
        console.print(Text("No scores in this run."))
    for family in families:
        console.print(family_table(summary, family))
        console.print(Text(caption(summary, family), style="dim"))
        for note in metric_notes(family, summary.rows_for(family)):
            console.print(Text(f"note: {note}", style="yellow"))
    for note in summary.notes:
        console.print(Text(f"note: {note}", style="yellow"))
    counts = summary.counts
    buckets = counts.get("seed_buckets")
    if isinstance(buckets, dict) and buckets:
        console.print(Text("seed cases: " + ", ".join(f"{k} {v}" for k, v in sorted(buckets.items()))))
    forge = counts.get("forge")
    if isinstance(forge, dict) and forge:
        parts = [
            f"{family} {info.get('valid', '?')}/{info.get('test_cases', '?')} valid"
            for family, info in sorted(forge.items())
            if isinstance(info, dict)
        ]
        console.print(Text("test cases: " + ", ".join(parts)))
    skips = counts.get("skips")
    if isinstance(skips, dict) and skips:
        total = sum(n for reasons in skips.values() if isinstance(reasons, dict) for n in reasons.values())
        console.print(Text(f"skipped inputs: {total} (by reason in summary.md)"))


__all__ = ["family_table", "print_summary"]
