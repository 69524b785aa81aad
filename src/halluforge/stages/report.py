"""The report stage: counts, summary rows with confidence intervals, the report, and exports.

Reads stored rows only (scores, derived scores included); never scores. Its path runs one way:
the store's rows are joined and summarized on the metric layer
(:func:`halluforge.metrics.aggregate.run_summary`), every report section is asked for its
content (:func:`halluforge.reports.build.build_report`), and the result is rendered. Writes
into the run directory: ``summary.json`` (rows with CIs, notes, counts, analyses), ``summary.md`` (the report
model rendered as Markdown), ``report.html`` (the same report with plots and a case browser,
:mod:`halluforge.reports.html`), ``test_cases.jsonl`` and ``responses.jsonl``. Counts cover what
users need to trust the figures: seed-case buckets, test cases per family and their validity,
which path (LLM or a named fallback) produced each generated field, every skipped input by
reason, and failed responses by error type.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from halluforge.metrics.aggregate import run_summary
from halluforge.metrics.joined import Joined
from halluforge.metrics.summary import Summary, write_summary
from halluforge.records import Annotation, Response, Score, SeedCase, Skip, TestCase
from halluforge.reports.build import build_report
from halluforge.reports.html import report_page
from halluforge.reports.markdown import render_markdown
from halluforge.reports.model import Report
from halluforge.reports.sections import ReportInputs
from halluforge.stages.context import RunContext, StageCounts


def forge_counts(cases: list[TestCase]) -> dict[str, Any]:
    """Per family: cases, valid cases, and per generated field the paths that produced it."""
    out: dict[str, Any] = {}
    for family in sorted({c.family for c in cases}):
        mine = [c for c in cases if c.family == family]
        paths: dict[str, Counter[str]] = defaultdict(Counter)
        for case in mine:
            for field_name, prov in case.provenance.fields.items():
                label = (
                    prov.path if not prov.method or prov.path == "source" else f"{prov.path}:{prov.method}"
                )
                paths[field_name][label] += 1
        out[family] = {
            "test_cases": len(mine),
            "valid": sum(1 for c in mine if c.valid),
            "all_fields_from_llm": sum(1 for c in mine if c.provenance.used_llm_only),
            "paths": {k: dict(v) for k, v in sorted(paths.items())},
        }
    return out


def seed_counts(seeds: list[SeedCase]) -> dict[str, int]:
    """How many seed cases fell in each AutoDebug status bucket."""
    counts: Counter[str] = Counter(s.bucket or "error" for s in seeds)
    return dict(sorted(counts.items()))


def skip_counts(skips: list[Skip]) -> dict[str, dict[str, int]]:
    """Skipped inputs by stage and reason."""
    out: dict[str, Counter[str]] = defaultdict(Counter)
    for skip in skips:
        out[skip.stage][skip.reason.split(":")[0]] += 1
    return {stage: dict(c) for stage, c in sorted(out.items())}


def forge_errors(skips: list[Skip]) -> dict[str, int]:
    """Inputs that errored while forging, by the reason's text (shown in the run's last lines)."""
    from halluforge.stages.forge import is_error

    reasons: Counter[str] = Counter()
    for skip in skips:
        if is_error(skip):
            text = " ".join(skip.reason.split())
            reasons[f"{skip.stage}: {text[:300]}"] += 1
    return dict(reasons.most_common())


def run_counts(ctx: RunContext, cases: list[TestCase], responses: list[Response]) -> StageCounts:
    """The counts of everything the store holds for this run."""
    failed = [r for r in responses if r.error]
    skips = ctx.store.all(Skip)
    by_error = Counter((r.error or "").split(":")[0].strip()[:80] or "unknown" for r in failed)
    return {
        "test_cases": len(cases),
        "responses": len(responses),
        "responses_failed": len(failed),
        "responses_failed_by_error": dict(by_error.most_common()),
        "responses_cached": sum(1 for r in responses if r.cached),
        "seed_buckets": seed_counts(ctx.store.all(SeedCase)),
        "forge": forge_counts(cases),
        "skips": skip_counts(skips),
        "forge_errors": forge_errors(skips),
    }


def joined_rows(ctx: RunContext) -> Joined:
    """The run's test cases, responses and latest scores, joined."""
    return Joined.build(ctx.store.all(TestCase), ctx.store.all(Response), ctx.store.all(Score))


def make_report(
    ctx: RunContext, counts: StageCounts, joined: Joined | None = None
) -> tuple[Summary, Report, ReportInputs]:
    """The summary (metric layer) and the report model (every section asked for its content)."""
    config = ctx.config.score
    joined = joined if joined is not None else joined_rows(ctx)
    summary = run_summary(
        joined,
        ctx.families,
        configured=config.metrics,
        options=config.options,
        n_boot=config.bootstrap,
        confidence=config.confidence,
        seed=ctx.config.seed,
    )
    summary.counts = {
        **counts,
        **run_counts(ctx, list(joined.cases.values()), list(joined.responses.values())),
    }
    inputs = ReportInputs(summary, joined, config.bootstrap, ctx.config.seed, ctx.store.all(Annotation))
    report = build_report(inputs, dict(ctx.families))
    summary.counts.update(report.figures)  # the analyses and the agreement with human labels
    return summary, report, inputs


HTML_FILE = "report.html"


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)  # atomic: a killed report never leaves half a file


async def report_stage(
    ctx: RunContext, counts: StageCounts, *, max_cases: int | None = None
) -> tuple[Summary, Report]:
    """Write summary.json, summary.md, report.html and the JSONL exports; return the summary and report."""
    summary, report, inputs = make_report(ctx, counts)
    write_summary(summary, ctx.run_dir)
    (ctx.run_dir / "summary.md").write_text(render_markdown(report), encoding="utf-8")
    _write(ctx.run_dir / HTML_FILE, report_page(inputs, report, ctx.families, max_cases=max_cases))
    ctx.store.export_jsonl(TestCase, ctx.run_dir / "test_cases.jsonl")
    ctx.store.export_jsonl(Response, ctx.run_dir / "responses.jsonl")
    return summary, report


__all__ = [
    "HTML_FILE",
    "forge_counts",
    "forge_errors",
    "joined_rows",
    "make_report",
    "report_stage",
    "run_counts",
    "seed_counts",
    "skip_counts",
]
