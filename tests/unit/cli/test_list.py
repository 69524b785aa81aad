"""`halluforge list KIND`: each name with what it is, and the install line when its extra is missing."""

from __future__ import annotations

import pytest

from extra_skips import hide
from halluforge.cli.main import main


def test_each_name_says_what_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "families"]) == 0
    lines = capsys.readouterr().out.splitlines()
    swap = next(line for line in lines if line.startswith("answer_swap "))
    assert "evidence with the answer swapped" in swap and "answer_swap:" not in swap
    assert main(["list", "settings"]) == 0
    assert any(
        line.startswith("closed_book") and "Closed-book" in line
        for line in capsys.readouterr().out.splitlines()
    )


def test_a_missing_extra_is_named_with_its_install_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    hide(monkeypatch, "sacrebleu")
    assert main(["list", "scorers"]) == 0
    bleu = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("bleu "))
    assert 'not installed: pip install "halluforge[text-metrics]"' in bleu
    assert main(["list", "scorers"]) == 0
    em = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("em "))
    assert "not installed" not in em
