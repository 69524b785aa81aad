"""Loaders that read user datasets into :class:`~halluforge.records.Example` records.

Each loader takes a :class:`~halluforge.config.DataSource` and yields examples; malformed
input raises :class:`~halluforge.errors.DataError` naming the file, line and field. The
papers' filters live in :mod:`halluforge.data.filters` and count every drop with its reason.
The generic loaders are listed here; a family's own (RECALL's ``rgb``) come from its spec
(:class:`~halluforge.family.LoaderSpec`), with the options they read and whether their
examples are the family's ready-made test cases.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from halluforge.config import DataSource
from halluforge.family import LoaderSpec, all_families
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
    },
    source=lambda: {name: loader.target for name, (_, loader) in _family_loaders().items()},
)

_TABLE_OPTIONS = ("answers_sep", "answers_are_aliases")

#: the ``options`` keys each generic loader reads; any other key is a config error
_OPTIONS: dict[str, tuple[str, ...]] = {
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
}


#: install extras each generic loader needs (checked by preflight before the file is read)
LOADER_EXTRAS: dict[str, tuple[str, ...]] = {"parquet": ("data",), "hf": ("data",)}


def _family_loaders() -> dict[str, tuple[str, LoaderSpec]]:
    """Loaders the families bring, by name, with the family that brings each."""
    return {
        name: (spec.name, loader) for spec in all_families() for name, loader in spec.brings.loaders.items()
    }


def loader_options(name: str) -> tuple[str, ...] | None:
    """The ``options`` keys loader ``name`` reads, or None when it declares none (a plugin's own)."""
    if name in _OPTIONS:
        return _OPTIONS[name]
    found = _family_loaders().get(name)
    return found[1].options if found is not None else None


def ready_family(source: DataSource) -> str | None:
    """The family of the ready-made cases a source holds (``test_cases``, else its loader's), or None."""
    if source.test_cases:
        return source.test_cases
    found = _family_loaders().get(source.loader)
    if found is not None and found[1].ready_made and source.options.get("mode", "cases") == "cases":
        return found[0]
    return None


__all__ = ["LOADERS", "LOADER_EXTRAS", "Loader", "loader_options", "ready_family"]
