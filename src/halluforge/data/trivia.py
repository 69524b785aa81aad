"""Loader for TriviaQA-format JSON (Joshi et al., 2017), the question source of INVITE's date questions.

The published files (``qa/wikipedia-dev.json``, ``qa/web-test-without-answers.json``, ...) hold
one JSON object ``{"Data": [...], "Version": ..., "Domain": ...}``; each entry has
``QuestionId``, ``Question`` and, except in the test files, ``Answer`` with ``Value``,
``Aliases`` and ``NormalizedAliases``. Entries of the Hugging Face export use lowercase keys
(``question_id``, ``question``, ``answer: {value, aliases}``) and are accepted too, as is a bare
JSON list of entries or JSON lines of entries, and so is the Hugging Face dataset itself (its
Parquet shards or a ``save_to_disk`` folder, with ``split:``). Test-set entries without an answer load with an
empty answer list (enough for the ``invalid_date`` family, which needs only the question).

Evidence documents live in separate files in TriviaQA; with ``options.evidence_dir`` set, the
first listed ``EntityPages`` / ``SearchResults`` file found under that folder becomes the
evidence. A missing ``Question`` raises :class:`~halluforge.errors.DataError` naming the file,
the entry and the field, and so does an entry with none of TriviaQA's id and answer keys (a
plain question/answers file would otherwise load as questions without answers and evidence,
and every one would be filtered out: a run of 0 cases).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from halluforge.config import DataSource
from halluforge.data.hf_rows import hf_rows, is_hf_form
from halluforge.data.tabular import ALIASES_KEY, limited, open_text, source_name, source_path
from halluforge.errors import DataError
from halluforge.limits import loads_json
from halluforge.records import Example


def _entries(path: Path) -> Iterator[tuple[int, str, Any]]:
    """Yield ``(position, where, entry)``; ``where`` is ``line N`` or ``Data[i]`` for messages."""
    with open_text(path) as handle:
        text = handle.read()
    try:
        data = loads_json(text, path=str(path))
    except json.JSONDecodeError as exc:
        if exc.lineno > 1 and _parses(text.lstrip().split("\n", 1)[0]):  # one entry per line
            yield from _json_lines(path)
            return
        raise DataError(
            f"not valid JSON ({exc.msg})", path=str(path), line=exc.lineno, hint="fix the JSON syntax"
        ) from None
    if isinstance(data, dict):
        if "Data" not in data and "data" not in data:
            yield 0, "entry 1", data
            return
        data = data.get("Data", data.get("data"))
    if not isinstance(data, list):
        raise DataError("'Data' is not a list", path=str(path), field="Data", hint="use TriviaQA's layout")
    for index, entry in enumerate(data):
        yield index, f"Data[{index}]", entry


def _parses(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except json.JSONDecodeError:
        return False


def _json_lines(path: Path) -> Iterator[tuple[int, str, Any]]:
    with open_text(path) as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                yield number, f"line {number}", loads_json(line, path=str(path), line=number)
            except json.JSONDecodeError as exc:
                raise DataError(
                    f"not valid JSON ({exc.msg})", path=str(path), line=number, hint="one entry per line"
                ) from None


#: keys of which a TriviaQA entry has at least one (test-set entries have no answer, but an id)
_TRIVIA_KEYS = ("QuestionId", "question_id", "Answer", "answer")


def _get(entry: dict[str, Any], *keys: str) -> Any:
    for key in keys:
        if key in entry:
            return entry[key]
    return None


def _answers(entry: dict[str, Any]) -> list[str]:
    answer = _get(entry, "Answer", "answer")
    if answer is None:
        return []
    if isinstance(answer, str):
        return [answer]
    if not isinstance(answer, dict):
        return []
    values = [_get(answer, "Value", "value")]
    values += list(_get(answer, "Aliases", "aliases") or [])
    seen: dict[str, None] = {}
    for value in values:
        if isinstance(value, str) and value.strip():
            seen.setdefault(value.strip(), None)
    return list(seen)


def _evidence(entry: dict[str, Any], folder: Path | None) -> str | None:
    if folder is None:
        return None
    for group, sub in (("EntityPages", "wikipedia"), ("SearchResults", "web")):
        for page in _get(entry, group, group.lower()) or []:
            name = page.get("Filename") if isinstance(page, dict) else None
            for candidate in (folder / sub / str(name), folder / str(name)) if name else ():
                if candidate.is_file():
                    return candidate.read_text(encoding="utf-8")
    return None


def load_triviaqa(source: DataSource) -> Iterator[Example]:
    """Read TriviaQA-format JSON into examples (``id`` from ``QuestionId``; answers may be empty)."""
    path = source_path(source)
    name = source_name(source, path)
    folder = source.options.get("evidence_dir")
    evidence_dir = Path(folder) if folder else None

    def examples() -> Iterator[Example]:
        if is_hf_form(path):  # the Hugging Face export: Parquet shards or a save_to_disk folder
            entries: Iterator[tuple[str, Any]] = hf_rows(source)[0]
        else:
            entries = ((where, entry) for _index, where, entry in _entries(path))
        for where, entry in entries:
            if not isinstance(entry, dict):
                raise DataError(f"{where}: expected an object", path=str(path), hint="use TriviaQA's layout")
            if not any(key in entry for key in _TRIVIA_KEYS):
                keys = ", ".join(sorted(map(str, entry))[:8]) or "none"
                raise DataError(
                    f"{where}: not a TriviaQA entry (its keys: {keys}); the triviaqa loader expects "
                    "QuestionId, Question and Answer {Value, Aliases} (or question_id, question and "
                    "answer {value, aliases})",
                    path=str(path),
                    hint="for plain JSON lines with question and answers use loader: jsonl",
                )
            question = _get(entry, "Question", "question")
            if not isinstance(question, str) or not question.strip():
                raise DataError(
                    f"{where}: missing or empty",
                    path=str(path),
                    field="Question",
                    hint="every entry needs a Question string",
                )
            qid = _get(entry, "QuestionId", "question_id")
            answers = _answers(entry)
            metadata: dict[str, Any] = {"question_id": qid} if qid is not None else {}
            if len(answers) > 1:  # TriviaQA lists aliases of one answer, not several answers
                metadata[ALIASES_KEY] = True
            yield Example.build(
                question.strip(),
                answers,
                _evidence(entry, evidence_dir),
                source=name,
                metadata=metadata,
            )

    return limited(examples(), source)


__all__ = ["load_triviaqa"]
