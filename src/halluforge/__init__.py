"""halluforge: forge fresh adversarial test cases from your data and measure LLM hallucination.

The data flow is load → select → forge → answer → score → report; each stage reads the
previous one's output from the run store. The Python API mirrors the CLI::

    import halluforge as hf

    config = hf.load_config("my-run.yaml")
    cases = hf.forge_cases(config)            # the test cases, no target model asked
    result = hf.run(config)             # resumes: answer, score, report
    records = hf.load_records(result.run_dir)
    hf.export(result.run_dir, "lm-eval")

:mod:`halluforge.api` documents each function; they are imported on first use, so
``import halluforge`` stays light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from halluforge.api import RunRecords, answer, export, forge_cases, load_records, score, suite
    from halluforge.config import RunConfig
    from halluforge.pipeline import RunResult

#: names of :mod:`halluforge.api` this package exports, imported on first use
_API = ("RunRecords", "answer", "export", "forge_cases", "load_records", "score", "suite")


def load_config(path: str | None = None, overrides: dict[str, Any] | None = None) -> RunConfig:
    """Load a run config (defaults when ``path`` is None); see :mod:`halluforge.config`."""
    from halluforge.config import load_config as _load

    return _load(path, overrides)


def run(config: RunConfig | None = None) -> RunResult:
    """Run every stage for ``config`` (the embedded default when None) and return the result."""
    from halluforge.pipeline import run_pipeline

    return run_pipeline(config)


def __getattr__(name: str) -> Any:
    if name in _API:
        return getattr(importlib.import_module("halluforge.api"), name)
    raise AttributeError(f"module 'halluforge' has no attribute {name!r}")


__all__ = [
    "RunRecords",
    "__version__",
    "answer",
    "export",
    "forge_cases",
    "load_config",
    "load_records",
    "run",
    "score",
    "suite",
]
