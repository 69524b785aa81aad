"""Helpers of the harness round-trip tests: a run's stored replies by prompt, and its scores by sample."""

from __future__ import annotations

from pathlib import Path

from halluforge.metrics.joined import latest_scores
from halluforge.records import Response, Score
from halluforge.store import RunStore


def sent_prompt(response: Response) -> str:
    return [m.content for m in response.messages if m.role == "user"][-1]


def replies(run: Path, model: str) -> dict[str, str]:
    """The reply one target stored for each sample (``<test case id>-<setting>``, first turns).

    By sample, not by prompt: two test cases can share a prompt, and a model need not answer
    both alike (llama.cpp in batches is not bit-for-bit deterministic).
    """
    store = RunStore(run)
    try:
        return {
            f"{r.test_case_id}-{r.setting}": r.text
            for r in store.iter(Response)
            if r.model == model and not r.turn and r.error is None
        }
    finally:
        store.close()


def stored_verdicts(run: Path, model: str) -> dict[tuple[str, str], float]:
    """The run's latest computed first-turn scores of ``model``, by (sample id, metric)."""
    store = RunStore(run)
    try:
        responses = {r.id: r for r in store.iter(Response) if r.model == model and not r.turn}
        out: dict[tuple[str, str], float] = {}
        for score in latest_scores(store.iter(Score)):
            r = responses.get(score.response_id)
            if r is not None and score.value is not None:
                out[(f"{r.test_case_id}-{r.setting}", score.metric)] = score.value
        return out
    finally:
        store.close()


def agreement(
    ours: dict[tuple[str, str], float], theirs: dict[tuple[str, str], float], metrics: tuple[str, ...]
) -> dict[str, tuple[int, int]]:
    """Per metric: (samples whose harness verdict equals ours, samples compared)."""
    out: dict[str, tuple[int, int]] = {}
    for metric in metrics:
        keys = [k for k in theirs if k[1] == metric and k in ours]
        out[metric] = (sum(abs(ours[k] - theirs[k]) < 1e-9 for k in keys), len(keys))
    return out
