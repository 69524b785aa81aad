"""Progress of the pipeline's stages: rich bars on a terminal, plain log lines anywhere else."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

#: a stage's first count within this many seconds of its start is what a resume found done
RESUME_WINDOW_S = 0.5


def resumed_count(done: int, cached: int, since_start: float) -> int:
    """Items a stage had before this process (its first count, when it comes at once and uncached)."""
    return done if since_start < RESUME_WINDOW_S and not cached else 0


def eta_seconds(total: int, done: int, cached: int, resumed: int, elapsed: float) -> float | None:
    """Seconds left at the rate of work actually computed; None until something was computed.

    Cached items and items finished before a resume take no time, so they count as done but
    not in the rate: an ETA over work left to do, not over items that were never going to wait.
    """
    computed = done - cached - resumed
    left = max(total - done, 0)
    if left == 0:
        return 0.0
    if computed <= 0 or elapsed <= 0:
        return None
    return left * elapsed / computed


class EtaColumn(ProgressColumn):
    """``eta 1m23s`` over the work left, from the rate of computed (not cached) items."""

    def render(self, task: Task) -> Text:
        """The ETA text of one bar."""
        if task.finished:
            return Text("")
        eta = eta_seconds(
            int(task.total or 0),
            int(task.completed),
            int(task.fields.get("cached") or 0),
            int(task.fields.get("resumed") or 0),
            task.elapsed or 0.0,
        )
        if eta is None:
            return Text("eta ?", style="dim")
        minutes, seconds = divmod(round(eta), 60)
        return Text(f"eta {minutes}m{seconds:02d}s" if minutes else f"eta {seconds}s", style="dim")


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
            EtaColumn(),
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
        self.tasks[stage] = self.bars.add_task(stage, total=total, cached=0, failed=0, resumed=None)

    def update(self, stage: str, done: int, cached: int = 0, failed: int = 0) -> None:
        """Move a stage's bar to the given absolute counts (the first count is what a resume found)."""
        task = self.tasks.get(stage)
        if task is not None:
            resumed = self.bars.tasks[task].fields.get("resumed")
            if resumed is None:
                resumed = resumed_count(done, cached, self.bars.tasks[task].elapsed or 0.0)
            self.bars.update(task, completed=done, cached=cached, failed=failed, resumed=resumed)

    def finish(self, stage: str) -> None:
        """Fill the bar of a finished stage."""
        task = self.tasks.get(stage)
        if task is not None:
            total = self.bars.tasks[task].total or 0
            self.bars.update(task, completed=total)


class LogProgress:
    """Implements :class:`halluforge.pipeline.Progress` as plain lines, for logs without a terminal.

    A CI log, ``nohup`` or ``| tee`` cannot redraw bars, so each stage prints a line when it
    starts, at most every ``interval_s`` seconds while it runs, and when it ends: stage,
    done/total, cached, failed, rate and ETA. Lines go to every stream in ``streams`` (stderr,
    and the ``--log-file``).
    """

    def __init__(self, streams: list[TextIO], interval_s: float = 5.0, clock: Any = time.monotonic) -> None:
        self.streams = streams
        self.interval_s = interval_s
        self.clock = clock
        self.stages: dict[str, _StageLog] = {}

    def _emit(self, text: str) -> None:
        stamp = time.strftime("%H:%M:%S")
        for stream in self.streams:
            stream.write(f"[{stamp}] {text}\n")
            stream.flush()

    def start(self, stage: str, total: int) -> None:
        """Note the stage's start and total."""
        self.stages[stage] = _StageLog(total=total, started=self.clock(), last=self.clock(), resumed=None)
        self._emit(f"{stage}: started, {total} to do")

    def update(self, stage: str, done: int, cached: int = 0, failed: int = 0) -> None:
        """Print the counts when ``interval_s`` has passed since the stage's last line."""
        log = self.stages.get(stage)
        if log is None:
            return
        now = self.clock()
        if log.resumed is None:
            log.resumed = resumed_count(done, cached, now - log.started)
        log.done, log.cached, log.failed = done, cached, failed
        if now - log.last >= self.interval_s:
            log.last = now
            self._emit(log.line(stage, now))

    def finish(self, stage: str) -> None:
        """Print the stage's final counts and wall time."""
        log = self.stages.get(stage)
        if log is None:
            return
        log.done = max(log.done, log.total)
        now = self.clock()
        self._emit(f"{log.line(stage, now, eta=False)}, done in {now - log.started:.1f}s")


@dataclass
class _StageLog:
    total: int
    started: float
    last: float
    resumed: int | None = None
    done: int = 0
    cached: int = 0
    failed: int = 0

    def line(self, stage: str, now: float, *, eta: bool = True) -> str:
        elapsed = max(now - self.started, 1e-9)
        resumed = self.resumed or 0
        rate = max(self.done - self.cached - resumed, 0) / elapsed
        text = (
            f"{stage}: {self.done}/{self.total} cached {self.cached} failed {self.failed} rate {rate:.1f}/s"
        )
        if eta:
            left = eta_seconds(self.total, self.done, self.cached, resumed, elapsed)
            text += f" eta {left:.0f}s" if left is not None else " eta ?"
        return text


class TeeProgress:
    """Sends every progress event to several sinks (bars on the terminal and lines in a log file)."""

    def __init__(self, *sinks: Any) -> None:
        self.sinks = sinks

    def start(self, stage: str, total: int) -> None:
        """Forward."""
        for sink in self.sinks:
            sink.start(stage, total)

    def update(self, stage: str, done: int, cached: int = 0, failed: int = 0) -> None:
        """Forward."""
        for sink in self.sinks:
            sink.update(stage, done, cached, failed)

    def finish(self, stage: str) -> None:
        """Forward."""
        for sink in self.sinks:
            sink.finish(stage)
