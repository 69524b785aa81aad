"""Run a run's exported suite in inspect_ai and lm-evaluation-harness, replaying its stored replies.

Exports RUN_DIR as inspect tasks and as an lm-eval task folder (into a temporary folder), runs
both harnesses offline with a model that returns, for each prompt, the reply the run stored for
it (one target: ``--model``, default the run's first), and compares every sample's verdicts
with the scores the run stored. Prints per harness and metric ``agreed/compared`` and the
harness's wall time, and as its last line ``ratio=<agreed / compared over every metric and
harness>`` (1.0 is the target: the harnesses score with halluforge's own scorers).

    pip install 'halluforge[harness]'
    python benchmarks/harness_round_trip.py runs/<run-id>
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from halluforge.exports import export_run
from halluforge.metrics.joined import latest_scores
from halluforge.records import Response, Score
from halluforge.store import RunStore


def stored(run: Path, model: str | None) -> tuple[str, dict[str, str], dict[tuple[str, str], float]]:
    """The target, its replies by sample id, and its computed first-turn scores by (sample id, metric).

    Replies are keyed by sample, not by prompt: two test cases can share a prompt (a family's
    case and its original under closed_book) and a model need not give both the same reply.
    """
    store = RunStore(run)
    try:
        responses = [r for r in store.iter(Response) if not r.turn and r.error is None]
        target = model or responses[0].model
        mine = {r.id: r for r in responses if r.model == target}
        replies = {f"{r.test_case_id}-{r.setting}": r.text for r in mine.values()}
        scores = {}
        for score in latest_scores(store.iter(Score)):
            r = mine.get(score.response_id)
            if r is not None and score.value is not None:
                scores[(f"{r.test_case_id}-{r.setting}", score.metric)] = score.value
    finally:
        store.close()
    return target, replies, scores


def run_inspect(folder: Path, replies: dict[str, str]) -> dict[tuple[str, str], float]:
    """Every sample's verdicts from ``inspect_ai.eval`` (what ``inspect eval tasks.py`` runs).

    The replaying model looks its reply up by the id of the sample being run (inspect's
    ``sample_state``, not a public name): prompts alone can repeat across test cases.
    """
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.solver._task_state import sample_state

    def replay(messages: list[Any], tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        state = sample_state()
        assert state is not None, "called outside a sample"
        out = ModelOutput.from_content(model="replay", content=replies[str(state.sample_id)])
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tokenizer download
        return out

    here = os.getcwd()
    os.chdir(folder)  # inspect resolves task files against the working folder
    try:
        logs = inspect_eval(
            "tasks.py",
            model=get_model("mockllm/model", custom_outputs=replay),
            display="none",
            log_dir=str(folder / "logs"),
        )
    finally:
        os.chdir(here)
    return {
        (str(sample.id), metric): value
        for log in logs
        for sample in log.samples or []
        for metric, value in (sample.scores or {})["halluforge_verdicts"].value.items()
    }


def run_lm_eval(folder: Path, replies: dict[str, str], tasks: list[str]) -> dict[tuple[str, str], float]:
    """Every sample's verdicts from ``lm_eval.simple_evaluate`` (what ``lm_eval --tasks`` runs)."""
    from lm_eval import simple_evaluate
    from lm_eval.api.model import LM
    from lm_eval.tasks import TaskManager

    class Replay(LM):  # type: ignore[misc]
        def generate_until(self, requests: list[Any]) -> list[str]:
            return [replies[request.doc["id"]] for request in requests]

        def loglikelihood(self, requests: list[Any]) -> list[Any]:
            raise NotImplementedError("replies only: multiple-choice twins are not replayed here")

        def loglikelihood_rolling(self, requests: list[Any]) -> list[Any]:
            raise NotImplementedError

    manager = TaskManager(include_path=str(folder), include_defaults=False)
    result = simple_evaluate(model=Replay(), tasks=tasks, task_manager=manager, log_samples=True)
    return {
        (s["doc"]["id"], metric): s[metric]
        for samples in (result or {}).get("samples", {}).values()
        for s in samples
        for metric in s["doc"]["metrics"]
        if s.get(metric) is not None
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--model", help="the target whose replies are replayed (default: the first)")
    args = parser.parse_args()
    target, replies, ours = stored(args.run_dir, args.model)
    print(f"run={args.run_dir} target={target} prompts={len(replies)}")
    agreed_all = compared_all = 0
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        export_run(args.run_dir, "inspect", root / "inspect")
        written = export_run(args.run_dir, "lm-eval", root / "lm-eval")
        tasks = [name for name in written if name != "tasks" and not name.endswith("__mc")]
        for harness, run in (
            ("inspect", lambda: run_inspect(root / "inspect", replies)),
            ("lm-eval", lambda: run_lm_eval(root / "lm-eval", replies, tasks)),
        ):
            started = time.perf_counter()
            theirs = run()
            seconds = time.perf_counter() - started
            metrics = sorted({m for _, m in theirs})
            parts = []
            for metric in metrics:
                keys = [k for k in theirs if k[1] == metric and k in ours]
                agreed = sum(abs(ours[k] - theirs[k]) < 1e-9 for k in keys)
                agreed_all, compared_all = agreed_all + agreed, compared_all + len(keys)
                parts.append(f"{metric} {agreed}/{len(keys)}")
            print(f"{harness}: {', '.join(parts)} ({seconds:.1f} s)")
    print(f"ratio={agreed_all / compared_all if compared_all else float('nan'):.4f}")


if __name__ == "__main__":
    main()
