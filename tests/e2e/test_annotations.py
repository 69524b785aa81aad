"""Labels given in the viewer: stored in the run store, kept by re-runs, in the report, exported."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from extra_skips import needs
from halluforge.cli.main import main
from halluforge.exports import export_run, read_table
from halluforge.pipeline import config_of_run, rescore_run, run_pipeline
from halluforge.records import Annotation, Response, TestCase
from halluforge.store import RunStore
from halluforge.viewer.runs import RunIndex


def _label_some(run: Path) -> list[Response]:
    store = RunStore(run)
    responses = [r for r in store.all(Response) if r.setting == "open_book"]
    case = next(c for c in store.all(TestCase) if c.family == "answer_swap")
    swapped = {c.id for c in store.all(TestCase) if c.family == "answer_swap"}
    store.close()
    # the one "unsure" label goes to an answer_swap response (storage order follows completion)
    responses.sort(key=lambda r: r.test_case_id not in swapped)
    index = RunIndex(run.name, run)
    try:
        for i, response in enumerate(responses):
            # people say the constant model hallucinates; one unsure
            label = "hallucinated" if response.model == "mock/const:Paris" else "faithful"
            index.annotate("response", response.id, "unsure" if i == 0 else label, "", "ann", f"t{i:03d}")
        index.annotate("test_case", case.id, "valid", "reads fine", "ann", "t999")
    finally:
        index.close()
    return responses


@needs("report", "sklearn")  # the human-labels section's kappa
def test_labels_survive_a_rerun_and_reach_the_report(demo_run: Path, tmp_path: Path) -> None:
    run = tmp_path / "runs" / "demo"
    shutil.copytree(demo_run, run)
    responses = _label_some(run)
    run_pipeline(config_of_run(run))  # resumes: nothing new is asked, labels stay
    store = RunStore(run)
    assert store.count(Annotation) == len(responses) + 1
    store.close()
    result = rescore_run(run, scores=False)
    human = next(s for s in result.report.sections if s.title == "Human labels")
    rows = {(r["family"], r["metric"]): r for r in human.data["annotations"]["responses"]}
    hit = rows[("answer_swap", "hit")]
    # hit: echo always hits (faithful), Paris never does (hallucinated) -> full agreement
    assert hit["agreement"] == 1.0 and hit["kappa"] == 1.0 and hit["unsure"] == 1
    assert "Human labels" in (run / "summary.md").read_text(encoding="utf-8")
    summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    assert summary["counts"]["annotations"]["test_cases"][0]["share_valid"] == 1.0


@needs("judge")  # judge premise ends with agreement and kappa
def test_labels_export_and_feed_the_premise_judge(
    demo_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "runs" / "demo"
    shutil.copytree(demo_run, run)
    responses = _label_some(run)
    written = export_run(run, "jsonl", tmp_path / "out")
    assert written["annotations"][1] == len(responses) + 1
    labels = read_table(written["labels"][0], "labels", "jsonl")
    assert len(labels) == len(responses)
    assert {r["hallucination_label"] for r in labels} == {"0", "1", None}
    assert main(["judge", "premise", str(written["labels"][0]), "--out", str(tmp_path / "judged.jsonl")]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("agreement=") and "kappa=" in last
