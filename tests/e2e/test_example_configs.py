"""The configs under examples/ stay valid, and examples/invite.yaml runs end to end (mock models)."""

from __future__ import annotations

from pathlib import Path

import pytest

from extra_skips import needs
from halluforge.config import load_config
from halluforge.pipeline import run_pipeline
from halluforge.records import Response, Score, TestCase
from halluforge.store import RunStore

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CONFIGS = sorted(EXAMPLES.glob("*.yaml"))


def test_examples_folder_has_configs() -> None:
    names = {p.name for p in CONFIGS}
    assert {"invite.yaml", "reeval_cat1.yaml", "context_enrich.yaml"} <= names


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_example_config_loads(path: Path) -> None:
    config = load_config(path, environ={})
    assert config.models.targets, path.name
    assert config.data or config.families, path.name


@needs("kb")  # false_premise reads the bundled N-Triples KB
def test_invite_example_forges_answers_and_scores_both_families(tmp_path: Path) -> None:
    config = load_config(
        EXAMPLES / "invite.yaml",
        {
            "output_dir": str(tmp_path / "runs"),
            "models.generator": "mock/echo",
            "models.targets": ["mock/echo"],
            "models.judge": "mock/echo",
            "families.false_premise.per_predicate": 2,
            "score.bootstrap": 20,
        },
        environ={},
    )
    assert config.answer.settings == ["closed_book"]
    assert config.score.metrics == ["premise_judge"]
    result = run_pipeline(config)
    store = RunStore(result.run_dir)
    try:
        cases = store.all(TestCase)
        families = {c.family for c in cases}
        assert families == {"false_premise", "invalid_date"}
        by_family = {f: [c for c in cases if c.family == f] for f in families}
        # The bundled KB has many predicates with templates: at least a handful of them give 2 each.
        assert len(by_family["false_premise"]) >= 10
        # Every bundled dated question gives at least one invalid_date test case.
        assert len(by_family["invalid_date"]) >= 40
        assert {c.variant for c in by_family["invalid_date"]} == {"invalid_day", "future_year"}
        responses = store.all(Response)
        assert {r.test_case_id for r in responses} == {c.id for c in cases}
        assert all(r.setting == "closed_book" for r in responses)
        scores = [s for s in store.all(Score) if s.metric == "premise_judge"]
        assert {s.family for s in scores} == {"false_premise", "invalid_date"}
        assert {s.response_id for s in scores} == {r.id for r in responses}
        assert all(s.value in (0.0, 1.0, None) for s in scores)
    finally:
        store.close()
