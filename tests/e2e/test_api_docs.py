"""docs/api.md's example runs as written and prints what the page shows (mock models, offline)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_the_api_page_example_gives_the_outputs_it_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the example writes runs/ where it runs
    monkeypatch.setenv("HALLUFORGE_CACHE_DIR", str(tmp_path / "cache"))
    # a code fence closes an example: make it a blank line, where doctest's expected output ends
    text = "\n".join(
        "" if line.startswith("```") else line for line in PAGE.read_text(encoding="utf-8").splitlines()
    )
    test = doctest.DocTestParser().get_doctest(text, {}, PAGE.name, str(PAGE), 0)
    assert len(test.examples) > 20
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
