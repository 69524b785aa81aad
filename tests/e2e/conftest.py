"""Runs made once per session for the report, export, viewer and browser tests (mock models, offline)."""

from __future__ import annotations

import json
from pathlib import Path

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
        "data": [{"loader": "bundled", "limit": 12}],
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
