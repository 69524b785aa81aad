"""``halluforge export RUN_DIR --format ...``: a run's tables, or its forged suite for another harness."""

from __future__ import annotations

import argparse
from typing import Any

TABLE_FORMATS = ["jsonl", "csv", "parquet", "hf"]
HARNESS_FORMATS = ["inspect", "lm-eval", "promptfoo"]


def add_parser(subparsers: Any) -> None:
    """Register ``export``."""
    export = subparsers.add_parser(
        "export",
        help="write a run's tables (jsonl, csv, parquet, hf) or its suite for inspect, lm-eval or promptfoo",
        description="Tables: test_cases, responses, scores, joined (one row per score with its response and "
        "test case) and, when present, annotations. --format hf writes datasets folders (save_to_disk) "
        "that load_from_disk reads and push_to_hub can publish. CSV is safe to open in a spreadsheet: a "
        "text cell starting with =, +, -, @, a tab or a carriage return (or a quote) gets a leading "
        "single quote, so it is shown as text and never run as a formula. "
        "Harness suites: --format inspect writes tasks.py for `inspect eval`, --format lm-eval a task "
        "folder for `lm_eval --include_path`, --format promptfoo a promptfooconfig.yaml; one task per "
        "family and setting, with the prompts the run sent, scored by halluforge's own scorers "
        "(inspect and lm-eval need pip install 'halluforge[harness]' where they run).",
    )
    export.add_argument("run_dir")
    export.add_argument(
        "--format",
        required=True,
        choices=TABLE_FORMATS + HARNESS_FORMATS,
        help="a table format (csv quotes text cells that could start a spreadsheet formula) or a harness",
    )
    export.add_argument("--out", help="output folder (default: RUN_DIR/export/FORMAT)")
    export.add_argument(
        "--tables",
        help="table formats only: comma list of test_cases, responses, scores, joined, annotations "
        "(default: all present); --tables test_cases exports the forged test cases alone",
    )
    export.set_defaults(handler=handle_export)


def handle_export(args: argparse.Namespace) -> int:
    """Export and print one line per file written."""
    from halluforge.exports import export_run

    tables = [t.strip() for t in args.tables.split(",") if t.strip()] if args.tables else None
    for name, (path, n) in export_run(args.run_dir, args.format, args.out, tables).items():
        unit = "rows" if args.format in TABLE_FORMATS else ("tasks" if name == "tasks" else "entries")
        print(f"{name}: {n} {unit} -> {path}")
    return 0
