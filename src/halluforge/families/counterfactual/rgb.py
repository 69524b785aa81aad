"""RGB's counterfactual-robustness file, read as ready-made QA-A cases of the ``counterfactual`` family.

RGB: Chen et al. 2024, "Benchmarking Large Language Models in Retrieval-Augmented Generation".

Each JSON line has ``id``, ``query``, ``answer`` (a string, a list of aliases, or a list of such
lists), ``fakeanswer`` (the counterfactual answer, a string or a list), ``positive`` (passages
that state the true answer) and ``positive_wrong`` (the same passages with the fake answer);
``negative`` is not used. By default each line becomes a ready-made case: ``positive_wrong``
is the edited context, ``positive`` the original one, and the two options are ``answer``
(role ``correct``) and ``fakeanswer`` (role ``counterfactual``) in an order shuffled per line
and ``options.seed``. With ``options: {mode: examples}`` the lines are plain QA examples
(``positive`` as evidence) that the ``counterfactual`` generator can edit itself
(``sources: [examples]``), so its edits can be compared with RGB's.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from halluforge.config import DataSource
from halluforge.data.tabular import iter_json_lines, limited, source_name, source_path
from halluforge.errors import DataError
from halluforge.records import Example, stable_id

FAMILY = "counterfactual"
#: metadata key under which a loader passes the fields of a ready-made test case
CASE_KEY = "case"


def _strings(value: Any) -> list[str]:
    """A string, a list of strings or a list of lists, flattened, stripped, de-duplicated."""
    if isinstance(value, str):
        return [value.strip()] if value.strip() else []
    if isinstance(value, list):
        out: list[str] = []
        for item in value:
            out += [s for s in _strings(item) if s not in out]
        return out
    if isinstance(value, int | float) and not isinstance(value, bool):
        return [str(value)]
    return []


def _field(row: dict[str, Any], key: str, path: str, line: int, hint: str) -> list[str]:
    found = _strings(row.get(key))
    if not found:
        raise DataError(f"missing or empty {key!r}", path=path, line=line, field=key, hint=hint)
    return found


def read_rgb(source: DataSource) -> Iterator[Example]:
    """Every line of an RGB counterfactual file as an example (see the module notes)."""
    path = source_path(source)
    name = source_name(source, path)
    mode = str(source.options.get("mode", "cases"))
    if mode not in ("cases", "examples"):
        raise DataError(
            f"unknown rgb mode {mode!r}", path=str(path), hint="use options: {mode: cases|examples}"
        )
    seed = int(source.options.get("seed", 0))
    for line, row in iter_json_lines(path):
        where = str(path)
        query = _field(row, "query", where, line, "every line needs the question as 'query'")[0]
        answers = _field(row, "answer", where, line, "give the true answer (or its aliases) as 'answer'")
        positive = _field(
            row, "positive", where, line, "give the passages with the true answer as 'positive'"
        )
        row_id = str(row.get("id", line))
        if mode == "examples":
            yield Example.build(query, answers, " ".join(positive), source=name, id=f"rgb:{row_id}")
            continue
        fake = _field(row, "fakeanswer", where, line, "give the counterfactual answer as 'fakeanswer'")[0]
        wrong = _field(
            row, "positive_wrong", where, line, "give the passages with the fake answer as 'positive_wrong'"
        )
        options = [{"text": answers[0], "role": "correct"}, {"text": fake, "role": "counterfactual"}]
        random.Random(stable_id("rgb-options", seed, row_id)).shuffle(options)
        case = {
            "format": "choice",
            "variant": "qa_a",
            "options": options,
            "original_context": " ".join(positive),
            "expected": [],
            "original_answers": answers,
        }
        metadata = {
            CASE_KEY: case,
            "domain": "rgb",
            "true_answers": answers,
            "counterfactual_answer": fake,
            "source_id": row_id,
        }
        yield Example.build(
            query, answers, " ".join(wrong), source=name, id=f"rgb:{row_id}", metadata=metadata
        )


def load_rgb(source: DataSource) -> Iterator[Example]:
    """The ``rgb`` loader, honouring ``limit``."""
    return limited(read_rgb(source), source)


__all__ = ["CASE_KEY", "FAMILY", "load_rgb", "read_rgb"]
