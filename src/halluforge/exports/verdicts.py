"""Score one harness reply with halluforge's own scorers: the verdicts exported tasks report.

An exported task (inspect, lm-eval) hands each model reply to :func:`score_reply` (or
:func:`ascore_reply` inside an event loop) with the entry's test case and metric names. The
reply becomes a :class:`~halluforge.records.Response` exactly as the answer stage stores one
(text stripped) and every metric is computed by the registered scorer with the run's options,
so a harness verdict equals the run's score on the same reply by construction: one
implementation, not a copy that could drift. Only scorers that need no model are exported
(:data:`MODEL_METRICS` are left out: they need an NLI or judge model the harness does not have).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from halluforge.metrics import SCORERS, ScoreContext
from halluforge.records import Response, TestCase

#: scorers that need a model (NLI, BERTScore) and so are not run inside a harness
MODEL_METRICS = frozenset({"entail", "bertscore", "bertscore_disengage"})
#: the model name harness replies are scored under (never stored)
HARNESS_MODEL = "harness"


def harness_metric(name: str) -> bool:
    """Whether a registered scorer can run in a harness: first turn, no model, no log-probabilities."""
    if name in MODEL_METRICS or name not in SCORERS:
        return False
    scorer = SCORERS.get(name)
    return scorer.turns is None and not scorer.needs_logprobs


def reply_response(case: TestCase, reply: str, setting: str) -> Response:
    """A harness reply as the answer stage would store it (text stripped, no error)."""
    return Response(
        id="harness",
        test_case_id=case.id,
        model=HARNESS_MODEL,
        setting=setting,
        text=reply.strip(),
    )


def _case(case: TestCase | Mapping[str, Any] | str) -> TestCase:
    if isinstance(case, TestCase):
        return case
    data = json.loads(case) if isinstance(case, str) else case
    return TestCase.model_validate(data)


#: scorers built so far, by (name, options, seed): a learned premise judge loads its model once
_BUILT: dict[str, Any] = {}


def _scorers(metrics: Sequence[str], options: Mapping[str, Mapping[str, Any]], seed: int) -> list[Any]:
    out = []
    for name in metrics:
        key = json.dumps([name, options.get(name, {}), seed], sort_keys=True, default=str)
        if key not in _BUILT:
            _BUILT[key] = SCORERS.get(name)(ScoreContext(options=dict(options.get(name, {})), seed=seed))
        out.append(_BUILT[key])
    return out


def score_reply(
    case: TestCase | Mapping[str, Any] | str,
    reply: str,
    metrics: Sequence[str],
    *,
    setting: str = "",
    options: Mapping[str, Mapping[str, Any]] | None = None,
    seed: int = 0,
) -> dict[str, float | None]:
    """Each metric's value for one reply (None when the scorer could not compute it).

    ``case`` is a test case, its JSON dict or its JSON text (as the exported entries carry it).
    Use :func:`ascore_reply` from inside a running event loop.
    """
    test_case = _case(case)
    response = reply_response(test_case, reply, setting)
    out: dict[str, float | None] = {}
    for name, scorer in zip(metrics, _scorers(metrics, options or {}, seed), strict=True):
        out[name] = scorer.score_batch([(test_case, response)])[0].value
    return out


async def ascore_reply(
    case: TestCase | Mapping[str, Any] | str,
    reply: str,
    metrics: Sequence[str],
    *,
    setting: str = "",
    options: Mapping[str, Mapping[str, Any]] | None = None,
    seed: int = 0,
) -> dict[str, float | None]:
    """:func:`score_reply` for callers inside an event loop (inspect's scorers are async)."""
    test_case = _case(case)
    response = reply_response(test_case, reply, setting)
    out: dict[str, float | None] = {}
    for name, scorer in zip(metrics, _scorers(metrics, options or {}, seed), strict=True):
        out[name] = (await scorer.ascore_batch([(test_case, response)]))[0].value
    return out


__all__ = [
    "HARNESS_MODEL",
    "MODEL_METRICS",
    "ascore_reply",
    "harness_metric",
    "reply_response",
    "score_reply",
]
