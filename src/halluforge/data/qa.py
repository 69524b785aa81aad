"""Loaders for the published QA datasets the papers start from: MRQA, RealtimeQA and ReEval.

- **MRQA** (Fisch et al., 2019), the shared format of Natural Questions, SQuAD, TriviaQA and
  others: JSON lines, plain or gzipped. The first line is a ``{"header": ...}`` object; every
  other line holds one ``context`` and its ``qas`` (``qid``, ``question``, ``answers``,
  ``detected_answers``). One example per question, with the context as evidence. The context
  markers MRQA inserts (``[PAR]``, ``[DOC]``, ``[TLE]``, ``[SEP]``) and the HTML-like layout
  tokens of Natural Questions (``<P>``, ``<Table>``, ``<Li>``...) are removed unless
  ``options.clean`` is false; a ``[TLE]`` marker gives the title.
- **RealtimeQA** (Kasai et al., 2022): JSON lines, one multiple-choice news question per line
  (``question_id``, ``question_date``, ``question_sentence``, ``choices``, ``answer`` as indices
  into ``choices``, ``evidence`` that often still holds HTML anchors, and the quiz's source and
  URL). The chosen options become the gold answers; the choices and dates go to metadata.
- **ReEval** (Yu et al., 2023): one JSON array of ``{q_id, question, answer, evidence, source}``
  objects; any further keys (``supporting_sen``, ``condensed_evidence``...) are kept in metadata.

Every malformed line raises :class:`~halluforge.errors.DataError` naming the file, the line and
the field. Evidence HTML is stripped later by :mod:`halluforge.data.filters`, where the removal
is counted with the other cleaning steps.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from halluforge.config import DataSource
from halluforge.data.tabular import (
    iter_json_lines,
    limited,
    open_text,
    source_name,
    source_path,
    split_answers,
)
from halluforge.errors import DataError
from halluforge.limits import raw_decode_json
from halluforge.records import Example
from halluforge.textkit.markup import strip_html

_MRQA_MARKERS = re.compile(r"\[(?:PAR|DOC|TLE|SEP)\]")
_TITLE = re.compile(r"\[TLE\]\s*(.*?)\s*(?:\[(?:SEP|PAR|DOC)\]|$)", re.DOTALL)
_QUOTES = {'"': '"', "\u201c": "\u201d", "\u201d": "\u201d", "'": "'", "\u2018": "\u2019"}


def clean_mrqa_context(context: str) -> str:
    """Remove MRQA's context markers and Natural Questions' layout tags (:func:`strip_html`)."""
    return strip_html(_MRQA_MARKERS.sub(" ", context))


def _mrqa_title(context: str) -> str | None:
    match = _TITLE.search(context)
    if match is None:
        return None
    return strip_html(match.group(1)) or None


def _require_text(row: dict[str, Any], key: str, path: Path, line: int, hint: str) -> str:
    value = row.get(key)
    if not isinstance(value, str) or not value.strip():
        raise DataError("missing or empty", path=str(path), line=line, field=key, hint=hint)
    return value.strip()


def _mrqa_examples(source: DataSource, path: Path) -> Iterator[Example]:
    clean = bool(source.options.get("clean", True))
    name = source_name(source, path)
    dataset: str | None = None
    count = 0
    for line, row in iter_json_lines(path):
        if "header" in row:
            header = row["header"]
            if isinstance(header, dict):
                dataset = str(header.get("dataset")) if header.get("dataset") else None
            continue
        raw_context = _require_text(
            row, "context", path, line, "every MRQA line after the header needs a context string"
        )
        qas = row.get("qas")
        if not isinstance(qas, list) or not qas:
            raise DataError(
                "missing or empty", path=str(path), line=line, field="qas", hint="give a list of questions"
            )
        evidence = clean_mrqa_context(raw_context) if clean else raw_context
        title = _mrqa_title(raw_context)
        for qa in qas:
            if not isinstance(qa, dict):
                raise DataError(
                    "each entry must be an object", path=str(path), line=line, field="qas", hint="fix it"
                )
            question = _require_text(qa, "question", path, line, "each entry of qas needs a question")
            answers = split_answers(qa.get("answers"), "")
            if not answers:
                detected = qa.get("detected_answers") or []
                answers = split_answers([d.get("text") for d in detected if isinstance(d, dict)], "")
            if not answers:
                raise DataError(
                    "no answers or detected_answers",
                    path=str(path),
                    line=line,
                    field="answers",
                    hint="each entry of qas needs at least one answer",
                )
            metadata: dict[str, Any] = {}
            if qa.get("qid") is not None:
                metadata["source_id"] = str(qa["qid"])
            if dataset:
                metadata["dataset"] = dataset
            count += 1
            yield Example.build(question, answers, evidence, source=name, title=title, metadata=metadata)
    if count == 0:
        raise DataError("no examples", path=str(path), hint="the file holds no questions; check the path")


def load_mrqa(source: DataSource) -> Iterator[Example]:
    """Read an MRQA JSON-lines file (plain or ``.gz``): one example per question."""
    path = source_path(source)
    return limited(_mrqa_examples(source, path), source)


def _evidence(row: dict[str, Any]) -> str | None:
    """The row's evidence text, stripped; None when absent, empty or not a string."""
    evidence = row.get("evidence")
    return (evidence.strip() or None) if isinstance(evidence, str) else None


