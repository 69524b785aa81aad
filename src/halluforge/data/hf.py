"""Load examples from a Hugging Face dataset: a folder saved with ``save_to_disk`` or a hub id.

A folder is opened with :func:`datasets.load_from_disk` and works offline. Anything else is
passed to :func:`datasets.load_dataset` with ``split=source.split`` (default ``"train"``), which
downloads from the hub and so needs internet; ``options.load_kwargs`` is forwarded (for example
a config ``name``). Rows go through the same field mapping as the tabular loaders
(``fields: {question: query, answers: gold}``); "line" in errors is the 1-based row number.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from halluforge.config import DataSource
from halluforge.data.tabular import ALIASES_KEY, check_fields, limited, row_to_example
from halluforge.errors import ConfigError, DataError
from halluforge.records import Example


def _import_datasets() -> Any:
    try:
        import datasets
    except ImportError as exc:
        raise ConfigError(
            "loading Hugging Face datasets needs the datasets package", hint='pip install "halluforge[data]"'
        ) from exc
    return datasets


def _pick_split(loaded: Any, source: DataSource, where: str) -> Any:
    """One split of a DatasetDict: the configured one, or the only one there is."""
    if not isinstance(loaded, Mapping):
        return loaded
    splits = sorted(loaded)
    if source.split is not None:
        if source.split not in loaded:
            raise ConfigError(
                f"{where}: no split {source.split!r}", hint=f"set `split:` to one of {', '.join(splits)}"
            )
        return loaded[source.split]
    if len(splits) == 1:
        return loaded[splits[0]]
    raise ConfigError(f"{where}: several splits ({', '.join(splits)})", hint="choose one with `split:`")


#: file name endings of local data files: a name with one is a path, never a hub id
LOCAL_SUFFIXES = (
    ".jsonl",
    ".json",
    ".ndjson",
    ".csv",
    ".tsv",
    ".parquet",
    ".pq",
    ".gz",
    ".txt",
    ".nt",
    ".arrow",
)


def looks_local(text: str) -> bool:
    """True when ``text`` reads as a local path (``./x``, ``/x``, ``~/x``, ``x.jsonl``), not a hub id."""
    lowered = text.lower()
    return (
        text.startswith((".", "/", "~"))
        or "\\" in text
        or lowered.endswith(LOCAL_SUFFIXES)
        or Path(text).expanduser().exists()
    )


def _open(source: DataSource) -> tuple[Any, str]:
    if not source.path:
        raise DataError("the hf loader needs a path", hint="give a saved dataset folder or a hub dataset id")
    folder = Path(source.path).expanduser()
    if folder.is_file():
        raise DataError(
            "the hf loader reads a folder saved with save_to_disk or a hub id, not a file",
            path=source.path,
            hint="use loader: jsonl, csv or parquet for a file",
        )
    if not folder.is_dir() and looks_local(source.path):
        raise DataError("file not found", path=source.path, hint="check the path, relative to where you run")
    datasets = _import_datasets()
    if folder.is_dir():
        try:
            loaded = datasets.load_from_disk(str(folder))
        except Exception as exc:  # datasets raises FileNotFoundError, ValueError, ... for a bad folder
            raise DataError(
                f"not a saved dataset ({exc})", path=str(folder), hint="save it with Dataset.save_to_disk"
            ) from exc
        return _pick_split(loaded, source, str(folder)), folder.name
    kwargs = dict(source.options.get("load_kwargs", {}))
    try:
        loaded = datasets.load_dataset(source.path, split=source.split or "train", **kwargs)
    except Exception as exc:  # network, unknown id, unknown split: all surface here
        raise DataError(
            f"cannot load dataset from the hub ({exc})",
            path=source.path,
            hint="check the id and your internet connection, or give a folder saved with save_to_disk",
        ) from exc
    return loaded, source.path


def _hf_examples(dataset: Any, source: DataSource, label: str) -> Iterator[Example]:
    columns = check_fields(source)
    sep = str(source.options.get("answers_sep", "|"))
    aliases = bool(source.options.get(ALIASES_KEY, False))
    name = source.name or label
    count = 0
    for row_number, row in enumerate(dataset, start=1):
        yield row_to_example(
            row, columns=columns, name=name, path=label, line=row_number, answers_sep=sep, aliases=aliases
        )
        count += 1
    if count == 0:
        raise DataError("no examples", path=label, hint="the dataset split is empty")


def load_hf(source: DataSource) -> Iterator[Example]:
    """Read a Hugging Face dataset (saved folder or hub id) through the field mapping."""
    dataset, label = _open(source)
    return limited(_hf_examples(dataset, source, label), source)


__all__ = ["LOCAL_SUFFIXES", "load_hf", "looks_local"]
