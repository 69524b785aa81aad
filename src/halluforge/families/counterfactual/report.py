"""RECALL's tables (Liu et al. 2023, Tables 3-6 and Figure 3) for the ``counterfactual`` family.

- **Response quality** (Tables 3 and 5): accuracy on QA-A and QA-NA, BLEU and ROUGE-L on text
  generation, per model and context (no context, original, edited, edited + trust-yourself
  prompt), one column block per input domain (records ~ EventKG, terms ~ UJ, examples, RGB).
- **Robustness** (Tables 4 and 6): M-Rate on QA-A and QA-NA, R-Rate on text generation and
  the error-detection rate, per model and method (baseline = edited context, prompt).
- **Confidence** (Figure 3): mean token probability of right vs wrong answers and of original
  vs edited words, from the ``confidence`` scores; :func:`confidence_series` gives the same
  figures as plot-ready rows.

Cells are percentages. With one repeat a cell is ``mean [low, high]`` (percentile bootstrap);
with ``repeats: N`` (N option orders) it is ``mean ± std`` over the repeats' means, as in the
paper (sample std, ddof = 1). A cell with no value says "not computed" and why.

Direction: a correct answer here **keeps the true answer**; following the edited context is
the mistake (the opposite of ``answer_swap``).
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from halluforge.families.counterfactual import CounterfactualMetadata
from halluforge.families.counterfactual.metrics import was_parsed, word_prob
from halluforge.metrics.aggregate import Aggregate, breakdown
from halluforge.metrics.joined import Joined
from halluforge.records import Score, TestCase
from halluforge.reports.model import Paragraph, Table, aligned
from halluforge.reports.sections import ReportInputs, SectionKind

#: the join fields of every RECALL table cell (``domain`` and ``repeat`` are the family's metadata
#: fields): one aggregate per repeat, pooled into the cell's mean ± std when there are several
GROUP_FIELDS = ("model", "setting", "domain", "variant", "metric", "repeat")
CONTEXTS = (("closed_book", "no"), ("original_context", "original"), ("open_book", "edited"))
METHODS = (("open_book", "Baseline"), ("self_trust", "Prompt"), ("dola", "DoLa"))
DOMAINS = {"record": "records", "term": "terms", "example": "examples", "rgb": "RGB"}
DIRECTION = (
    "A correct answer keeps the true answer; following the edited context is the mistake "
    "(the opposite of answer_swap)."
)


def _case(joined: Joined, score: Score) -> TestCase | None:
    return joined.cases.get(score.test_case_id)


def _domain(case: TestCase | None) -> str:
    return (CounterfactualMetadata.of(case).domain or "") if case is not None else ""


def _groups(
    joined: Joined, rows: Sequence[Score], n_boot: int, seed: int
) -> dict[tuple[Hashable, ...], list[Aggregate]]:
    """(model, setting, domain, variant, metric) -> one aggregate per repeat."""
    out: dict[tuple[Hashable, ...], list[Aggregate]] = defaultdict(list)
    for group in breakdown(joined, rows, GROUP_FIELDS, n_boot=n_boot, seed=seed, namespace="recall"):
        out[group.key[:-1]].append(group)
    return out


def _cell(found: list[Aggregate] | None, scale: float = 100.0) -> str:
    if not found:
        return "–"
    means = [g.mean for g in found if g.mean is not None]
    if not means:
        reasons = sorted({r for g in found for r in g.missing_reasons})
        return f"not computed ({'; '.join(reasons[:2])})" if reasons else "not computed"
    n = sum(g.n for g in found)
    if len(found) > 1:
        std = statistics.stdev(means) if len(means) > 1 else 0.0
        return f"{scale * statistics.fmean(means):.1f} ± {scale * std:.1f} (n={n})"
    (group,) = found
    mean = group.mean or 0.0
    if group.ci_low is None or group.ci_high is None:
        return f"{scale * mean:.1f} (n={n})"
    return f"{scale * mean:.1f} [{scale * group.ci_low:.1f}, {scale * group.ci_high:.1f}] (n={n})"


Column = tuple[str, str, str]  # (variant, metric, heading)


def _paper_table(
    title: str,
    row_label: str,
    groups: Mapping[tuple[Hashable, ...], list[Aggregate]],
    models: Sequence[str],
    domain: str,
    rows: Sequence[tuple[str, str]],
    columns: Sequence[Column],
) -> Table:
    """One paper-shaped table: a row per (model, setting) with any value, a cell per column."""
    table = Table(
        title=title, columns=["model", row_label, *(h for _, _, h in columns)], align=aligned(2, len(columns))
    )
    for model in models:
        for setting, name in rows:
            cells = [_cell(groups.get((model, setting, domain, v, m))) for v, m, _ in columns]
            if any(c != "–" for c in cells):
                table.rows.append([model, name, *cells])
    return table


def recall_blocks(
    joined: Joined, families: Mapping[str, Any], *, n_boot: int = 1000, seed: int = 0
) -> list[Paragraph | Table]:
    """The response-quality, robustness and confidence tables of every counterfactual family asked."""
    rows = [s for s in joined.scores if s.family in families]
    if not rows:
        return [Paragraph(text="No scores for the counterfactual family.")]
    groups = _groups(joined, rows, n_boot, seed)
    models = sorted({s.model for s in rows})
    domains = [d for d in DOMAINS if any(k[2] == d for k in groups)]
    blocks: list[Paragraph | Table] = [Paragraph(text=DIRECTION)]
    quality_cols = [("qa_a", "accuracy", "QA-A ACC"), ("qa_na", "accuracy", "QA-NA ACC")]
    quality_cols += [("textgen", "bleu", "BLEU"), ("textgen", "rouge_l", "ROUGE-L")]
    robust_cols = [("qa_a", "m_rate", "QA-A M-Rate"), ("qa_na", "m_rate", "QA-NA M-Rate")]
    robust_cols += [("textgen", "r_rate", "R-Rate"), ("qa_a", "error_detection", "QA-A error detection")]
    contexts = [*CONTEXTS, ("self_trust", "edited + prompt"), ("dola", "edited + DoLa")]
    for domain in domains:
        label = DOMAINS[domain]
        cols = [
            (v, "r_rate_norm" if (m == "r_rate" and domain == "term") else m, h) for v, m, h in robust_cols
        ]
        quality = _paper_table(
            f"Response quality, {label} (RECALL Tables 3 and 5; %)",
            "context",
            groups,
            models,
            domain,
            contexts,
            quality_cols,
        )
        robust = _paper_table(
            f"Robustness, {label} (RECALL Tables 4 and 6; %, lower is better)",
            "method",
            groups,
            models,
            domain,
            METHODS,
            cols,
        )
        if domain == "term":
            robust.notes.append("R-Rate for terms is the paper's normalised form (Eq. 3); it can exceed 100.")
        blocks += [quality, robust]
    choice = [s for s in rows if s.metric == "accuracy" and s.value is not None]
    unparsed = [s for s in choice if was_parsed(s) is False]
    if choice:
        share = 100 * len(unparsed) / len(choice)
        text = "Choice replies naming neither option, both, or a letter and the other option's text"
        blocks.append(
            Paragraph(text=f"{text} (counted wrong): {len(unparsed)} of {len(choice)} ({share:.1f}%).")
        )
    blocks.append(confidence_table(joined, rows))
    return blocks


def confidence_series(joined: Joined, rows: Sequence[Score]) -> list[dict[str, Any]]:
    """Plot-ready confidence figures: one dict per (model, domain, variant, kind, setting) mean.

    QA (Figure 3's subset): cases right with no context and wrong with the edited context; the
    right answer's confidence is read from the no-context reply, the wrong one's from the
    edited-context reply. Text generation: the tokens of original words in the original-context
    output vs those of edited words in the edited-context output.
    """
    acc = {(s.test_case_id, s.model, s.setting): s.value for s in rows if s.metric == "accuracy"}
    conf = [s for s in rows if s.metric == "confidence" and s.value is not None]
    values: dict[tuple[str, str, str, str], list[float]] = defaultdict(list)
    for s in conf:
        case = _case(joined, s)
        if case is None:
            continue
        domain, variant = _domain(case), case.variant or ""
        if case.format == "choice":
            right_before = acc.get((s.test_case_id, s.model, "closed_book")) == 1.0
            wrong_after = acc.get((s.test_case_id, s.model, "open_book")) == 0.0
            if right_before and wrong_after and s.setting in ("closed_book", "open_book"):
                kind = "right answer (no context)" if s.setting == "closed_book" else "wrong answer (edited)"
                values[(s.model, domain, variant, kind)].append(float(s.value or 0.0))
        elif s.setting == "original_context" and (prob := word_prob(s, "original")) is not None:
            values[(s.model, domain, variant, "original words")].append(prob)
        elif s.setting == "open_book" and (prob := word_prob(s, "edited")) is not None:
            values[(s.model, domain, variant, "edited words")].append(prob)
    return [
        {"model": m, "domain": d, "variant": v, "kind": k, "mean_prob": statistics.fmean(x), "n": len(x)}
        for (m, d, v, k), x in sorted(values.items())
    ]


def confidence_table(joined: Joined, rows: Sequence[Score]) -> Paragraph | Table:
    """Figure 3 as a table."""
    series = confidence_series(joined, rows)
    if not series:
        return Paragraph(
            text="Confidence (Figure 3): not computed (no log-probabilities, or no case right without "
            "context and wrong with the edited one)."
        )
    table = Table(
        title="Confidence (RECALL Figure 3): mean token probability",
        columns=["model", "domain", "variant", "tokens of", "mean probability", "n"],
        align=aligned(4, 2),
    )
    for row in series:
        table.rows.append(
            [
                row["model"],
                DOMAINS.get(row["domain"], row["domain"]),
                row["variant"],
                row["kind"],
                f"{row['mean_prob']:.3f}",
                str(row["n"]),
            ]
        )
    return table


def _section(inputs: ReportInputs, families: Mapping[str, Any]) -> list[Paragraph | Table]:
    return recall_blocks(inputs.joined, families, n_boot=inputs.n_boot, seed=inputs.seed)


#: RECALL's response-quality, robustness and confidence tables, inside the family's section
SECTION = SectionKind(_section)

__all__ = [
    "CONTEXTS",
    "DOMAINS",
    "GROUP_FIELDS",
    "METHODS",
    "SECTION",
    "confidence_series",
    "confidence_table",
    "recall_blocks",
]