def _realtimeqa_examples(source: DataSource, path: Path) -> Iterator[Example]:
    name = source_name(source, path)
    count = 0
    for line, row in iter_json_lines(path):
        question = _require_text(
            row, "question_sentence", path, line, "RealtimeQA lines carry the question in question_sentence"
        )
        choices = row.get("choices")
        if not isinstance(choices, list) or not choices:
            raise DataError(
                "missing or empty", path=str(path), line=line, field="choices", hint="give the answer options"
            )
        answer_hint = 'give the 0-based position of the right choice, e.g. "answer": ["2"]'
        raw_answer = row.get("answer")
        indices: list[Any] = raw_answer if isinstance(raw_answer, list) else [raw_answer]
        indices = [i for i in indices if i is not None and str(i).strip()]
        if not indices:
            raise DataError("missing or empty", path=str(path), line=line, field="answer", hint=answer_hint)
        positions: list[int] = []
        for index in indices:
            try:
                position = int(str(index).strip())
                if not 0 <= position < len(choices):
                    raise IndexError(position)
            except (ValueError, IndexError):
                raise DataError(
                    f"{index!r} is not an index into the {len(choices)} choices",
                    path=str(path),
                    line=line,
                    field="answer",
                    hint=answer_hint,
                ) from None
            positions.append(position)
        answers = split_answers([choices[p] for p in positions], "")
        if not answers:
            raise DataError(
                "the chosen option is empty", path=str(path), line=line, field="choices", hint="fill it in"
            )
        metadata: dict[str, Any] = {
            "source_id": str(row.get("question_id", "")),
            "question_date": row.get("question_date"),
            "choices": [str(c) for c in choices],
            "answer_index": positions,
        }
        for key in ("question_source", "source", "question_url", "links"):
            if row.get(key):
                metadata[key] = row[key]
        count += 1
        yield Example.build(
            question,
            answers,
            _evidence(row),
            source=name,
            metadata=metadata,
        )
    if count == 0:
        raise DataError("no examples", path=str(path), hint="the file is empty; check the path")


def load_realtimeqa(source: DataSource) -> Iterator[Example]:
    """Read a RealtimeQA JSON-lines file: the chosen options become the gold answers."""
    path = source_path(source)
    return limited(_realtimeqa_examples(source, path), source)


def _json_array(path: Path) -> Iterator[tuple[int, Any]]:
    """Yield ``(line number, element)`` for each element of a top-level JSON array."""
    try:
        with open_text(path) as handle:
            text = handle.read()
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise DataError(
            f"cannot read the file ({exc})", path=str(path), hint="check that it is UTF-8 JSON"
        ) from exc
    position = len(text) - len(text.lstrip())
    if position >= len(text):
        return
    if text[position] != "[":
        # Tolerate JSON lines: one object per line.
        for line, row in iter_json_lines(path):
            yield line, row
        return
    position += 1
    line = 1 + text.count("\n", 0, position)
    counted_to = position
    expect_value = True
    while True:
        while position < len(text) and text[position] in " \t\r\n,":
            if text[position] == ",":
                expect_value = True
            position += 1
        if position >= len(text):
            raise DataError(
                "the JSON array is not closed", path=str(path), hint="the file is cut short; add the final ]"
            )
        if text[position] == "]":
            return
        line += text.count("\n", counted_to, position)
        counted_to = position
        if not expect_value:
            raise DataError(
                "expected a comma between elements", path=str(path), line=line, hint="fix the JSON"
            )
        try:
            value, end = raw_decode_json(text, position, path=str(path), line=line)
        except json.JSONDecodeError as exc:
            raise DataError(
                f"not valid JSON ({exc.msg})", path=str(path), line=exc.lineno, hint="fix the JSON there"
            ) from None
        yield line, value
        position = end
        expect_value = False


def _unquote(answer: str) -> str:
    """Drop one pair of quote marks around a whole answer (ReEval writes titles in quotes)."""
    if len(answer) > 2 and answer[0] in _QUOTES and answer[-1] in (_QUOTES[answer[0]], answer[0], '"'):
        inner = answer[1:-1].strip()
        if inner and not any(q in inner for q in ('"', "\u201c", "\u201d")):
            return inner
    return answer


_REEVAL_CORE = ("q_id", "question", "answer", "evidence", "source")


def _reeval_examples(source: DataSource, path: Path) -> Iterator[Example]:
    name = source_name(source, path)
    unquote = bool(source.options.get("strip_quotes", True))
    count = 0
    for line, row in _json_array(path):
        if not isinstance(row, dict):
            raise DataError(
                f"expected a JSON object, got {type(row).__name__}",
                path=str(path),
                line=line,
                hint="ReEval files are an array of {q_id, question, answer, evidence, source} objects",
            )
        question = _require_text(row, "question", path, line, "every ReEval object needs a question")
        answers = split_answers(row.get("answer"), "")
        if not answers:
            raise DataError(
                "missing or empty",
                path=str(path),
                line=line,
                field="answer",
                hint="every ReEval object needs an answer string",
            )
        metadata: dict[str, Any] = {k: v for k, v in row.items() if k not in _REEVAL_CORE}
        if unquote:
            cleaned = [_unquote(a) for a in answers]
            if cleaned != answers:
                metadata["raw_answers"] = answers
                answers = list(dict.fromkeys(cleaned))
        if row.get("q_id") is not None:
            metadata["source_id"] = str(row["q_id"])
        if row.get("source"):
            metadata["origin"] = row["source"]
        count += 1
        yield Example.build(
            question,
            answers,
            _evidence(row),
            source=name,
            metadata=metadata,
        )
    if count == 0:
        raise DataError("no examples", path=str(path), hint="the file holds an empty array; check the path")


def load_reeval(source: DataSource) -> Iterator[Example]:
    """Read a ReEval JSON array; keys beyond the core five are kept in metadata."""
    path = source_path(source)
    return limited(_reeval_examples(source, path), source)


__all__ = ["clean_mrqa_context", "load_mrqa", "load_realtimeqa", "load_reeval"]
