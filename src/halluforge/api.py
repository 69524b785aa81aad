"""The public Python API: forge a suite, answer and score it, read a run's records, export it.

Every function takes a :class:`~halluforge.config.RunConfig` (see :func:`halluforge.load_config`)
or a run directory, works in a run directory like the CLI does (so the CLI can report, view or
export it after), and returns plain records (:mod:`halluforge.records`)::

    import halluforge as hf

    config = hf.load_config("my-run.yaml")
    cases = hf.forge_cases(config)                 # load, select, forge: no target is asked
    result = hf.run(config)                  # the same run resumed: answer, score, report
    records = hf.load_records(result.run_dir)
    hf.export(result.run_dir, "inspect")     # tasks.py for `inspect eval`

:func:`forge_cases` stops before the answer stage; running the same config again (:func:`run` or
``halluforge run``) resumes there. :func:`answer` puts test cases you hold (edited, filtered,
from another run) to the config's targets in a new run and scores them; :func:`score` re-runs
the score and report stages of a finished run (new metrics, another judge), asking no target.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from halluforge.config import RunConfig
from halluforge.errors import ConfigError, DataError
from halluforge.exports import export_run
from halluforge.exports.suite import Suite, suite_of_cases, suite_of_run
from halluforge.exports.tables import JoinedRow, joined_rows
from halluforge.metrics.joined import latest_scores
from halluforge.pipeline import RunResult, open_context, rescore_run
from halluforge.records import Response, Score, TestCase
from halluforge.runlock import RunLock
from halluforge.stages.context import RunContext, StageCounts
from halluforge.store import RunStore


@dataclass
class RunRecords:
    """A run's records: its test cases, responses, latest scores, and the joined rows."""

    run_dir: Path
    test_cases: list[TestCase]
    responses: list[Response]
    scores: list[Score]
    joined: list[JoinedRow]

    def cases_by_id(self) -> dict[str, TestCase]:
        """The test cases by id."""
        return {c.id: c for c in self.test_cases}


def _run_dir(config: RunConfig) -> Path:
    return Path(config.output_dir) / config.resolved_run_id()


async def _forge_stages(ctx: RunContext) -> StageCounts:
    from halluforge.manifest import write_manifest
    from halluforge.pipeline import STAGES

    counts: StageCounts = {}
    finished: list[str] = []
    try:
        write_manifest(ctx, status="running", counts=counts, stages=finished)
        for name, stage in STAGES:
            if name == "answer":
                break
            counts.update(await stage(ctx))
            finished.append(name)
        write_manifest(ctx, status="forged", counts=counts, stages=finished)
        return counts
    finally:
        await ctx.executor.aclose()
        await ctx.models.aclose()
        ctx.store.close()


def forge_cases(config: RunConfig | None = None) -> list[TestCase]:
    """Load, select and forge ``config``'s data in its run directory; no target model is asked.

    The generator model forges (the families that use one); the returned test cases are those
    the store holds, valid or not (see :attr:`TestCase.valid`). Running the same config again
    resumes at the answer stage.
    """
    from halluforge.preflight import check_resume, check_run

    config = config or RunConfig()
    check_run(config)
    with RunLock(_run_dir(config)):
        check_resume(config)
        ctx = open_context(config)
        asyncio.run(_forge_stages(ctx))
    return load_records(_run_dir(config)).test_cases


def answer(cases: Sequence[TestCase], config: RunConfig | None = None) -> RunResult:
    """Put ``cases`` to ``config``'s targets under its settings in a new run, and score them.

    Only the answer, score and report stages run: the cases you pass are the suite, whatever
    ``config.data`` and ``config.families`` say (they are still checked, and kept in the
    manifest). The run directory (``config.output_dir``/``config.run_id``) must be new.
    """
    import time

    from halluforge.pipeline import _run_stages
    from halluforge.preflight import check_run
    from halluforge.stages.answer import answer_stage
    from halluforge.stages.score import score_stage

    config = config or RunConfig()
    if not cases:
        raise DataError(
            "no test cases to answer", hint="pass the cases forge_cases() or load_records() returned"
        )
    check_run(config)
    run_dir = _run_dir(config)
    if (run_dir / "store.sqlite").exists():
        raise ConfigError(
            f"{run_dir} already holds a run", hint="choose another run_id, or score() that run instead"
        )
    started = time.perf_counter()
    with RunLock(run_dir):
        store = RunStore(run_dir)
        try:
            store.put(list(cases))
        finally:
            store.close()
        ctx = open_context(config)
        stages = (("answer", answer_stage), ("score", score_stage))
        summary, report, counts = asyncio.run(_run_stages(ctx, stages))
    seconds = time.perf_counter() - started
    return RunResult(run_dir=run_dir, summary=summary, report=report, counts=counts, seconds=seconds)


def score(run_dir: str | Path, overrides: dict[str, Any] | None = None) -> RunResult:
    """Re-run the score and report stages of a run (``overrides``: e.g. ``{"score.metrics": [...]}``)."""
    return rescore_run(run_dir, overrides)


def load_records(run_dir: str | Path) -> RunRecords:
    """Read a run's test cases, responses, latest scores and joined rows."""
    path = Path(run_dir)
    if not (path / "store.sqlite").is_file():
        raise DataError("not a run directory (no store.sqlite)", path=str(path), hint="pass runs/<run-id>")
    store = RunStore(path)
    try:
        return RunRecords(
            run_dir=path,
            test_cases=store.all(TestCase),
            responses=store.all(Response),
            scores=list(latest_scores(store.iter(Score))),
            joined=list(joined_rows(store)),
        )
    finally:
        store.close()


def suite(source: str | Path | Sequence[TestCase], config: RunConfig | None = None) -> Suite:
    """The harness suite of a run directory, or of test cases under ``config``'s settings and metrics."""
    if isinstance(source, str | Path):
        return suite_of_run(source)
    return suite_of_cases(config or RunConfig(), list(source))


def export(run_dir: str | Path, fmt: str, out: str | Path | None = None) -> dict[str, tuple[Path, int]]:
    """Export a run like ``halluforge export``: a table format or ``inspect``/``lm-eval``/``promptfoo``."""
    return export_run(run_dir, fmt, out)


__all__ = ["RunRecords", "answer", "export", "forge_cases", "load_records", "score", "suite"]
