"""Harness exports: the suite holds the prompts the run sent, and the real harnesses reproduce our verdicts.

The round trips run an exported suite in inspect_ai and lm-evaluation-harness offline with a
model that replays the run's stored replies (looked up by the prompt it is sent), then compare
each sample's verdicts with the scores the run stored: they must be equal for every sample.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from harness_support import agreement, replies, sent_prompt, stored_verdicts

from extra_skips import require
from halluforge.cli.main import main
from halluforge.errors import ConfigError
from halluforge.exports import HARNESS_FORMATS, export_run, write_suite
from halluforge.exports.suite import Suite, SuiteEntry, suite_of_cases, suite_of_run
from halluforge.exports.verdicts import score_reply
from halluforge.pipeline import config_of_run
from halluforge.records import Option, Response, TestCase
from halluforge.settings import render
from halluforge.store import RunStore

METRICS = ("em", "f1", "hit")
ECHO = "mock/echo"


def _first_turns(run: Path) -> list[Response]:
    store = RunStore(run)
    try:
        return [r for r in store.iter(Response) if not r.turn]
    finally:
        store.close()


def test_the_suite_holds_one_sample_per_case_and_setting_with_the_prompt_the_run_sent(demo_run: Path) -> None:
    suite = suite_of_run(demo_run)
    sent = {(r.test_case_id, r.setting): sent_prompt(r) for r in _first_turns(demo_run)}
    assert len(suite.entries) == len(sent) > 0
    assert {(s.case.id, s.setting): s.prompt for s in suite.entries} == sent
    assert {s.metrics for s in suite.entries} == {METRICS}
    # rendered afresh (a forge-only suite), every prompt is the one the answer stage sent
    store = RunStore(demo_run)
    try:
        cases = store.all(TestCase)
    finally:
        store.close()
    fresh = suite_of_cases(config_of_run(demo_run), cases)
    assert [(s.id, s.prompt) for s in fresh.entries] == [(s.id, s.prompt) for s in suite.entries]


def test_verdicts_equal_the_stored_scores_for_every_reply(demo_run: Path) -> None:
    suite = {s.id: s for s in suite_of_run(demo_run).entries}
    for model in (ECHO, "mock/const:Paris"):
        ours = stored_verdicts(demo_run, model)
        theirs = {}
        for response in _first_turns(demo_run):
            if response.model != model:
                continue
            sample = suite[f"{response.test_case_id}-{response.setting}"]
            values = score_reply(sample.case, response.text + "\n", sample.metrics, setting=sample.setting)
            theirs.update({(sample.id, m): v for m, v in values.items() if v is not None})
        agreed = agreement(ours, theirs, METRICS)
        assert all(a == n > 0 for a, n in agreed.values()), agreed


class _FunctionLoader(yaml.SafeLoader):
    """Reads lm-eval's ``!function`` tag as text."""


_FunctionLoader.add_constructor("!function", lambda loader, node: f"!function {node.value}")


