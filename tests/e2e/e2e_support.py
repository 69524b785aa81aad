"""Helpers the e2e tests import by name: XSS payloads, the browser watch, subprocess helpers.

They live here, not in ``conftest.py``: a test module that imports ``conftest`` gets whichever
conftest pytest loaded last (``tests/unit/backends/conftest.py`` when the unit tests are
collected first), so ``from conftest import ...`` breaks with the order of the paths given.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

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
