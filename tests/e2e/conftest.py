"""Runs made once per session for the report, export, viewer and browser tests (mock models, offline),
and the browser fixtures (Chromium through Playwright)."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_support import CHROMIUM, XSS_PAYLOADS, cli_env, free_port

from extra_skips import require
from halluforge.config import load_config
from halluforge.pipeline import run_pipeline


def _run(root: Path, **overrides: object) -> Path:
    values: dict[str, object] = {
        "output_dir": str(root / "runs"),
        "models.generator": "mock/echo",
        "models.targets": ["mock/echo", "mock/const:Paris"],
        # 14 examples, 12 answer_swap cases: Orwell's passage gives two names, and Mozart's names
        # Austria once beside a "German-language" opera (no nationality), so both are skipped
        "data": [{"loader": "bundled", "limit": 14}],
        "score.bootstrap": 50,
        "run_id": "demo",
    }
    values.update(overrides)
    return run_pipeline(load_config(None, values, environ={})).run_dir


@pytest.fixture(scope="session")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished mock run on the bundled sample: answer_swap and original, two targets."""
    root = tmp_path_factory.mktemp("demo")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HALLUFORGE_CACHE_DIR", str(root / "cache"))
        return _run(root)


@pytest.fixture(scope="session")
def xss_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run whose questions, evidence and answers carry the XSS payloads; mock/echo repeats them."""
    root = tmp_path_factory.mktemp("xss")
    rows = []
    for i, payload in enumerate(XSS_PAYLOADS):
        rows.append(
            {
                "q_id": i,
                "question": f"Who built {payload} the tower {i}?",
                "answer": f"Ada {payload}",
                "evidence": f"The tower {i} was built by Ada {payload} and her crew in one summer.",
                "source": "xss",
            }
        )
    data = root / "xss.json"
    data.write_text(json.dumps(rows), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HALLUFORGE_CACHE_DIR", str(root / "cache"))
        return _run(
            root,
            data=[{"loader": "reeval", "path": str(data), "test_cases": "answer_swap"}],
            families={},
            run_id="xss",
            **{"models.targets": ["mock/echo"]},
        )


# --- real headless Chromium (Debian's /usr/bin/chromium) driven by Playwright; skipped without it ---


@pytest.fixture(scope="module")
def browser(demo_run: Path, xss_run: Path) -> Iterator[Any]:
    """One headless Chromium per test module.

    Playwright's sync API keeps an event loop running in this thread while it is open, so the
    runs (which call ``asyncio.run``) are made first, a test that rebuilds a report runs it in a
    subprocess, and the browser closes with its module so later tests get the thread back.
    """
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)")
    sync_api = require("dev", "playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    tab = context.new_page()
    yield tab
    context.close()


@pytest.fixture
def viewer(tmp_path: Path, demo_run: Path, xss_run: Path) -> Iterator[tuple[str, Path]]:
    """``halluforge view`` in a subprocess over copies of the two runs: (base URL, runs folder)."""
    import shutil

    require("view", "uvicorn")
    require("view", "fastapi")

    runs = tmp_path / "runs"
    for run in (demo_run, xss_run):
        shutil.copytree(run, runs / run.name)
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "halluforge.cli.main",
            "view",
            str(runs),
            "--port",
            str(port),
            "--who",
            "tester",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=cli_env(),
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert re.search(rf"http://127\.0\.0\.1:{port}/", line), line
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}", runs
    finally:
        process.terminate()
        process.wait(timeout=10)
