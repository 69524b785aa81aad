"""tests/extra_skips.py: its map of extras stays that of pyproject.toml, and its skips say what to install."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from extra_skips import EXTRAS, hide, installed, missing, needs, reason, require

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_every_extra_of_the_map_is_one_of_pyproject() -> None:
    declared = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert set(EXTRAS) <= set(declared)
    assert set(declared) - set(EXTRAS) == {"all"}  # every extra but the sum of them


def test_the_reason_names_the_extra_the_module_and_the_install_line() -> None:
    assert reason("kb", "pyoxigraph") == (
        "needs the kb extra (pyoxigraph is not installed): pip install 'halluforge[kb]'"
    )


def test_a_hidden_module_is_missing_and_skips(monkeypatch: pytest.MonkeyPatch) -> None:
    hide(monkeypatch, "yaml")  # a core dependency, hidden for this test only
    with pytest.raises(ImportError):
        import yaml  # noqa: F401
    with pytest.raises(pytest.skip.Exception, match=r"needs the kb extra \(yaml is not installed\)"):
        require("kb", "yaml")
    assert installed("json") and not installed("no_such_module_here")
    assert missing("kb", "json", "no_such_module_here") == "no_such_module_here"
    assert needs("kb", "json").args == (False,)


def test_an_unknown_extra_is_a_mistake_not_a_skip() -> None:
    with pytest.raises(KeyError, match="unknown extra 'kbb'"):
        require("kbb", "json")
