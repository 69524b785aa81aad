"""The report stage: counts, summary rows with confidence intervals, the report, and exports.

Reads stored rows only (scores, derived scores included); never scores. Writes into the run
directory: ``summary.json`` (rows with CIs, notes, counts, analyses), ``summary.md`` (the report
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

from halluforge.errors import ConfigError
from halluforge.metrics.aggregate import missing_notes, summarize
from halluforge.metrics.joined import Joined
from halluforge.metrics.layer import unmet_notes
from halluforge.metrics.summary import Summary, write_summary
from halluforge.records import Annotation, Response, Score, SeedCase, Skip, TestCase
from halluforge.reports.build import build_report
from halluforge.reports.markdown import render_markdown
from halluforge.reports.model import Paragraph, Report, Section
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


def run_counts(ctx: RunContext, cases: list[TestCase], responses: list[Response]) -> StageCounts:
    """The counts of everything the store holds for this run."""
    failed = [r for r in responses if r.error]
    by_error = Counter((r.error or "").split(":")[0].strip()[:80] or "unknown" for r in failed)
    return {
        "test_cases": len(cases),
        "responses": len(responses),
        "responses_failed": len(failed),
        "responses_failed_by_error": dict(by_error.most_common()),
        "responses_cached": sum(1 for r in responses if r.cached),
        "seed_buckets": seed_counts(ctx.store.all(SeedCase)),
        "forge": forge_counts(cases),
        "skips": skip_counts(ctx.store.all(Skip)),
    }


def joined_rows(ctx: RunContext) -> Joined:
    """The run's test cases, responses and latest scores, joined."""
    return Joined.build(ctx.store.all(TestCase), ctx.store.all(Response), ctx.store.all(Score))


def make_report(ctx: RunContext, counts: StageCounts, joined: Joined | None = None) -> tuple[Summary, Report]:
    """Aggregate the stored scores into the summary and build the report model."""
    config = ctx.config.score
    joined = joined if joined is not None else joined_rows(ctx)
    cases = list(joined.cases.values())
    responses = list(joined.responses.values())
    rows = summarize(
        joined.scores, n_boot=config.bootstrap, confidence=config.confidence, seed=ctx.config.seed
    )
    summary = Summary(
        rows=rows,
        notes=[
            *missing_notes(joined.scores),
            *unmet_notes(joined, ctx.families, config.metrics, config.options),
        ],
        counts={**counts, **run_counts(ctx, cases, responses)},
        confidence=config.confidence,
    )
    families = {name: spec for name, spec in ctx.families.items()}
    report = build_report(ReportInputs(summary, joined, config.bootstrap, ctx.config.seed), families)
    for section in report.sections:
        if section.data:
            summary.counts["analyses"] = section.data
    annotations = ctx.store.all(Annotation)
    if annotations:
        report.sections.append(human_section(ctx, summary, joined, annotations))
    return summary, report


def human_section(
    ctx: RunContext, summary: Summary, joined: Joined, annotations: list[Annotation]
) -> Section:
    """The human-labels section: agreement with each automatic metric, share of valid forged cases."""
    from halluforge.reports.agreement import TITLE, agreement_section

    config = ctx.config.score
    directions = {row.metric: row.higher_is_better for row in summary.rows}
    try:
        section = agreement_section(
            joined,
            annotations,
            directions,
            n_boot=config.bootstrap,
            confidence=config.confidence,
            seed=ctx.config.seed,
        )
    except ConfigError as exc:
        return Section(title=TITLE, blocks=[Paragraph(text=f"Agreement not computed: {exc}")])
    if section is None:
        return Section(title=TITLE, blocks=[Paragraph(text="No labels in force.")])
    summary.counts["annotations"] = section.data["annotations"]
    return section


HTML_FILE = "report.html"


def write_html(
    ctx: RunContext, summary: Summary, report: Report, joined: Joined, *, max_cases: int | None = None
) -> Path:
    """Write ``report.html``: the report, its plots (when Altair is installed) and the case browser."""
    from halluforge.reports.cases import MAX_CASES, report_cases
    from halluforge.reports.html import render_html
    from halluforge.reports.plots import run_plots

    cases = list(joined.cases.values())
    note = None
    try:
        plots = run_plots(summary, joined, ctx.families, summary.counts.get("analyses", {}))
    except ConfigError as exc:
        plots, note = [], f"No plots: {exc}"
    browser = report_cases(
        cases,
        joined.responses.values(),
        joined.scores,
        ctx.store.all(Annotation),
        max_cases=MAX_CASES if max_cases is None else max_cases,
    )
    path = ctx.run_dir / HTML_FILE
    tmp = path.with_suffix(".html.tmp")
    tmp.write_text(render_html(report, plots=plots, cases=browser, plot_note=note), encoding="utf-8")
    tmp.replace(path)
    return path


async def report_stage(
    ctx: RunContext, counts: StageCounts, *, max_cases: int | None = None
) -> tuple[Summary, Report]:
    """Write summary.json, summary.md, report.html and the JSONL exports; return the summary and report."""
    joined = joined_rows(ctx)
    summary, report = make_report(ctx, counts, joined)
    write_summary(summary, ctx.run_dir)
    (ctx.run_dir / "summary.md").write_text(render_markdown(report), encoding="utf-8")
    write_html(ctx, summary, report, joined, max_cases=max_cases)
    ctx.store.export_jsonl(TestCase, ctx.run_dir / "test_cases.jsonl")
    ctx.store.export_jsonl(Response, ctx.run_dir / "responses.jsonl")
    return summary, report


__all__ = [
    "HTML_FILE",
    "forge_counts",
    "human_section",
    "joined_rows",
    "make_report",
    "report_stage",
    "run_counts",
    "seed_counts",
    "skip_counts",
    "write_html",
]
