"""halluforge: forge fresh adversarial test cases from your data and measure LLM hallucination.

The data flow is load → select → forge → answer → score → report; each stage reads the
previous one's output from the run store. The Python API mirrors the CLI::

    from halluforge import load_config, run

    summary = run(load_config("my-run.yaml"))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from halluforge.config import RunConfig
    from halluforge.pipeline import RunResult


def load_config(path: str | None = None, overrides: dict[str, Any] | None = None) -> RunConfig:
    """Load a run config (defaults when ``path`` is None); see :mod:`halluforge.config`."""
    from halluforge.config import load_config as _load

    return _load(path, overrides)


def run(config: RunConfig | None = None) -> RunResult:
    """Run every stage for ``config`` (the embedded default when None) and return the result."""
    from halluforge.pipeline import run_pipeline

    return run_pipeline(config)


__all__ = ["__version__", "load_config", "run"]
