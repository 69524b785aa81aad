"""Loaders for ABCD's hard question sets: ObscureQA and HotpotQA (Balepur et al. 2023, §4).

**ObscureQA** (``loader: obscureqa``): college quiz-bowl tossups whose most obscure clue was
turned into a question, with ``question``, ``answer``, ``category`` and ``subcategory``
(5,094 train / 730 valid / 1,454 test). Its Hugging Face copy is a folder of
``data/{train,valid,test}-*.parquet`` shards (the split is ``valid``, not ``validation``); a
``save_to_disk`` folder or a single Parquet file works too. Column names are matched
tolerantly (``question``/``Question``; ``answer``/``answers``/``Answer``), ``fields:`` maps
others, and a file whose columns fit nothing fails with the list of columns it has.

**HotpotQA** (``loader: hotpotqa``): the official JSON files (a list of objects with ``_id``,
``question``, ``answer``, ``type``, ``level``, ``supporting_facts`` and ``context``) or JSON
lines, and the Hugging Face forms (Parquet or a saved folder, where ``context`` is
``{title, sentences}`` and ``supporting_facts`` ``{title, sent_id}``). The supporting
sentences become the evidence and ``type``/``level`` go into the metadata, so ABCD's subsets
(``type: bridge``, ``level: easy|medium``) are chosen with ``filters.where``, which counts
what it drops.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from halluforge.config import DataSource
from halluforge.data.hf_rows import hf_rows, is_hf_form
from halluforge.data.tabular import ALIASES_KEY, limited, open_text, source_name, source_path, split_answers
from halluforge.errors import DataError
from halluforge.limits import loads_json
from halluforge.records import Example

#: our field -> the column names ObscureQA copies have been seen with, in order of preference
OBSCURE_COLUMNS: dict[str, tuple[str, ...]] = {
    "question": ("question", "Question", "query", "text"),
    "answers": ("answer", "answers", "Answer", "Answers"),
}


def map_columns(columns: Sequence[str], source: DataSource, where: str) -> dict[str, str]:
    """Our field -> the column that holds it; a missing one fails with the columns found."""
    mapped: dict[str, str] = {}
    for ours, candidates in OBSCURE_COLUMNS.items():
        wanted = source.fields.get(ours)
        found = wanted if wanted in columns else next((c for c in candidates if c in columns), None)
        if found is None:
            raise DataError(
                f"no {ours} column (columns found: {', '.join(columns) or 'none'})",
                path=where,
                field=wanted or ours,
                hint=f"map it with `fields: {{{ours}: <column>}}`",
            )
        mapped[ours] = found
    return mapped


def load_obscureqa(source: DataSource) -> Iterator[Example]:
    """ObscureQA rows as examples: question, the answer (and any aliases), category in metadata."""
    path = source_path(source)
    name = source.name or "obscureqa" + (f":{source.split}" if source.split else "")
    rows, columns = hf_rows(source)
    mapped = map_columns(columns, source, str(path))

    def examples() -> Iterator[Example]:
        for where, row in rows:
            question = row.get(mapped["question"])
            answers = split_answers(row.get(mapped["answers"]), "")
            if not isinstance(question, str) or not question.strip() or not answers:
                raise DataError(
                    f"{where}: empty question or answer", path=str(path), hint="drop the row or fix it"
                )
            metadata = {k: v for k, v in row.items() if k not in mapped.values() and _plain(v)}
            metadata[ALIASES_KEY] = True  # one answer with its spellings, never several answers
            yield Example.build(question.strip(), answers, None, source=name, metadata=metadata)

    return limited(examples(), source)


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _json_entries(path: Path) -> Iterator[tuple[str, Any]]:
    with open_text(path) as handle:
        text = handle.read()
    try:
        data = loads_json(text, path=str(path))
    except json.JSONDecodeError:
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                try:
                    yield f"line {number}", loads_json(line, path=str(path), line=number)
                except json.JSONDecodeError as exc:
                    raise DataError(f"not valid JSON ({exc.msg})", path=str(path), line=number) from None
        return
    if not isinstance(data, list):
        raise DataError("expected a JSON list of questions", path=str(path), hint="use HotpotQA's layout")
    for index, entry in enumerate(data):
        yield f"entry {index}", entry


def _sentences(context: Any) -> dict[str, list[str]]:
    """Title -> sentences, from the JSON form (``[[title, [s...]], ...]``) or the HF form."""
    if isinstance(context, Mapping):
        titles, sentences = context.get("title") or [], context.get("sentences") or []
        return {str(t): [str(s) for s in sent] for t, sent in zip(titles, sentences, strict=False)}
    out: dict[str, list[str]] = {}
    for pair in context or []:
        if isinstance(pair, list | tuple) and len(pair) == 2:
            out[str(pair[0])] = [str(s) for s in pair[1]]
    return out


def _facts(facts: Any) -> list[tuple[str, int]]:
    if isinstance(facts, Mapping):
        return [
            (str(t), int(i))
            for t, i in zip(facts.get("title") or [], facts.get("sent_id") or [], strict=False)
        ]
    return [(str(f[0]), int(f[1])) for f in facts or [] if isinstance(f, list | tuple) and len(f) == 2]


def hotpot_example(entry: Any, where: str, path: str, name: str) -> Example:
    """One HotpotQA entry (JSON or HF form) as an example; a missing field names the entry."""
    if not isinstance(entry, Mapping):
        raise DataError(f"{where}: expected an object", path=path, hint="use HotpotQA's layout")
    for key in ("question", "answer"):
        if not isinstance(entry.get(key), str) or not entry[key].strip():
            raise DataError(
                f"{where}: missing or empty", path=path, field=key, hint=f"every entry needs {key!r}"
            )
    sentences = _sentences(entry.get("context"))
    facts = _facts(entry.get("supporting_facts"))
    evidence = " ".join(
        sentences[t][i].strip() for t, i in facts if t in sentences and 0 <= i < len(sentences[t])
    )
    metadata = {k: entry.get(k) for k in ("type", "level") if entry.get(k) is not None}
    source_id = entry.get("_id", entry.get("id"))
    if source_id is not None:
        metadata["source_id"] = str(source_id)
    return Example.build(
        str(entry["question"]).strip(),
        [str(entry["answer"]).strip()],
        evidence or None,
        source=name,
        title=facts[0][0] if facts else None,
        metadata=metadata,
    )


def load_hotpotqa(source: DataSource) -> Iterator[Example]:
    """HotpotQA questions (JSON, JSON lines, Parquet or a saved folder) as examples."""
    path = source_path(source)
    name = source_name(source, path)
    rows: Iterator[tuple[str, Any]] = hf_rows(source)[0] if is_hf_form(path) else _json_entries(path)
    return limited((hotpot_example(entry, where, str(path), name) for where, entry in rows), source)


__all__ = ["OBSCURE_COLUMNS", "hotpot_example", "load_hotpotqa", "load_obscureqa", "map_columns"]
