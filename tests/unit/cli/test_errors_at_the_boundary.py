"""At the CLI boundary every error is one ``error:`` line; ``--debug`` adds the traceback."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

import halluforge.cli.run as run_cli
from halluforge.cli.main import main


def _raise(exc: BaseException) -> object:
    def handler(args: argparse.Namespace) -> int:
        raise exc

    return handler


@pytest.mark.parametrize(
    ("exc", "code", "text"),
    [
        (PermissionError(13, "Permission denied", "/runs/x"), 2, "error: Permission denied: /runs/x (fix:"),
        (OSError(28, "No space left on device"), 2, "error: No space left on device (fix:"),
        (RuntimeError("boom"), 1, "error: internal error RuntimeError: boom (fix: rerun with --debug"),
    ],
)
def test_one_line_without_traceback(
    exc: BaseException,
    code: int,
    text: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(run_cli, "handle_list", _raise(exc))
    assert main(["list", "families"]) == code
    err = capsys.readouterr().err
    assert err.splitlines() == [err.splitlines()[0]] and err.startswith(text)
    assert "Traceback" not in err


def test_debug_shows_the_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--debug", "run", str(tmp_path / "absent.yaml")]) == 2
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err
    assert [line for line in err.splitlines() if line.startswith("error:")] == [
        f"error: config file {tmp_path / 'absent.yaml'} does not exist (fix: check the path)"
    ]


def test_a_closed_pipe_ends_the_listing_quietly() -> None:
    """`halluforge list scorers | head -1`: no error line once the reader has gone."""
    import subprocess
    import sys

    command = f"{sys.executable} -m halluforge.cli.main list scorers | head -1"
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=120, check=False)
    assert done.stdout.startswith("accuracy") and len(done.stdout.splitlines()) == 1
    assert done.stderr == ""
