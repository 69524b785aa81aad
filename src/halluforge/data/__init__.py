"""Loaders that read user datasets into :class:`~halluforge.records.Example` records.

Each loader takes a :class:`~halluforge.config.DataSource` and yields examples; malformed
input raises :class:`~halluforge.errors.DataError` naming the file, line and field. The
papers' filters live in :mod:`halluforge.data.filters` and count every drop with its reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from halluforge.config import DataSource
from halluforge.records import Example
from halluforge.registry import Registry

Loader = Callable[[DataSource], Iterator[Example]]

LOADERS: Registry[Loader] = Registry(
    "loaders",
    {
        "bundled": "halluforge.data.bundled:load_bundled",
        "mrqa": "halluforge.data.qa:load_mrqa",
        "realtimeqa": "halluforge.data.qa:load_realtimeqa",
        "reeval": "halluforge.data.qa:load_reeval",
        "jsonl": "halluforge.data.tabular:load_jsonl",
        "csv": "halluforge.data.tabular:load_csv",
        "parquet": "halluforge.data.tabular:load_parquet",
        "hf": "halluforge.data.hf:load_hf",
        "triviaqa": "halluforge.data.trivia:load_triviaqa",
        "obscureqa": "halluforge.data.quiz:load_obscureqa",
        "hotpotqa": "halluforge.data.quiz:load_hotpotqa",
        "rgb": "halluforge.families.counterfactual.rgb:load_rgb",
    },
)

_TABLE_OPTIONS = ("answers_sep", "answers_are_aliases")

#: the ``options`` keys each built-in loader reads; any other key is a config error
LOADER_OPTIONS: dict[str, tuple[str, ...]] = {
    "bundled": (),
    "mrqa": ("clean",),
    "realtimeqa": (),
    "reeval": ("strip_quotes",),
    "jsonl": _TABLE_OPTIONS,
    "csv": (*_TABLE_OPTIONS, "delimiter"),
    "parquet": _TABLE_OPTIONS,
    "hf": (*_TABLE_OPTIONS, "load_kwargs"),
    "triviaqa": ("evidence_dir",),
    "obscureqa": (),
    "hotpotqa": (),
    "rgb": ("mode", "seed"),
}

#: loaders whose examples are ready-made test cases of a family (unless ``options.mode: examples``)
READY_MADE = {"rgb": "counterfactual"}


def ready_family(source: DataSource) -> str | None:
    """The family of the ready-made cases a source holds (``test_cases``, else its loader's), or None."""
    if source.test_cases:
        return source.test_cases
    if source.loader in READY_MADE and source.options.get("mode", "cases") == "cases":
        return READY_MADE[source.loader]
    return None


__all__ = ["LOADERS", "LOADER_OPTIONS", "READY_MADE", "Loader", "ready_family"]