def test_cli_writes_each_harness_format(
    demo_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for fmt in HARNESS_FORMATS:
        assert main(["export", str(demo_run), "--format", fmt, "--out", str(tmp_path / fmt)]) == 0
    out = capsys.readouterr().out
    assert "tasks: 8 tasks" in out and "answer_swap__open_book: 12 entries" in out
    compile((tmp_path / "inspect" / "tasks.py").read_text(encoding="utf-8"), "tasks.py", "exec")
    task = yaml.load(
        (tmp_path / "lm-eval" / "answer_swap__open_book.yaml").read_text(encoding="utf-8"), _FunctionLoader
    )
    assert task["task"] == "halluforge_demo_answer_swap__open_book"
    assert task["process_results"] == "!function halluforge_lm_eval.process_results"
    assert [m["metric"] for m in task["metric_list"]] == list(METRICS)
    group = yaml.safe_load((tmp_path / "lm-eval" / "_halluforge.yaml").read_text(encoding="utf-8"))
    assert len(group["task"]) == 8
    config = yaml.safe_load((tmp_path / "promptfoo" / "promptfooconfig.yaml").read_text(encoding="utf-8"))
    swapped = [t for t in config["tests"] if t["metadata"]["setting"] == "open_book"]
    assert swapped and all(
        [a["type"] for a in t["assert"]] in (["icontains-any"], ["icontains-any", "not-icontains-any"])
        for t in swapped
    )
    assert any(len(t["assert"]) == 2 for t in swapped)  # answer_swap: not the original answer


def test_harness_formats_refuse_tables_and_a_folder_that_is_no_run(
    demo_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ConfigError, match="--tables applies to jsonl"):
        export_run(demo_run, "inspect", tmp_path, ["test_cases"])
    assert main(["export", str(tmp_path), "--format", "lm-eval"]) == 2
    assert "not a run directory" in capsys.readouterr().err


def test_inspect_eval_reproduces_our_verdicts(
    demo_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inspect_ai = require("harness", "inspect_ai")
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.solver._task_state import sample_state  # the sample being run (not a public name)

    export_run(demo_run, "inspect", tmp_path / "suite")
    stored = replies(demo_run, ECHO)

    def replay(messages: list, tools: list, tool_choice: object, config: object) -> ModelOutput:
        state = sample_state()
        assert state is not None
        out = ModelOutput.from_content(model="replay", content=stored[str(state.sample_id)])
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tokenizer download
        return out

    monkeypatch.chdir(tmp_path / "suite")  # inspect finds task files relative to the working folder
    logs = inspect_ai.eval(
        "tasks.py",
        model=get_model("mockllm/model", custom_outputs=replay),
        display="none",
        log_dir=str(tmp_path / "logs"),
    )
    assert [log.status for log in logs] == ["success"] * 8
    theirs = {
        (sample.id, metric): value
        for log in logs
        for sample in log.samples or []
        for metric, value in sample.scores["halluforge_verdicts"].value.items()
    }
    agreed = agreement(stored_verdicts(demo_run, ECHO), theirs, METRICS)
    assert all(a == n > 0 for a, n in agreed.values()), agreed
    assert sum(n for _, n in agreed.values()) == 3 * len(suite_of_run(demo_run).entries) == 3 * 96


def test_lm_eval_reproduces_our_verdicts(demo_run: Path, tmp_path: Path) -> None:
    require("harness", "lm_eval")
    from lm_eval import simple_evaluate
    from lm_eval.api.model import LM
    from lm_eval.tasks import TaskManager

    export_run(demo_run, "lm-eval", tmp_path / "suite")
    stored = replies(demo_run, ECHO)

    class Replay(LM):
        def generate_until(self, requests: list) -> list[str]:
            return [stored[request.doc["id"]] for request in requests]

        def loglikelihood(self, requests: list) -> list:
            raise AssertionError("no multiple-choice task in this suite")

        def loglikelihood_rolling(self, requests: list) -> list:
            raise AssertionError("not used")

    manager = TaskManager(include_path=str(tmp_path / "suite"), include_defaults=False)
    result = simple_evaluate(
        model=Replay(), tasks=["halluforge_demo"], task_manager=manager, log_samples=True
    )
    assert result is not None
    theirs = {
        (s["doc"]["id"], metric): s[metric]
        for samples in result["samples"].values()
        for s in samples
        for metric in s["doc"]["metrics"]
        if s[metric] is not None
    }
    agreed = agreement(stored_verdicts(demo_run, ECHO), theirs, METRICS)
    assert all(a == n > 0 for a, n in agreed.values()), agreed
    assert sum(n for _, n in agreed.values()) == 3 * len(suite_of_run(demo_run).entries) == 3 * 96
    assert json.loads((tmp_path / "suite" / "suite.json").read_text(encoding="utf-8"))["name"] == "demo"


def _choice_suite() -> Suite:
    """Four RECALL-like choice cases (the second option correct) with replies that pick each way."""
    samples = []
    for i, question in enumerate(["Who wrote it?", "Where is it?", "When was it?", "What is it?"]):
        case = TestCase(
            id=f"c{i}",
            family="counterfactual",
            question=question,
            context="Some edited passage.",
            expected=[f"right {i}"],
            format="choice",
            options=[
                Option(text=f"wrong {i}", role="counterfactual"),
                Option(text=f"right {i}", role="correct"),
            ],
        )
        prompt = render("open_book", case)
        samples.append(
            SuiteEntry(f"c{i}-open_book", "counterfactual", "open_book", prompt, 8, ("accuracy",), case)
        )
    return Suite("choices", samples)


def test_lm_eval_scores_choice_cases_as_multiple_choice_like_our_accuracy(tmp_path: Path) -> None:
    require("harness", "lm_eval")
    from lm_eval import simple_evaluate
    from lm_eval.api.model import LM
    from lm_eval.tasks import TaskManager

    from halluforge.families.counterfactual.metrics import parse_choice

    suite = _choice_suite()
    written = write_suite(suite, "lm-eval", tmp_path)
    assert set(written) == {
        "halluforge_choices_counterfactual__open_book__choice",
        "halluforge_choices_counterfactual__open_book__choice__mc",
        "tasks",
    }
    by_prompt = {s.prompt: s for s in suite.entries}
    stored = dict(zip(by_prompt, ["B", "A. wrong 1", "(B) right 2", "Option A"], strict=True))

    class Replay(LM):
        def generate_until(self, requests: list) -> list[str]:
            return [stored[request.args[0]] for request in requests]

        def loglikelihood(self, requests: list) -> list[tuple[float, bool]]:
            out = []
            for request in requests:
                context, letter = request.args
                index, _ = parse_choice(stored[context], by_prompt[context].case.options)
                out.append((0.0 if letter.strip() == "AB"[index] else -10.0, False))
            return out

        def loglikelihood_rolling(self, requests: list) -> list:
            raise AssertionError("not used")

    manager = TaskManager(include_path=str(tmp_path), include_defaults=False)
    result = simple_evaluate(
        model=Replay(), tasks=["halluforge_choices"], task_manager=manager, log_samples=True
    )
    assert result is not None
    ours = {s.id: score_reply(s.case, stored[s.prompt], ["accuracy"])["accuracy"] for s in suite.entries}
    assert list(ours.values()) == [1.0, 0.0, 1.0, 0.0]
    mc = {
        s["doc"]["id"]: s["acc"]
        for s in result["samples"]["halluforge_choices_counterfactual__open_book__choice__mc"]
    }
    generated = {
        s["doc"]["id"]: s["accuracy"]
        for s in result["samples"]["halluforge_choices_counterfactual__open_book__choice"]
    }
    assert mc == generated == ours


def _promptfoo() -> str:
    found = os.environ.get("HALLUFORGE_PROMPTFOO") or shutil.which("promptfoo")
    if not found:
        pytest.skip(
            "needs promptfoo (npm): npm install -g promptfoo, or set HALLUFORGE_PROMPTFOO to its binary"
        )
    return found


REPLAY_PROVIDER = """
import json, os
REPLIES = json.load(open(os.environ["HALLUFORGE_REPLIES"], encoding="utf-8"))
def call_api(prompt, options, context):
    return {"output": REPLIES[prompt]}
"""


def test_promptfoo_validates_the_config_and_runs_its_assertions(demo_run: Path, tmp_path: Path) -> None:
    binary = _promptfoo()
    export_run(demo_run, "promptfoo", tmp_path)
    config = tmp_path / "promptfooconfig.yaml"
    env = {
        **os.environ,
        "PROMPTFOO_DISABLE_TELEMETRY": "1",
        "PROMPTFOO_DISABLE_UPDATE": "1",
        "PROMPTFOO_CONFIG_DIR": str(tmp_path / "promptfoo-home"),
        "PROMPTFOO_PYTHON": sys.executable,
        "HALLUFORGE_REPLIES": str(tmp_path / "replies.json"),
    }
    checked = subprocess.run(
        [binary, "validate", "config", "-c", str(config)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert checked.returncode == 0 and "Configuration is valid" in checked.stdout, (
        checked.stdout + checked.stderr
    )
    # run it offline: a Python provider replays mock/echo's stored replies
    by_sample = replies(demo_run, ECHO)
    sent = {s.id: s.prompt for s in suite_of_run(demo_run).entries}
    stored = {sent[sample]: reply for sample, reply in by_sample.items()}  # mock/echo: one reply a prompt
    (tmp_path / "replies.json").write_text(json.dumps(stored), encoding="utf-8")
    (tmp_path / "replay.py").write_text(REPLAY_PROVIDER, encoding="utf-8")
    replay = f"file://{tmp_path / 'replay.py'}"
    out = str(tmp_path / "out.json")
    ran = subprocess.run(
        [
            binary,
            "eval",
            "-c",
            str(config),
            "-r",
            replay,
            "-o",
            out,
            "--no-write",
            "--no-cache",
            "--no-table",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert (tmp_path / "out.json").is_file(), ran.stdout + ran.stderr
    results = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["results"]["results"]
    assert len(results) == len(yaml.safe_load(config.read_text(encoding="utf-8"))["tests"]) == 96
    ours = stored_verdicts(demo_run, ECHO)
    hits = 0
    for result in results:
        reply = result["response"]["output"].lower()
        for part in result["gradingResult"]["componentResults"]:
            assertion = part["assertion"]
            found = any(v.lower() in reply for v in assertion["value"])
            # each assertion does what the export says: a case-insensitive substring test
            assert part["pass"] == (found if assertion["type"] == "icontains-any" else not found)
            if assertion["type"] == "icontains-any":
                meta = result["testCase"]["metadata"]
                hits += ours[(f"{meta['test_case_id']}-{meta['setting']}", "hit")] == float(part["pass"])
    print(f"promptfoo icontains-any agrees with hit on {hits}/{len(results)} tests")
    assert hits == len(results)  # mock/echo's replies: no answer inside a longer word
