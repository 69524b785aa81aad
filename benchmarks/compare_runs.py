"""Compare two run directories: the same test cases and the same summary figures?

Used to check that a refactor moves no figure (issue: the core reshape promised unchanged
figures): test cases are compared on the fields both runs' records have (id, family,
question, context, expected, checks, provenance), summary rows on (family, model, setting,
metric) -> n, mean, CI bounds (to 1e-9). Rows only one run has are listed (a newer run may
add rows, e.g. stored derived metrics), so are differing values.

    python benchmarks/compare_runs.py runs/before runs/after

Last line: ``same_cases=<k>/<n> same_rows=<k>/<n> only_before=<n> only_after=<n>``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

CASE_FIELDS = ("id", "family", "question", "context", "expected", "checks", "provenance", "variant")


def cases(run: Path) -> dict[str, dict[str, Any]]:
    rows = [json.loads(line) for line in (run / "test_cases.jsonl").read_text(encoding="utf-8").splitlines()]
    return {r["id"]: {k: r.get(k) for k in CASE_FIELDS} for r in rows}


def rows(run: Path) -> dict[tuple[str, ...], tuple[Any, ...]]:
    summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    out = {}
    for r in summary["rows"]:
        key = (r["family"], r["model"], r["setting"], r["metric"])
        out[key] = (r["n"], r["mean"], r["ci_low"], r["ci_high"], r["n_missing"])
    return out


def close(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return all(
        (x is None and y is None) or (x is not None and y is not None and abs(float(x) - float(y)) < 1e-9)
        for x, y in zip(a, b, strict=True)
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args()
    before_cases, after_cases = cases(args.before), cases(args.after)
    same_cases = sum(1 for i, c in before_cases.items() if after_cases.get(i) == c)
    for i, c in before_cases.items():
        if after_cases.get(i) != c:
            print(f"case differs or is missing: {i} ({c['family']})")
    before_rows, after_rows = rows(args.before), rows(args.after)
    shared = sorted(set(before_rows) & set(after_rows))
    same_rows = sum(1 for k in shared if close(before_rows[k], after_rows[k]))
    for k in shared:
        if not close(before_rows[k], after_rows[k]):
            print(f"row differs: {k}: {before_rows[k]} -> {after_rows[k]}")
    only_before = sorted(set(before_rows) - set(after_rows))
    only_after = sorted(set(after_rows) - set(before_rows))
    for k in only_before:
        print(f"only before: {k}")
    for k in only_after:
        print(f"only after: {k} {after_rows[k]}")
    print(
        f"same_cases={same_cases}/{len(before_cases)} same_rows={same_rows}/{len(before_rows)} "
        f"only_before={len(only_before)} only_after={len(only_after)}"
    )
    return 0 if same_cases == len(before_cases) and same_rows == len(before_rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
