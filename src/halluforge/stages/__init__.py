"""The stages of a run, each ``async run(ctx) -> counts`` over a :class:`RunContext`.

load → select → forge → answer → score → report; see :mod:`halluforge.pipeline` for the order
and :mod:`halluforge.stages.context` for what a stage may use.
"""

from __future__ import annotations

from halluforge.stages.context import ModelPool, NullProgress, Progress, RunContext, StageCounts

__all__ = ["ModelPool", "NullProgress", "Progress", "RunContext", "StageCounts"]
