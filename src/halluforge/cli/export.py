"""``halluforge export RUN_DIR --format jsonl|csv|parquet|hf``: a run's tables for other tools."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(subparsers: Any) -> None:
    """Register ``export``."""
    export = subparsers.add_parser(
        "export",
        help="write a run's test cases, responses, scores and joined table: jsonl, csv, parquet or hf",
        description="Write test_cases, responses, scores, joined (one row per score with its response and "
        "test case) and, when present, annotations. --format hf writes datasets folders (save_to_disk) "
        "that load_from_disk reads and push_to_hub can publish. CSV is safe to open in a spreadsheet: a "
        "text cell starting with =, +, -, @, a tab or a carriage return (or a quote) gets a leading "
        "single quote, so it is shown as text and never run as a formula.",
    )
    export.add_argument("run_dir")
    export.add_argument(
        "--format",
        required=True,
        choices=["jsonl", "csv", "parquet", "hf"],
        help="csv quotes text cells that could start a spreadsheet formula (=, +, -, @, tab, CR)",
    )
    export.add_argument("--out", help="output folder (default: RUN_DIR/export/FORMAT)")
    export.add_argument(
        "--tables",
        help="comma list of test_cases, responses, scores, joined, annotations (default: all present); "
        "--tables test_cases exports the forged test cases alone",
    )
    export.set_defaults(handler=handle_export)


def handle_export(args: argparse.Namespace) -> int:
    """Export and print one line per table written."""
    from halluforge.export import export_run

    tables = [t.strip() for t in args.tables.split(",") if t.strip()] if args.tables else None
    for table, (path, n) in export_run(args.run_dir, args.format, args.out, tables).items():
        print(f"{table}: {n} rows -> {path}")
    return 0
