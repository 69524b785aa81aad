"""The report stage: counts, summaries with confidence intervals, tables and exports.

Writes into the run directory: ``summary.json`` (rows with CIs, notes, counts),
``summary.md`` (tables shaped like the papers'), ``test_cases.jsonl`` and
``responses.jsonl``. Counts cover what users need to trust the numbers: seed-case buckets,
test cases per family and their validity, which path (LLM or a named fallback) produced each
generated field, and every skipped input by reason.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import TYPE_CHECKING, Any

from halluforge.records import Response, Score, SeedCase, Skip, TestCase

if TYPE_CHECKING:
    from halluforge.pipeline import Pipeline
    from halluforge.reports.summary import Summary


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


def report_stage(pipeline: Pipeline) -> Summary:
    """Aggregate scores, write summary files and exports, return the summary."""
    from halluforge.metrics.stats import latest_scores, summarize
    from halluforge.reports.summary import Summary, write_summary
    from halluforge.reports.tables import render_analyses, render_summary_markdown

    store = pipeline.store
    config = pipeline.config
    cases = store.all(TestCase)
    scores = store.all(Score)
    extra = _variant_scores(cases, scores)
    rows = summarize(
        scores + extra, n_boot=config.score.bootstrap, confidence=config.score.confidence, seed=config.seed
    )
    counts = dict(pipeline.counts)
    responses = store.all(Response)
    counts["test_cases"] = len(cases)
    counts["responses"] = len(responses)
    counts["responses_failed"] = sum(1 for r in responses if r.error)
    counts["responses_cached"] = sum(1 for r in responses if r.cached)
    counts["seed_buckets"] = seed_counts(store.all(SeedCase))
    counts["forge"] = forge_counts(cases)
    counts["skips"] = skip_counts(store.all(Skip))
    notes = _notes(latest_scores(scores))
    summary = Summary(rows=rows, notes=notes, counts=counts, confidence=config.score.confidence)
    analyses = render_analyses(latest_scores(scores), cases, summary)
    summary.counts["analyses"] = analyses.data
    write_summary(summary, pipeline.run_dir)
    markdown = render_summary_markdown(summary)
    if analyses.markdown:
        markdown = markdown.rstrip() + "\n\n" + analyses.markdown
    if any(score.metric == "premise_judge" for score in scores):
        from halluforge.reports.invite import render_invite_table

        invite = render_invite_table(
            scores, n_boot=config.score.bootstrap, confidence=config.score.confidence, seed=config.seed
        )
        markdown = markdown.rstrip() + "\n\n## Hallucination rate (INVITE Table 2)\n\n" + invite
    (pipeline.run_dir / "summary.md").write_text(markdown, encoding="utf-8")
    store.export_jsonl(TestCase, pipeline.run_dir / "test_cases.jsonl")
    store.export_jsonl(Response, pipeline.run_dir / "responses.jsonl")
    pipeline.counts.update(counts)
    return summary


def _variant_scores(cases: list[TestCase], scores: list[Score]) -> list[Score]:
    """ReEval §4.2: a context_enrich question counts only if both variants are right."""
    if not any(c.family == "context_enrich" for c in cases):
        return []
    try:
        from halluforge.metrics.nli import merge_variants
    except ImportError:  # the family's metrics module is not installed in this build
        return []
    return list(merge_variants(scores, {c.id: c for c in cases}))


def _notes(scores: list[Score]) -> list[str]:
    """One line per metric that was not computed for some responses, with the reason."""
    reasons: dict[str, Counter[str]] = defaultdict(Counter)
    for score in scores:
        if score.value is None:
            reasons[score.metric][str(score.details.get("reason", "not computed"))] += 1
    notes = []
    for metric, counter in sorted(reasons.items()):
        for reason, n in counter.most_common():
            notes.append(f"{metric}: {n} not computed - {reason}")
    return notes


__all__ = ["forge_counts", "report_stage", "seed_counts", "skip_counts"]
