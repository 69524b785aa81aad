"""Runs made once per session for the report, export, viewer and browser tests (mock models, offline),
and the browser fixtures (Chromium through Playwright)."""

from __future__ import annotations

import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from halluforge.config import load_config
from halluforge.pipeline import run_pipeline

#: XSS payloads placed in questions, evidence, answers, model replies and annotation notes
XSS_PAYLOADS = (
    "<script>alert('xss-1')</script>",
    "<img src=x onerror=alert('xss-2')>",
    "<svg onload=alert('xss-3')>",
    "<a href=\"javascript:alert('xss-4')\">click me</a>",
    "</script><script>alert('xss-5')</script>",
    "\"><script>alert('xss-6')</script>",
    "${alert('xss-7')}`;alert('xss-7b');`",
    "<iframe src=\"javascript:alert('xss-8')\"></iframe>",
    "<body onload=alert('xss-9')>",
    "<svg><script>alert('xss-10')</script></svg>",
    "<!--<script>alert('xss-11')</script>-->",
    "<details open ontoggle=alert('xss-12')>",
    "'-alert('xss-13')-'",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert('xss-14')>",
)


def _run(root: Path, **overrides: object) -> Path:
    values: dict[str, object] = {
        "output_dir": str(root / "runs"),
        "models.generator": "mock/echo",
        "models.targets": ["mock/echo", "mock/const:Paris"],
        # 13 examples, 12 answer_swap cases: Orwell's passage gives two names, so it is skipped
        "data": [{"loader": "bundled", "limit": 13}],
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

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("HALLUFORGE_CHROMIUM", "/usr/bin/chromium")


def stored_responses(db: Path) -> int:
    """Responses in a run store that another process is writing (0 while it does not exist yet)."""
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=5) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


#: screenshots taken by the browser tests: the docs' images when HALLUFORGE_UPDATE_SHOTS=1 is set,
#: else a temporary folder, so that running the suite leaves the checkout unchanged
SHOTS = (
    REPO / "docs" / "img"
    if os.environ.get("HALLUFORGE_UPDATE_SHOTS")
    else Path(tempfile.gettempdir()) / "halluforge-shots"
)


@pytest.fixture(scope="module")
def browser(demo_run: Path, xss_run: Path) -> Iterator[Any]:
    """One headless Chromium per test module.

    Playwright's sync API keeps an event loop running in this thread while it is open, so the
    runs (which call ``asyncio.run``) are made first, a test that rebuilds a report runs it in a
    subprocess, and the browser closes with its module so later tests get the thread back.
    """
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


class Watch:
    """Everything a page did that it should not: dialogs, script errors, console errors, requests."""

    def __init__(self, page: Any, allowed_origin: str | None = None) -> None:
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.requests: list[str] = []
        page.on("dialog", self._dialog)
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.on("console", lambda msg: self.errors.append(msg.text) if msg.type == "error" else None)

        def route(r: Any) -> None:
            url = r.request.url
            if url.startswith("file:") or (allowed_origin and url.startswith(allowed_origin)):
                r.continue_()
            else:
                self.requests.append(url)
                r.abort()

        page.route("**/*", route)

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def assert_clean(self) -> None:
        assert self.dialogs == [], self.dialogs
        assert self.errors == [], self.errors
        assert self.requests == [], self.requests


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    tab = context.new_page()
    yield tab
    context.close()


def cli_env() -> dict[str, str]:
    """The environment for a halluforge subprocess: this checkout's sources first."""
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")]),
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def viewer(tmp_path: Path, demo_run: Path, xss_run: Path) -> Iterator[tuple[str, Path]]:
    """``halluforge view`` in a subprocess over copies of the two runs: (base URL, runs folder)."""
    import shutil

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
