"""``halluforge view`` binds its own socket: it serves on it, and a port in use is a clear refusal."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import cli_env, free_port

pytest.importorskip("uvicorn")


def _get(url: str) -> dict[str, object] | list[object] | None:
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            return json.loads(answer.read())  # type: ignore[no-any-return]
    except OSError:
        return None


def test_view_serves_on_the_socket_it_bound(demo_run: Path, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    shutil.copytree(demo_run, runs / "demo")
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "halluforge.cli.main", "view", str(runs), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=cli_env(),
    )
    try:
        listing = None
        deadline = time.monotonic() + 60  # a bound on waiting for the server, not a timing assertion
        while listing is None and time.monotonic() < deadline and process.poll() is None:
            listing = _get(f"http://127.0.0.1:{port}/api/runs")
            if listing is None:
                time.sleep(0.1)
        assert isinstance(listing, list), process.stdout.read() if process.poll() is not None else "no answer"
        assert [run["name"] for run in listing] == ["demo"]  # type: ignore[index]
    finally:
        os.kill(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
        if process.stdout:
            process.stdout.close()


def test_a_port_in_use_is_one_error_line(
    demo_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from halluforge.cli.main import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        code = main(["view", str(demo_run), "--port", str(port)])
    err = capsys.readouterr().err
    assert code == 2, err
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert lines == [line for line in err.splitlines() if line.strip()], err  # nothing but that line
    assert len(lines) == 1 and f"port {port} on 127.0.0.1 is in use" in lines[0] and "--port" in lines[0]
