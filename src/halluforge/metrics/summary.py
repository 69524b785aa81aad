"""The summary of a run: one row per (family, model, setting, metric) with a confidence interval.

A :class:`SummaryRow` says how many responses were scored (``n``), their mean, the bootstrap
confidence interval of that mean, and how many responses got no value (``n_missing``) with
the reasons counted, so a reader sees both the figure and what it rests on. A
:class:`Summary` adds free-text notes (for example "entailment not computed") and the run's
counts (seed buckets, forge paths, skips). Both are written to ``summary.json`` so the report
can be rebuilt without re-scoring; :func:`load_summary` reads it back.

The rows are made by :func:`halluforge.metrics.aggregate.summarize`; the report layer lays them
out and never aggregates on its own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from halluforge.errors import DataError

SUMMARY_FILE = "summary.json"


class SummaryRow(BaseModel):
    """Aggregate of one metric for one model under one setting on one family."""

    model_config = ConfigDict(extra="forbid")

    family: str
    model: str
    setting: str
    metric: str
    n: int = Field(description="responses with a value")
    mean: float | None = Field(default=None, description="mean value; None when n == 0")
    ci_low: float | None = Field(default=None, description="lower CI bound; None without bootstrap")
    ci_high: float | None = Field(default=None, description="upper CI bound; None without bootstrap")
    n_missing: int = Field(default=0, description="responses whose value is None")
    higher_is_better: bool | None = Field(default=None, description="direction, when the metric declares it")
    missing_reasons: dict[str, int] = Field(default_factory=dict, description="reason -> count")

    @property
    def half_width(self) -> float | None:
        """Half the width of the confidence interval, or None when there is none."""
        if self.ci_low is None or self.ci_high is None:
            return None
        return (self.ci_high - self.ci_low) / 2


class Summary(BaseModel):
    """Every summary row of a run, with notes and counts for the report."""

    model_config = ConfigDict(extra="forbid")

    rows: list[SummaryRow] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    counts: dict[str, Any] = Field(default_factory=dict)
    confidence: float | None = Field(default=None, description="level of the rows' intervals, e.g. 0.95")

    def families(self) -> list[str]:
        """Families present in the rows, sorted."""
        return sorted({row.family for row in self.rows})

    def rows_for(self, family: str) -> list[SummaryRow]:
        """The rows of one family, in their stored order."""
        return [row for row in self.rows if row.family == family]

    def get(self, family: str, model: str, setting: str, metric: str) -> SummaryRow | None:
        """The row for one (family, model, setting, metric), if any."""
        for row in self.rows:
            if (row.family, row.model, row.setting, row.metric) == (family, model, setting, metric):
                return row
        return None


def write_summary(summary: Summary, run_dir: str | Path) -> Path:
    """Write ``summary.json`` into the run directory and return its path."""
    path = Path(run_dir) / SUMMARY_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(summary.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n", "utf-8")
    tmp.replace(path)  # atomic: a killed report never leaves half a file
    return path


def load_summary(run_dir: str | Path) -> Summary:
    """Read ``summary.json`` from a run directory."""
    path = Path(run_dir) / SUMMARY_FILE
    if not path.is_file():
        raise DataError(
            "no summary in this run directory", path=str(path), hint="run `halluforge report RUN_DIR` first"
        )
    try:
        return Summary.model_validate_json(path.read_text(encoding="utf-8"))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise DataError(
            first["msg"],
            path=str(path),
            field=where,
            hint="rebuild it with `halluforge report RUN_DIR`",
        ) from exc


__all__ = ["SUMMARY_FILE", "Summary", "SummaryRow", "load_summary", "write_summary"]
