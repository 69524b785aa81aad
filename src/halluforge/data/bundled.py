"""The sample dataset that ships inside the package, so a first run needs no data of its own.

``bundled/sample_qa.jsonl`` holds 115 general-knowledge questions (people, places, dates,
numbers, other things) in Natural Questions style, each with a short evidence passage that
states the answer, written for this project in our own words. ``bundled/demos.jsonl`` holds 8
more, kept apart, as few-shot demonstrations. ``bundled/dated_questions.jsonl`` (``path:
dated_questions``) holds 43 trivia questions that each name a full date or a year and have no
evidence, for the ``invalid_date`` family. ``bundled/hard_trivia.jsonl`` (``path: hard_trivia``)
holds 70 quiz-bowl style questions for the ``claims`` family (ABCD): each joins two or three
criteria a correct answer must meet, one of them a less known clue, with no evidence and a
``category``. Each line has ``id``, ``question``, ``answers``
(canonical first, then other spellings of the same answer), ``evidence``, ``title`` and
``answer_type``. The files are read through :mod:`importlib.resources`, so they work from a
wheel, a zip or an editable install alike.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib import resources
from pathlib import Path

from halluforge.config import DataSource
from halluforge.data.tabular import ALIASES_KEY, iter_json_lines, limited, row_to_example
from halluforge.errors import DataError
from halluforge.records import Example

#: The bundled files, by the name a data source's ``path`` may give.
BUNDLED_FILES = {
    "sample_qa": "sample_qa.jsonl",
    "demos": "demos.jsonl",
    "dated_questions": "dated_questions.jsonl",
    "hard_trivia": "hard_trivia.jsonl",
}
_COLUMNS = {ours: ours for ours in ("id", "question", "answers", "evidence", "title")}


def _read(name: str, label: str | None = None) -> Iterator[Example]:
    """Yield the examples of one bundled file; its own ids are kept as example ids."""
    file_name = BUNDLED_FILES.get(name.removesuffix(".jsonl"))
    if file_name is None:
        raise DataError(
            f"no bundled dataset {name!r}",
            hint=f"leave path empty or use one of: {', '.join(sorted(BUNDLED_FILES))}",
        )
    resource = resources.files("halluforge.data").joinpath("bundled", file_name)
    with resources.as_file(resource) as path:
        for line, row in iter_json_lines(Path(path)):
            example = row_to_example(
                row, columns=_COLUMNS, name=label or f"bundled:{name}", path=file_name, line=line
            )
            # Our answers lists are one answer with its other spellings, never separate answers.
            metadata = {**example.metadata, ALIASES_KEY: True}
            metadata.pop("source_id", None)
            yield example.model_copy(update={"id": str(row["id"]), "metadata": metadata})


def load_bundled(source: DataSource) -> Iterator[Example]:
    """The bundled sample (or, with ``path: demos``, the demonstrations), honouring ``limit``."""
    return limited(_read(source.path or "sample_qa", source.name), source)


def load_demos() -> list[Example]:
    """The bundled few-shot demonstrations (none of them repeat a sample question)."""
    return list(_read("demos"))


__all__ = ["BUNDLED_FILES", "load_bundled", "load_demos"]
