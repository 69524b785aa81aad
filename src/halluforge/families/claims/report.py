"""The ``claims`` report section: ABCD's tables and a per-criterion view of one case.

Blocks, in order: how the claims were made (share from the generator model vs the rule
fallback, share of valid claim sets); Table 1 (score_T of correct vs incorrect answers, the
difference with its bootstrap interval, Welch's and Student's p, P(C), P(I), unjudged); the
AUROC of score_T as a detector of wrong answers beside the whole-question baseline; Table 3
(the gold answer vs the target's answer, judged on the same claims); the claims that wrong
answers break; and one case's claims with the target's verdicts, filled with its own answer
and with the gold answer. Figures come from stored rows only (:mod:`halluforge.families.claims.stats`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from halluforge.errors import ConfigError
from halluforge.families.claims import CLAIM_TURN, GOLD_CLAIM_TURN, ClaimsMetadata
from halluforge.families.claims.metrics import claim_of, verdict_of
from halluforge.families.claims.stats import AnswerRow, answer_rows, detection, gt_vs_pred, table1
from halluforge.family import Family
from halluforge.metrics.joined import Joined
from halluforge.plans import turn_key
from halluforge.records import Response, Score, TestCase
from halluforge.reports.model import Paragraph, Table, aligned
from halluforge.reports.sections import ReportInputs, SectionKind

#: rows of the "claims broken by wrong answers" table
MAX_BROKEN = 12


def _num(value: float | None, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _p(value: float | None) -> str:
    if value is None:
        return "n/a"
    return "<0.001" if value < 0.0005 else f"{value:.3f}"


def decomposition_table(cases: Sequence[TestCase]) -> Table:
    """Share of claim sets from the generator model vs the rule fallback, and share valid."""
    table = Table(
        title="Claim decomposition",
        columns=["generator model", "questions", "LLM claims", "rule fallback", "valid sets", "mean claims"],
        align=aligned(1, 5),
    )
    by_model: dict[str, list[TestCase]] = defaultdict(list)
    for case in cases:
        by_model[case.provenance.generator_model or "(rules only)"].append(case)
    for model, mine in sorted(by_model.items()):
        n = len(mine)
        llm = sum(1 for c in mine if ClaimsMetadata.of(c).decomposition == "llm")
        valid = sum(1 for c in mine if c.valid)
        table.rows.append(
            [
                model,
                str(n),
                f"{100 * llm / n:.1f}%",
                f"{100 * (n - llm) / n:.1f}%",
                f"{100 * valid / n:.1f}%",
                f"{sum(len(c.claims) for c in mine) / n:.2f}",
            ]
        )
    table.notes.append(
        "A rule-fallback claim set is flagged as such in each case's provenance (path 'fallback')."
    )
    return table


def _groups(rows: Sequence[AnswerRow]) -> dict[tuple[str, str, str], list[AnswerRow]]:
    groups: dict[tuple[str, str, str], list[AnswerRow]] = defaultdict(list)
    for row in rows:
        groups[(row.model, row.dataset, row.setting)].append(row)
    return dict(sorted(groups.items()))


def table1_table(rows: Sequence[AnswerRow], *, n_boot: int, confidence: float, seed: int) -> Table:
    """ABCD Table 1, one row per (model, dataset, setting)."""
    table = Table(
        title="score_T of correct vs incorrect answers (ABCD Table 1)",
        columns=[
            "model",
            "dataset",
            "n",
            "C",
            "I",
            "Diff",
            f"{confidence:.0%} CI (Diff)",
            "p (Welch)",
            "p (Student)",
            "P(C)",
            "P(I)",
            "unjudged",
        ],
        align=aligned(2, 10),
    )
    for (model, dataset, _setting), mine in _groups(rows).items():
        t = table1(mine, n_boot=n_boot, confidence=confidence, seed=seed)
        interval = "n/a" if t.diff_low is None else f"[{t.diff_low:.3f}, {t.diff_high:.3f}]"
        table.rows.append(
            [
                model,
                dataset,
                str(t.n),
                _num(t.mean_correct),
                _num(t.mean_incorrect),
                _num(t.diff),
                interval,
                _p(t.p_welch),
                _p(t.p_student),
                f"{t.p_correct:.2f}",
                f"{t.p_incorrect:.2f}",
                f"{t.p_unjudged:.2f}",
            ]
        )
    table.notes.append(
        "score_T: share of claims (type claim excluded) the target judges true with its answer filled in; "
        "C/I: its mean over correct/incorrect answers; p: two-sided t-test of C - I = 0 (independent groups)."
    )
    return table


def detection_table(rows: Sequence[AnswerRow]) -> Table:
    """AUROC of score_T and of the whole-question verdict as detectors of wrong answers."""
    table = Table(
        title="Self-evaluation as a wrong-answer detector (AUROC)",
        columns=["model", "dataset", "n", "score_T", "whole question"],
        align=aligned(2, 3),
    )
    missing: ConfigError | None = None
    for (model, dataset, _setting), mine in _groups(rows).items():
        try:
            n, ours, baseline = detection(mine)
        except ConfigError as exc:  # no scikit-learn (the claims extra): the rest of the report stands
            missing = exc
            table.rows.append([model, dataset, "-", "-", "-"])
            continue
        table.rows.append([model, dataset, str(n), _num(ours), _num(baseline)])
    table.notes.append(
        "0.5 is chance; n/a when the answers are all right or all wrong. The baseline asks once whether the "
        "answer is correct for the whole question (Kadavath et al. 2022)."
    )
    if missing is not None:
        table.notes.append(f"AUROC not computed: {missing}")
    return table


def table3_table(rows: Sequence[AnswerRow]) -> Table:
    """ABCD Table 3: gold vs predicted answer on the same claims, over incorrect answers."""
    table = Table(
        title="Gold answer vs the target's wrong answer on the same claims (ABCD Table 3)",
        columns=["model", "dataset", "GT > Pred", "GT = Pred", "GT < Pred"],
        align=aligned(2, 3),
    )
    for (model, dataset, _setting), mine in _groups(rows).items():
        above, same, below = gt_vs_pred(mine)
        table.rows.append([model, dataset, str(above), str(same), str(below)])
    table.notes.append(
        "GT > Pred: the target judges more claims true of the gold answer, so it 'has the knowledge'."
    )
    return table


def _turns(joined: Joined) -> dict[tuple[str, str, str, str], Response]:
    return {(r.test_case_id, r.model, r.setting, r.turn): r for r in joined.responses.values()}


def _verdicts(joined: Joined) -> dict[tuple[str, str, str, str, str], Score]:
    return {
        (s.test_case_id, s.model, s.setting, s.metric, s.item or ""): s
        for s in joined.of_metric("claim_verdict", "gt_claim_verdict")
    }


def broken_table(joined: Joined, rows: Sequence[AnswerRow]) -> Table:
    """The criteria wrong answers break: claims judged not true of a wrong answer."""
    table = Table(
        title="Claims broken by wrong answers",
        columns=["model", "question", "claim", "own answer", "gold answer"],
        align=aligned(5, 0),
    )
    verdicts = _verdicts(joined)
    found: list[tuple[int, list[str]]] = []
    for row in rows:
        case = joined.cases.get(row.test_case_id)
        if case is None or row.correct is None or row.correct >= 0.5:
            continue
        for claim in case.claims[1:]:
            own = verdicts.get((case.id, row.model, row.setting, "claim_verdict", claim.id))
            gold = verdicts.get((case.id, row.model, row.setting, "gt_claim_verdict", claim.id))
            if own is None or verdict_of(own) == "true":
                continue
            gold_verdict = str(verdict_of(gold)) if gold is not None else "n/a"
            rank = 0 if gold_verdict == "true" else 1  # broken by the answer, though the model knows it
            found.append((rank, [row.model, case.question, claim.text, str(verdict_of(own)), gold_verdict]))
    for _rank, cells in sorted(found, key=lambda f: f[0])[:MAX_BROKEN]:
        table.rows.append(cells)
    table.notes.append(
        f"At most {MAX_BROKEN} rows; first those whose claim the target judges true of the gold answer."
    )
    return table


def case_view(joined: Joined, rows: Sequence[AnswerRow]) -> list[Paragraph | Table]:
    """Per-criterion view of one case: a wrong answer's if any, its claims and both verdicts."""
    if not rows:
        return []
    wrong = [r for r in rows if r.correct is not None and r.correct < 0.5]
    row = (wrong or list(rows))[0]
    case = joined.cases.get(row.test_case_id)
    if case is None:
        return []
    turns, verdicts = _turns(joined), _verdicts(joined)
    first = turns.get((case.id, row.model, row.setting, ""))
    answer = first.text if first is not None else "(no answer)"
    table = Table(
        title=f"One case, claim by claim ({row.model})",
        columns=["claim", "with its answer", "verdict", "with the gold answer", "verdict"],
        align=aligned(5, 0),
    )
    for claim in case.claims:
        cells = [claim.text]
        for kind, metric in ((CLAIM_TURN, "claim_verdict"), (GOLD_CLAIM_TURN, "gt_claim_verdict")):
            response = turns.get((case.id, row.model, row.setting, turn_key(kind, claim.id)))
            score = verdicts.get((case.id, row.model, row.setting, metric, claim.id))
            cells += [
                claim_of(response) if response is not None else "n/a",
                str(verdict_of(score)) if score is not None else "n/a",
            ]
        table.rows.append(cells)
    table.notes.append("The first claim states the answer's type; score_T leaves it out.")
    return [
        Paragraph(text=f"Question: {case.question}"),
        Paragraph(
            text=f"Gold: {', '.join(case.expected[:3])}. Target's answer: {answer} "
            f"(score_T {_num(row.score_t)}, gold score_T {_num(row.score_t_gt)})."
        ),
        table,
    ]


