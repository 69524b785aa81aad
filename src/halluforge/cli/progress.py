"""Rich progress bars for the pipeline's stages, showing done / cached / failed counts."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


class RichProgress:
    """Implements :class:`halluforge.pipeline.Progress` with one bar per stage."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.bars = Progress(
            TextColumn("{task.description:<28}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("cached {task.fields[cached]}  failed {task.fields[failed]}"),
            TimeElapsedColumn(),
            console=console,
            transient=False,
        )
        self.tasks: dict[str, Any] = {}

    def __enter__(self) -> RichProgress:
        self.bars.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bars.stop()

    def start(self, stage: str, total: int) -> None:
        """Add a bar for a stage."""
        self.tasks[stage] = self.bars.add_task(stage, total=total, cached=0, failed=0)

    def update(self, stage: str, done: int, cached: int = 0, failed: int = 0) -> None:
        """Move a stage's bar to the given absolute counts."""
        task = self.tasks.get(stage)
        if task is not None:
            self.bars.update(task, completed=done, cached=cached, failed=failed)

    def finish(self, stage: str) -> None:
        """Fill the bar of a finished stage."""
        task = self.tasks.get(stage)
        if task is not None:
            total = self.bars.tasks[task].total or 0
            self.bars.update(task, completed=total)
