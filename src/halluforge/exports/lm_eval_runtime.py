"""What an exported lm-evaluation-harness task calls: the dataset loader and halluforge's verdicts.

``halluforge export RUN --format lm-eval`` writes a task folder whose YAML files name
``halluforge_lm_eval.load``, ``process_results`` and ``mean_of_computed`` by ``!function``; that
small file imports them from here. It needs ``datasets`` (which lm-eval brings) and halluforge,
not lm-eval itself, so it is importable and testable anywhere.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from halluforge.exports.verdicts import score_reply

#: the header file written beside the task files (metric options, seed, temperature)
HEADER = "suite.json"


def load(data_file: str, folder: str, **_: Any) -> dict[str, Any]:
    """The ``test`` split of one exported task (``custom_dataset``), read from the task folder."""
    import datasets

    path = Path(folder) / data_file
    with path.open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    return {"test": datasets.Dataset.from_list(rows)}


@functools.cache
def _header(folder: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((Path(folder) / HEADER).read_text(encoding="utf-8"))
    return found


def process_results(doc: dict[str, Any], results: Sequence[str], folder: str) -> dict[str, float | None]:
    """Halluforge's verdicts on the one generated reply (None: the scorer could not compute it)."""
    header = _header(folder)
    return score_reply(
        doc["case"],
        results[0],
        doc["metrics"],
        setting=doc["setting"],
        options=header.get("options", {}),
        seed=int(header.get("seed", 0)),
    )


def mean_of_computed(values: Sequence[float | None]) -> float:
    """The mean over the values a scorer computed (NaN when it computed none), as halluforge summarises."""
    kept = [float(v) for v in values if v is not None and not math.isnan(float(v))]
    return sum(kept) / len(kept) if kept else math.nan


__all__ = ["HEADER", "load", "mean_of_computed", "process_results"]
