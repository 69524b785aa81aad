"""Exports round-trip: every format read back gives the rows the store holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from extra_skips import require
from halluforge.cli.main import main
from halluforge.exports import FORMATS, export_run, read_table, table_rows
from halluforge.store import RunStore


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_format_reads_back_the_same_rows(demo_run: Path, tmp_path: Path, fmt: str) -> None:
    if fmt in ("parquet", "hf"):
        require("data", "pyarrow" if fmt == "parquet" else "datasets")
    written = export_run(demo_run, fmt, tmp_path / fmt)
    assert set(written) == {"test_cases", "responses", "scores", "joined"}
    store = RunStore(demo_run)
    try:
        for table, (path, n) in written.items():
            expected = table_rows(store, table)
            assert n == len(expected) > 0
            assert read_table(path, table, fmt) == expected, table  # type: ignore[arg-type]
    finally:
        store.close()


def test_joined_has_one_row_per_latest_score_with_its_case(demo_run: Path) -> None:
    store = RunStore(demo_run)
    try:
        joined = table_rows(store, "joined")
        cases = {c["id"]: c for c in table_rows(store, "test_cases")}
    finally:
        store.close()
    assert len({row["score_id"] for row in joined}) == len(joined)
    for row in joined[:50]:
        assert row["question"] == cases[row["test_case_id"]]["question"]


def test_cli_exports_test_cases_alone_and_rejects_unknown_tables(
    demo_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["export", str(demo_run), "--format", "jsonl", "--out", str(tmp_path), "--tables", "test_cases"])
        == 0
    )
    assert "test_cases: 24 rows" in capsys.readouterr().out
    assert [p.name for p in tmp_path.iterdir()] == ["test_cases.jsonl"]
    assert main(["export", str(demo_run), "--format", "csv", "--tables", "cases"]) == 2
    assert "unknown table 'cases'" in capsys.readouterr().err
    assert main(["export", str(tmp_path), "--format", "csv"]) == 2


@pytest.mark.parametrize(("fmt", "module"), [("parquet", "pyarrow"), ("hf", "datasets")])
def test_a_missing_library_leaves_no_folder_behind(
    demo_run: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    fmt: str,
    module: str,
) -> None:
    from extra_skips import hide

    hide(monkeypatch, module)
    out = tmp_path / "out"
    assert main(["export", str(demo_run), "--format", fmt, "--out", str(out)]) == 2
    assert "halluforge[data]" in capsys.readouterr().err
    assert not out.exists()
