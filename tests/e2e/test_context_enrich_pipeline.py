"""context_enrich through the whole pipeline offline: mock models and a tiny BM25 index built here."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from extra_skips import require
from halluforge.config import load_config
from halluforge.metrics.nli import NO_MODEL_REASON
from halluforge.pipeline import run_pipeline
from halluforge.records import Score, TestCase
from halluforge.retrieval.base import Passage
from halluforge.store import RunStore

BUNDLED = Path(__file__).resolve().parents[2] / "src" / "halluforge" / "data" / "bundled" / "demos.jsonl"


@pytest.fixture
def bm25_index(tmp_path: Path) -> Path:
    """A lexical index over the bundled few-shot demos' evidence (other topics than the sample)."""
    require("retrieval", "bm25s")
    from halluforge.retrieval import build_index

    rows = [json.loads(line) for line in BUNDLED.read_text(encoding="utf-8").splitlines() if line.strip()]
    passages = [Passage(id=r["id"], title=r.get("title") or r["id"], text=r["evidence"]) for r in rows]
    out = tmp_path / "index"
    build_index(passages, kind="bm25", out=out)
    return out


def test_context_enrich_runs_end_to_end(tmp_path: Path, bm25_index: Path) -> None:
    config = load_config(
        None,
        {
            "output_dir": str(tmp_path / "runs"),
            "models.generator": "mock/echo",
            "models.targets": ["mock/echo"],
            "data": [{"loader": "bundled", "limit": 6}],
            "families": {"context_enrich": {"index": str(bm25_index), "k": 2, "max_attempts": 1}},
            "answer.settings": ["open_book"],
            "score.bootstrap": 20,
        },
        environ={},
    )
    result = run_pipeline(config)
    store = RunStore(result.run_dir)
    cases = [c for c in store.all(TestCase) if c.family == "context_enrich"]
    assert cases, "no context_enrich test case was forged"
    by_seed = Counter(c.parent_seed for c in cases)
    assert set(by_seed.values()) == {2}
    for case in cases:
        assert case.variant in ("question", "evidence")
        assert case.checks["context_has_answer"] and case.valid
        assert case.metadata["support"] in (case.original_context or "")
        assert 1 <= len(case.metadata["passages"]) <= 2
        assert set(case.provenance.fields) == {"support", "summary", "context"}
    scores = store.all(Score)
    entail = [s for s in scores if s.metric == "entail" and s.family == "context_enrich"]
    assert entail and all(s.value is None and s.reason == NO_MODEL_REASON for s in entail)
    # the both-variants rule is a derived metric: its rows are stored by the score stage
    hits = [m for m in scores if m.metric == "hit_both"]
    assert all(m.derived_by == "both_variants" for m in hits)
    assert len(hits) == len(by_seed)
    # echo repeats the prompt, which holds the enriched context and so the answer: both variants right
    assert all(m.value == 1.0 for m in hits)
    # the report carries the merged figures too
    assert '"hit_both"' in (result.run_dir / "summary.json").read_text(encoding="utf-8")
