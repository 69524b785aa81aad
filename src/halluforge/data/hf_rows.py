"""Rows of a dataset in its Hugging Face forms: a Parquet file, a folder of Parquet shards, a saved folder.

Hub datasets come as ``data/<split>-*.parquet`` shards (ObscureQA: ``data/{train,valid,test}-*``)
or as a folder written by ``Dataset.save_to_disk`` / ``DatasetDict.save_to_disk``. Loaders
that know a dataset's own columns (ObscureQA, HotpotQA, TriviaQA) read their rows through
:func:`hf_rows` and map the columns themselves. A folder of shards picks the shards of
``source.split`` (or the only split there is); a saved folder is opened with
:func:`datasets.load_from_disk` (offline). Rows come as ``(where, row)``, ``where`` naming the
file and row for error messages.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from halluforge.config import DataSource
from halluforge.data.hf import open_dataset
from halluforge.data.tabular import parquet_file, source_path
from halluforge.errors import ConfigError

_SHARD = re.compile(r"^(?P<split>[A-Za-z_]+?)(?:[-_]\d.*)?\.parquet$")


def is_hf_form(path: Path) -> bool:
    """Whether ``path`` is a Parquet file or a folder (shards or ``save_to_disk``), not a JSON file."""
    return path.is_dir() or path.suffix == ".parquet"


def _saved(folder: Path) -> bool:
    return any((folder / name).is_file() for name in ("dataset_info.json", "state.json", "dataset_dict.json"))


def parquet_shards(folder: Path, split: str | None) -> list[Path]:
    """The shards of one split under ``folder`` (or ``folder/data``); an unknown split is an error."""
    shards = sorted(folder.glob("*.parquet")) or sorted((folder / "data").glob("*.parquet"))
    by_split: dict[str, list[Path]] = {}
    for shard in shards:
        match = _SHARD.match(shard.name)
        by_split.setdefault(match.group("split") if match else shard.stem, []).append(shard)
    if not by_split:
        raise ConfigError(
            f"{folder}: no Parquet files and not a saved dataset", hint="point path at the data"
        )
    if split is None:
        if len(by_split) == 1:
            return next(iter(by_split.values()))
        raise ConfigError(
            f"{folder}: several splits ({', '.join(sorted(by_split))})", hint="choose one with `split:`"
        )
    if split not in by_split:
        raise ConfigError(
            f"{folder}: no split {split!r}", hint=f"set `split:` to one of {', '.join(sorted(by_split))}"
        )
    return by_split[split]


def hf_rows(source: DataSource) -> tuple[Iterator[tuple[str, dict[str, Any]]], list[str]]:
    """The rows of a Parquet file, a shard folder or a saved folder, and the column names found."""
    path = source_path(source)
    if path.is_dir() and _saved(path):
        dataset, label = open_dataset(source)
        columns = list(dataset.column_names)

        def saved_rows() -> Iterator[tuple[str, dict[str, Any]]]:
            for number, row in enumerate(dataset, start=1):
                yield f"{label} row {number}", dict(row)

        return saved_rows(), columns
    files = parquet_shards(path, source.split) if path.is_dir() else [path]
    opened = [(f, parquet_file(f)) for f in files]
    columns = list(opened[0][1].schema_arrow.names)

    def parquet_rows() -> Iterator[tuple[str, dict[str, Any]]]:
        for file, parquet in opened:
            number = 0
            for batch in parquet.iter_batches():
                for row in batch.to_pylist():
                    number += 1
                    yield f"{file.name} row {number}", row

    return parquet_rows(), columns


__all__ = ["hf_rows", "is_hf_form", "parquet_shards"]
