"""report.html of a finished mock run: tables, plots, counts and the embedded case browser."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from extra_skips import hide, needs
from halluforge.cli.main import main


def _blocks(page: str, name: str) -> object:
    found = re.search(rf'<script type="application/json" id="{name}">(.*?)</script>', page, re.S)
    assert found is not None, name
    return json.loads(found.group(1))


def test_every_run_writes_a_self_contained_report(demo_run: Path) -> None:
    page = (demo_run / "report.html").read_text(encoding="utf-8")
    # no resource from elsewhere: nothing loaded by URL
    assert not re.search(r'(src|href)="(https?:)?//', page)
    for title in ("answer_swap: evidence with the answer swapped", "Counts", "Test cases by provenance path"):
        assert title in page
    cases = _blocks(page, "hf-cases")
    assert isinstance(cases, dict) and cases["total"] == cases["shown"] == 24
    swapped = next(c for c in cases["cases"] if c["family"] == "answer_swap")
    assert swapped["edits"] and swapped["responses"] and swapped["provenance"]["fields"]


@needs("report", "altair", "vl_convert")
def test_the_report_draws_its_plots_with_the_report_extra(demo_run: Path) -> None:
    page = (demo_run / "report.html").read_text(encoding="utf-8")
    plots = _blocks(page, "hf-plots")
    assert isinstance(plots, list) and len(plots) >= 3
    assert all(spec["$schema"].startswith("https://vega.github.io/schema/vega-lite/") for spec in plots)
    assert page.count('class="vega"') == len(plots)


def test_without_altair_the_plots_section_says_what_to_install(
    demo_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = tmp_path / "demo"
    shutil.copytree(demo_run, run)
    hide(monkeypatch, "altair")
    assert main(["report", str(run), "--html"]) == 0
    page = (run / "report.html").read_text(encoding="utf-8")
    assert _blocks(page, "hf-plots") == [] and page.count('class="vega"') == 0
    assert "No plots: plots need Altair" in page and "halluforge[report]" in page
    assert _blocks(page, "hf-cases")["total"] == 24  # type: ignore[index]  # the rest of the report stands


def test_report_command_caps_the_embedded_cases(demo_run: Path, capsys: object) -> None:
    assert main(["report", str(demo_run), "--html", "--max-cases", "5"]) == 0
    page = (demo_run / "report.html").read_text(encoding="utf-8")
    cases = _blocks(page, "hf-cases")
    assert isinstance(cases, dict) and cases["shown"] == 5 and cases["sampled"]
    assert "Showing 5 of 24 test cases" in page
    assert main(["report", str(demo_run), "--max-cases", "-1"]) == 2
    main(["report", str(demo_run)])  # back to every case for the other tests
