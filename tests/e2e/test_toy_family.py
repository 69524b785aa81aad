"""A family from the test folder runs through every stage, with a two-turn plan and per-item scores."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from toy_family import NAME, register, unregister

from halluforge.config import load_config
from halluforge.pipeline import run_pipeline
from halluforge.records import Response, Score, TestCase
from halluforge.store import RunStore


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    register()
    yield
    unregister()


def _config(tmp_path: Path) -> object:
    script = [
        ["Write one short statement", "<answer> was written by a playwright"],
        ["Is this statement true of your answer", "true"],
    ]
    return load_config(
        None,
        {
            "output_dir": str(tmp_path / "runs"),
            "run_id": "toy",
            "cache.enabled": False,
            "models.generator": "mock/script",
            "models.targets": ["mock/script"],
            "backends": {"mock": {"script": script, "default": "Shakespeare"}},
            "data": [{"loader": "bundled", "limit": 3}],
            "families": {NAME: {}},
            "answer.settings": ["closed_book", "open_book"],
            "score.metrics": ["em"],
            "score.bootstrap": 20,
        },
        environ={},
    )


def test_toy_family_runs_every_stage(tmp_path: Path) -> None:
    result = run_pipeline(_config(tmp_path))  # type: ignore[arg-type]
    store = RunStore(result.run_dir)
    cases = [c for c in store.all(TestCase) if c.family == NAME]
    assert len(cases) == 3
    assert all([cl.id for cl in c.claims] == ["c1", "c2"] for c in cases)
    assert all(c.claims[0].provenance and c.claims[0].provenance.path == "llm" for c in cases)

    responses = store.all(Response)
    # the family accepts closed_book only: open_book is counted as not applicable, never asked
    assert {r.setting for r in responses} == {"closed_book"}
    assert result.counts["settings_not_applicable"] == {"open_book": 3}
    first = {r.test_case_id: r for r in responses if not r.turn}
    later = [r for r in responses if r.turn]
    assert len(first) == 3 and len(later) == 6
    for response in later:
        parent = first[response.test_case_id]
        assert response.parent_id == parent.id
        # the second turn continues the conversation and quotes the model's own answer
        assert [m.role for m in response.messages] == ["user", "assistant", "user", "assistant"]
        assert response.messages[1].content == parent.text == "Shakespeare"
        assert "Shakespeare was written by a playwright" in response.messages[2].content or (
            "Shakespeare is a name" in response.messages[2].content
        )

    scores = store.all(Score)
    per_claim = [s for s in scores if s.metric == "toy_claim_true"]
    assert sorted(s.item or "" for s in per_claim) == ["c1"] * 3 + ["c2"] * 3
    assert all(s.value == 1.0 for s in per_claim)
    assert {s.metric for s in scores if s.family == NAME} == {"em", "toy_claim_true"}
    row = result.summary.get(NAME, "mock/script", "closed_book", "toy_claim_true")
    assert row is not None and row.n == 6 and row.mean == 1.0

    markdown = (result.run_dir / "summary.md").read_text(encoding="utf-8")
    assert "toy_claims: answers checked against their own claims" in markdown
    assert "### Claims judged true" in markdown
    manifest = json.loads((result.run_dir / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["stages_finished"] == ["load", "select", "forge", "answer", "score", "report"]
    assert "toy/decompose" in manifest["templates"]

    # a rerun resumes: nothing is asked again and no row is added
    counts = (store.count(TestCase), store.count(Response), store.count(Score))
    store.close()
    again = run_pipeline(_config(tmp_path))  # type: ignore[arg-type]
    store = RunStore(again.run_dir)
    assert (store.count(TestCase), store.count(Response), store.count(Score)) == counts
    store.close()


def test_a_case_whose_metadata_breaks_its_model_is_skipped_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import toy_family

    original = toy_family.ToyGenerator.forge_one

    async def bad_metadata(self: toy_family.ToyGenerator, item: object, ctx: object) -> list[object]:
        made = await original(self, item, ctx)  # type: ignore[arg-type]
        return [
            m.model_copy(update={"metadata": {"source": 5}}) if isinstance(m, TestCase) else m for m in made
        ]

    monkeypatch.setattr(toy_family.ToyGenerator, "forge_one", bad_metadata)
    result = run_pipeline(_config(tmp_path))  # type: ignore[arg-type]
    store = RunStore(result.run_dir)
    assert not [c for c in store.all(TestCase) if c.family == NAME]
    assert result.counts["skips"] == {f"forge:{NAME}": {"metadata": 3}}
    store.close()
