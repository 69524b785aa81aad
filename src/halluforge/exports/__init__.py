"""Exports of a run: data tables (JSONL, CSV, Parquet, HF) and suites other harnesses run.

:mod:`.tables` writes the run's records as tables (``jsonl``, ``csv``, ``parquet``, ``hf``).
The harness formats start from :mod:`.suite` (one entry per test case and setting, with the
prompt our answer plan sends) and write what each tool runs as it is: ``inspect``
(:mod:`.inspect_suite`), ``lm-eval`` (:mod:`.lm_eval_suite`) and ``promptfoo``
(:mod:`.promptfoo_suite`). Exported tasks score replies with :mod:`.verdicts`, halluforge's own
scorers, so a harness's per-entry verdicts equal the run's on the same replies.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

from halluforge.errors import ConfigError
from halluforge.exports.tables import (
    FORMATS,
    FORMULA_STARTS,
    HUMAN_TABLES,
    TABLES,
    Format,
    JoinedRow,
    LabelRow,
    column_kinds,
    csv_cell,
    csv_text,
    export_tables,
    flatten,
    joined_rows,
    label_rows,
    read_table,
    table_rows,
    unflatten,
    write_table,
)

if TYPE_CHECKING:
    from halluforge.exports.suite import Suite

HarnessFormat = Literal["inspect", "lm-eval", "promptfoo"]
#: formats that write a suite another evaluation harness runs
HARNESS_FORMATS: tuple[HarnessFormat, ...] = ("inspect", "lm-eval", "promptfoo")
#: every ``--format`` of ``halluforge export``
ALL_FORMATS: tuple[str, ...] = (*FORMATS, *HARNESS_FORMATS)


def export_suite(run_dir: str | Path, fmt: str, out: str | Path | None = None) -> dict[str, tuple[Path, int]]:
    """Write a run's forged suite for a harness under ``out`` (default ``RUN_DIR/export/<fmt>``).

    Returns each file written with its entry count (the task file with its task count).
    """
    from halluforge.exports.suite import suite_of_run

    if fmt not in HARNESS_FORMATS:
        raise ConfigError(f"unknown harness format {fmt!r}", hint=f"use one of {', '.join(HARNESS_FORMATS)}")
    suite = suite_of_run(run_dir)
    return write_suite(suite, fmt, Path(out) if out else Path(run_dir) / "export" / fmt)


def write_suite(suite: Suite, fmt: str, out: Path) -> dict[str, tuple[Path, int]]:
    """Write an already built :class:`~halluforge.exports.suite.Suite` in a harness format."""
    if fmt == "inspect":
        from halluforge.exports.inspect_suite import write_inspect

        return write_inspect(suite, out)
    if fmt == "lm-eval":
        from halluforge.exports.lm_eval_suite import write_lm_eval

        return write_lm_eval(suite, out)
    if fmt == "promptfoo":
        from halluforge.exports.promptfoo_suite import write_promptfoo

        return write_promptfoo(suite, out)
    raise ConfigError(f"unknown harness format {fmt!r}", hint=f"use one of {', '.join(HARNESS_FORMATS)}")


def export_run(
    run_dir: str | Path, fmt: str, out: str | Path | None = None, tables: list[str] | None = None
) -> dict[str, tuple[Path, int]]:
    """Export a run in any format: tables (``jsonl|csv|parquet|hf``) or a harness suite.

    ``tables`` picks tables and applies to the table formats only.
    """
    if fmt in HARNESS_FORMATS:
        if tables:
            raise ConfigError("--tables applies to jsonl, csv, parquet and hf", hint=f"drop it for {fmt}")
        return export_suite(run_dir, fmt, out)
    if fmt not in FORMATS:
        raise ConfigError(f"unknown export format {fmt!r}", hint=f"use one of {', '.join(ALL_FORMATS)}")
    return export_tables(run_dir, fmt, out, tables)


__all__ = [
    "ALL_FORMATS",
    "FORMATS",
    "FORMULA_STARTS",
    "HARNESS_FORMATS",
    "HUMAN_TABLES",
    "TABLES",
    "Format",
    "HarnessFormat",
    "JoinedRow",
    "LabelRow",
    "column_kinds",
    "csv_cell",
    "csv_text",
    "export_run",
    "export_suite",
    "export_tables",
    "flatten",
    "joined_rows",
    "label_rows",
    "read_table",
    "table_rows",
    "unflatten",
    "write_suite",
    "write_table",
]
