"""A forged suite as harness entries: one per (test case, setting), with the prompt our plans send.

The harness exports (inspect, lm-eval, promptfoo) all start here. A :class:`Suite` holds one
:class:`SuiteEntry` per valid test case and applicable setting: the first turn of its answer
plan (the prompt the answer stage sends, few-shot demonstrations and a family's own wording
included), the reply budget, the metrics that can score it in a harness
(:func:`~halluforge.exports.verdicts.harness_metric`) and the test case itself.

From a finished run (:func:`suite_of_run`) the prompt is the one the run actually sent, read
from its stored first-turn responses; for cases no target answered (or a forge-only run,
:func:`suite_of_cases`) it is rendered the way the answer stage renders it. Left out: later
turns of multi-turn plans (they continue a reply the harness has not seen yet, e.g. ABCD's
claim checks) and settings with a special decoding (DoLa), which a harness cannot request.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from halluforge.config import RunConfig
from halluforge.errors import DataError
from halluforge.exports.verdicts import harness_metric
from halluforge.family import FAMILIES, Family
from halluforge.limits import text_limit
from halluforge.metrics import SCORERS, ScoreContext, Scorer
from halluforge.plans import Turn
from halluforge.records import Response, TestCase
from halluforge.settings import Demo, answer_turn, few_shot_pool, option_letter, pick_demos, setting


@dataclass(frozen=True)
class SuiteEntry:
    """One harness entry: a test case put under one setting."""

    id: str
    family: str
    setting: str
    prompt: str
    max_tokens: int
    metrics: tuple[str, ...]
    case: TestCase

    @property
    def task(self) -> str:
        """The task this entry belongs to (one per family, setting and test-case format)."""
        return task_name(self.family, self.setting, self.case.format)

    def correct_index(self) -> int | None:
        """For a ``choice`` case, the index of its one ``correct`` option (else None)."""
        found = [i for i, o in enumerate(self.case.options) if o.role == "correct"]
        return found[0] if self.case.format == "choice" and len(found) == 1 else None

    def row(self) -> dict[str, Any]:
        """The entry as a JSON-ready row (the dataset line every harness export writes)."""
        return {
            "id": self.id,
            "input": self.prompt,
            "target": list(self.case.expected),
            "family": self.family,
            "setting": self.setting,
            "max_tokens": self.max_tokens,
            "metrics": list(self.metrics),
            "choices": [o.text for o in self.case.options] if self.case.format == "choice" else [],
            "letters": [option_letter(i) for i in range(len(self.case.options))]
            if self.case.format == "choice"
            else [],
            "answer_index": self.correct_index(),
            "case": self.case.model_dump_json(),
        }


@dataclass
class Suite:
    """The entries of one forged suite with what scoring them needs (the run's metric options)."""

    name: str
    entries: list[SuiteEntry]
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    seed: int = 0
    temperature: float = 0.0

    def tasks(self) -> dict[str, list[SuiteEntry]]:
        """Samples grouped by task, in a stable order."""
        grouped: dict[str, list[SuiteEntry]] = defaultdict(list)
        for entry in self.entries:
            grouped[entry.task].append(entry)
        return dict(sorted(grouped.items()))

    def header(self) -> dict[str, Any]:
        """What every exported task needs besides its rows (written as ``suite.json``)."""
        return {
            "name": self.name,
            "options": self.options,
            "seed": self.seed,
            "temperature": self.temperature,
        }


def task_name(family: str, setting_name: str, case_format: str = "qa") -> str:
    """A harness-safe task name: ``answer_swap__open_book`` (lower case, letters, digits, ``_``).

    A format other than ``qa`` is added (``counterfactual__open_book__choice``): a family that
    mixes formats gets one task each, since they differ in reply budget and metrics.
    """
    name = f"{family}__{setting_name}" + ("" if case_format == "qa" else f"__{case_format}")
    return re.sub(r"[^a-z0-9_]", "_", name.lower())


def _metrics_for(
    config: RunConfig, families: Mapping[str, Family]
) -> tuple[dict[str, Scorer], dict[str, dict[str, Any]]]:
    from halluforge.stages.score import scorer_names

    names = [n for n in scorer_names(config.score.metrics, families) if harness_metric(n)]
    options = {n: dict(config.score.options[n]) for n in names if config.score.options.get(n)}
    scorers = {n: SCORERS.get(n)(ScoreContext(options=options.get(n, {}), seed=config.seed)) for n in names}
    return scorers, options


def _applicable(scorers: Mapping[str, Scorer], case: TestCase, spec: Family | None) -> tuple[str, ...]:
    return tuple(
        name
        for name, scorer in scorers.items()
        if (not scorer.owned or (spec is not None and name in spec.scorers)) and scorer.applies_to(case)
    )


def first_turns(
    config: RunConfig, families: Mapping[str, Family], cases: Sequence[TestCase]
) -> Iterable[tuple[TestCase, str, Turn]]:
    """The first turn of every answer plan the answer stage would build, as it builds it."""
    answer = config.answer
    eligible = [c for c in cases if answer.include_invalid or c.valid]
    pools: dict[str, list[Demo]] = {}
    for case in eligible:
        spec = families.get(case.family)
        for name in answer.settings:
            how = setting(name)
            if how.decoding or not how.applies(case) or (spec is not None and not spec.accepts(name)):
                continue
            demos: list[Demo] = []
            if how.demos != "none":
                adversarial = how.demos == "adversarial" or answer.few_shot.demos == "adversarial"
                key = f"adversarial:{case.family}" if adversarial else "static"
                if key not in pools:
                    same = [c for c in eligible if c.family == case.family]
                    with text_limit(config.limits.max_text_chars):
                        pools[key] = few_shot_pool(answer.few_shot, adversarial, same)
                demos = pick_demos(pools[key], case, answer.few_shot.k, config.seed)
            first = answer_turn(name, case, demos)
            plan = spec.answer_plan(case, name, first) if spec is not None else (first,)
            if plan:
                yield case, name, plan[0]


def _sent_prompt(response: Response) -> str | None:
    users = [m.content for m in response.messages if m.role == "user"]
    return users[-1] if len(users) == 1 else None


def suite_of_cases(
    config: RunConfig,
    cases: Sequence[TestCase],
    *,
    name: str = "halluforge",
    sent: Mapping[tuple[str, str], str] | None = None,
) -> Suite:
    """The suite of ``cases`` under ``config``'s settings and metrics.

    ``sent`` maps (test case id, setting) to the prompt a run already sent, used instead of a
    fresh rendering (the two agree; a stored one is what the run's scores were computed on).
    """
    present = {c.family for c in cases}
    families = {n: FAMILIES.get(n) for n in sorted(present) if n in FAMILIES}
    scorers, options = _metrics_for(config, families)
    entries = []
    for case, setting_name, turn in first_turns(config, families, cases):
        prompt = (sent or {}).get((case.id, setting_name), turn.prompt)
        entries.append(
            SuiteEntry(
                id=f"{case.id}-{setting_name}",
                family=case.family,
                setting=setting_name,
                prompt=prompt,
                max_tokens=turn.max_tokens or config.answer.max_tokens,
                metrics=_applicable(scorers, case, families.get(case.family)),
                case=case,
            )
        )
    return Suite(name, entries, options, config.seed, config.answer.temperature)


def suite_of_run(run_dir: str | Path) -> Suite:
    """The suite of a run directory: its test cases, settings and metrics, with the prompts it sent."""
    from halluforge.pipeline import config_of_run
    from halluforge.store import RunStore

    run = Path(run_dir)
    if not (run / "store.sqlite").is_file():
        raise DataError("not a run directory (no store.sqlite)", path=str(run), hint="pass runs/<run-id>")
    config = config_of_run(run)
    store = RunStore(run)
    try:
        cases = store.all(TestCase)
        sent: dict[tuple[str, str], str] = {}
        for response in store.iter(Response):
            prompt = _sent_prompt(response) if not response.turn else None
            if prompt is not None:
                sent.setdefault((response.test_case_id, response.setting), prompt)
    finally:
        store.close()
    if not cases:
        raise DataError(
            "the run has no test cases to export", path=str(run), hint="run its forge stage first"
        )
    return suite_of_cases(config, cases, name=run.resolve().name, sent=sent)


def write_rows(path: Path, entries: Sequence[SuiteEntry]) -> None:
    """Write entries as JSON lines."""
    with path.open("w", encoding="utf-8") as handle:
        for entry in entries:
            handle.write(json.dumps(entry.row(), ensure_ascii=False) + "\n")


__all__ = [
    "Suite",
    "SuiteEntry",
    "first_turns",
    "suite_of_cases",
    "suite_of_run",
    "task_name",
    "write_rows",
]