def claims_blocks(
    joined: Joined, families: Mapping[str, Family | None], *, n_boot: int, confidence: float, seed: int
) -> list[Paragraph | Table]:
    """All blocks of the claims section for the families that asked for it."""
    cases = [c for c in joined.cases.values() if c.family in families]
    if not cases:
        return []
    ids = {c.id for c in cases}
    rows = [r for r in answer_rows(joined) if r.test_case_id in ids]
    blocks: list[Paragraph | Table] = [decomposition_table(cases)]
    if not rows:
        return [*blocks, Paragraph(text="No score_t rows: no answers were scored.")]
    blocks += [
        table1_table(rows, n_boot=n_boot, confidence=confidence, seed=seed),
        detection_table(rows),
        table3_table(rows),
        broken_table(joined, rows),
        *case_view(joined, rows),
    ]
    return blocks


def _section(inputs: ReportInputs, families: Mapping[str, Family | None]) -> list[Paragraph | Table]:
    return claims_blocks(
        inputs.joined, families, n_boot=inputs.n_boot, confidence=inputs.confidence, seed=inputs.seed
    )


#: ABCD Tables 1 and 3, the decomposition and the per-case view, inside the family's section
SECTION = SectionKind(_section)

__all__ = [
    "SECTION",
    "broken_table",
    "case_view",
    "claims_blocks",
    "decomposition_table",
    "detection_table",
    "table1_table",
    "table3_table",
]
