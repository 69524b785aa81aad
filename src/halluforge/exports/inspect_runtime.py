"""What an exported inspect task runs: the dataset reader, the solver and halluforge's scorer.

``halluforge export RUN --format inspect`` writes a small task file whose ``@task`` functions
call :func:`suite_task`; ``inspect eval tasks.py`` then runs them with this module, which needs
``inspect_ai`` (``pip install 'halluforge[harness]'``). Each inspect sample (one suite entry) is the one user
message our answer plan sends, asked with its own reply budget (:func:`plan_reply`), and scored by
:func:`halluforge_verdicts`: halluforge's own scorers on the reply, one value per metric
(``em``, ``f1``, ``hit``, ``premise_judge``, ``accuracy``...), averaged by inspect with a standard error.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai.dataset import Sample, json_dataset
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer, stderr
from inspect_ai.solver import Generate, Solver, TaskState, solver

from halluforge.exports.verdicts import ascore_reply

#: the header file written beside the task file (metric options, seed, temperature)
HEADER = "suite.json"


def record_to_sample(record: dict[str, Any]) -> Sample:
    """One exported row as an inspect sample (the test case rides in the metadata)."""
    return Sample(
        id=record["id"],
        input=record["input"],
        target=record["target"],
        metadata={
            "family": record["family"],
            "setting": record["setting"],
            "max_tokens": record["max_tokens"],
            "metrics": record["metrics"],
            "case": record["case"],
        },
    )


@solver
def plan_reply(temperature: float = 0.0) -> Solver:
    """Ask the model once, with the sample's reply budget and the run's temperature."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        return await generate(state, max_tokens=int(state.metadata["max_tokens"]), temperature=temperature)

    return solve


@scorer(metrics={"*": [mean(), stderr()]})
def halluforge_verdicts(options: dict[str, Any] | None = None, seed: int = 0) -> Scorer:
    """Halluforge's scorers on the reply: one value per metric the sample lists (None ones left out)."""

    async def score(state: TaskState, target: Target) -> Score:
        reply = state.output.completion
        values = await ascore_reply(
            state.metadata["case"],
            reply,
            state.metadata["metrics"],
            setting=state.metadata["setting"],
            options=options or {},
            seed=seed,
        )
        computed = {name: value for name, value in values.items() if value is not None}
        missing = sorted(set(values) - set(computed))
        return Score(value=computed, answer=reply, metadata={"not_computed": missing})

    return score


def suite_task(data_file: str | Path) -> Task:
    """The inspect task of one exported data file (its ``suite.json`` sits beside it)."""
    path = Path(data_file)
    header = json.loads((path.parent / HEADER).read_text(encoding="utf-8"))
    return Task(
        dataset=json_dataset(str(path), sample_fields=record_to_sample, name=path.stem),
        solver=plan_reply(float(header.get("temperature", 0.0))),
        scorer=halluforge_verdicts(header.get("options", {}), int(header.get("seed", 0))),
    )


__all__ = ["HEADER", "halluforge_verdicts", "plan_reply", "record_to_sample", "suite_task"]
