"""One line per family in plain words, printed above its paper-shaped table.

A table of twenty percentages does not say what happened; the headline does, for each target
model under one setting (open-book when the run has it, else the first setting with values):
the share of test cases answered correctly, what "correct" means for this family (the family
spec's ``correct_means``: for a swapped case a correct answer FOLLOWS the edited evidence) and,
when the family has a baseline whose expected answer differs (answer swapping), the share of
answers that kept the unedited example's answer instead: "followed the edited evidence in 51%,
kept the unedited answer in 27%".
"""

from __future__ import annotations

from halluforge.family import Family
from halluforge.metrics.joined import Joined
from halluforge.metrics.summary import Summary, SummaryRow
from halluforge.reports.tables import layout, metric_label
from halluforge.textkit.answers import contains_answer

#: the metric a headline quotes, first found wins
HEADLINE_METRICS = ("hit", "em", "premise_judge", "m_rate", "f1")
#: the setting a headline quotes when the run has it (the evidence is in the prompt)
HEADLINE_SETTING = "open_book"


def _pick(rows: list[SummaryRow], model: str) -> SummaryRow | None:
    mine = [r for r in rows if r.model == model and r.mean is not None]
    if not mine:
        return None
    settings = list(dict.fromkeys(r.setting for r in mine))
    setting = HEADLINE_SETTING if HEADLINE_SETTING in settings else settings[0]
    metrics = {r.metric: r for r in mine if r.setting == setting}
    for name in (*HEADLINE_METRICS, *sorted(metrics)):
        if name in metrics:
            return metrics[name]
    return None


def kept_share(joined: Joined, family: str, baseline: str, model: str, setting: str) -> tuple[int, int]:
    """(answers that name the baseline case's answer and not their own, answers) for one model/setting.

    Only cases whose expected answers differ from their baseline case's count: where the two
    agree (context enrichment keeps the gold answer) "kept the original answer" means nothing.
    """
    base_expected = {
        c.parent_example: c.expected
        for c in joined.cases.values()
        if c.family == baseline and c.parent_example
    }
    kept = total = 0
    for response in joined.responses.values():
        if response.model != model or response.setting != setting or response.error or response.turn:
            continue
        case = joined.cases.get(response.test_case_id)
        if case is None or case.family != family or not case.parent_example:
            continue
        original = base_expected.get(case.parent_example)
        if not original or set(original) == set(case.expected):
            continue
        total += 1
        own = any(contains_answer(response.text, a) for a in case.expected)
        if not own and any(contains_answer(response.text, a) for a in original):
            kept += 1
    return kept, total


def family_headline(summary: Summary, joined: Joined, family: str, spec: Family | None) -> list[str]:
    """The plain-words lines for one family: one per target model with values."""
    rows = summary.rows_for(family)
    lines = []
    for model in dict.fromkeys(r.model for r in rows):
        row = _pick(rows, model)
        if row is None or row.mean is None:
            continue
        method = layout(row.setting)[0].lower()
        share = f"{100 * row.mean:.0f}%"
        what = f"{metric_label(row.metric)} {share} of {row.n} answers"
        if row.higher_is_better is False:
            what += " (lower is better)"
        text = f"{model}, {method}: {what}"
        if spec is not None:
            text += f"; correct here means it {spec.correct_means}"
        if spec is not None and spec.baseline:
            kept, total = kept_share(joined, family, spec.baseline, model, row.setting)
            if total:
                text += f"; it kept the unedited example's answer in {100 * kept / total:.0f}%"
        lines.append(text + ".")
    return lines


__all__ = ["HEADLINE_METRICS", "HEADLINE_SETTING", "family_headline", "kept_share"]
