"""The harness suite's pieces: which samples and metrics it holds, names, and promptfoo's assertions."""

from __future__ import annotations

import asyncio

from halluforge.config import load_config
from halluforge.exports.promptfoo_suite import assertions, config
from halluforge.exports.suite import suite_of_cases, task_name
from halluforge.exports.verdicts import ascore_reply, harness_metric, score_reply
from halluforge.records import Edit, Option, TestCase


def _swap(case_id: str = "s1", **changes: object) -> TestCase:
    data: dict[str, object] = {
        "id": case_id,
        "family": "answer_swap",
        "question": "who wrote the novel",
        "context": "Oscar Wilde wrote the novel in 1813.",
        "expected": ["Oscar Wilde"],
        "original_answers": ["Jane Austen"],
        "edits": [Edit(kind="answer", old="Jane Austen", new="Oscar Wilde")],
    }
    data.update(changes)
    return TestCase.model_validate(data)


def test_task_names_are_harness_safe_and_name_a_format_other_than_qa() -> None:
    assert task_name("answer_swap", "open_book") == "answer_swap__open_book"
    assert task_name("counterfactual", "self_trust", "choice") == "counterfactual__self_trust__choice"
    assert task_name("My-Plugin.v2", "open_book") == "my_plugin_v2__open_book"


def test_only_scorers_that_run_without_a_model_or_logprobs_on_the_first_turn_are_exported() -> None:
    assert all(harness_metric(n) for n in ("em", "f1", "hit", "premise_judge", "accuracy"))
    assert not harness_metric("entail")  # an NLI model
    assert not harness_metric("confidence")  # token log-probabilities
    assert not harness_metric("claim_verdict")  # a later turn of ABCD's plan
    assert not harness_metric("no_such_metric")


def test_the_suite_leaves_out_invalid_cases_contextless_settings_and_dola() -> None:
    run = load_config(
        None,
        {"answer.settings": ["closed_book", "open_book", "dola"], "score.metrics": ["em", "hit", "entail"]},
    )
    cases = [
        _swap("ok"),
        _swap("bad", checks={"restated": False}),  # invalid: not answered, not exported
        _swap("bare", context=None),  # no context: closed book only
    ]
    suite = suite_of_cases(run, cases)
    assert sorted(s.id for s in suite.entries) == ["bare-closed_book", "ok-closed_book", "ok-open_book"]
    assert {s.metrics for s in suite.entries} == {("em", "hit")}  # entail needs a model
    assert list(suite.tasks()) == ["answer_swap__closed_book", "answer_swap__open_book"]
    row = suite.entries[0].row()
    assert TestCase.model_validate_json(row["case"]).id == suite.entries[0].case.id
    assert row["choices"] == row["letters"] == [] and row["answer_index"] is None


def test_a_verdict_reads_the_reply_as_the_answer_stage_stores_it() -> None:
    case = _swap()
    assert score_reply(case, "  Answer: Oscar Wilde\n", ["em", "hit"]) == {"em": 1.0, "hit": 1.0}
    assert score_reply(case.model_dump_json(), "Jane Austen", ["em", "hit"]) == {"em": 0.0, "hit": 0.0}
    assert asyncio.run(ascore_reply(case.model_dump(), "Oscar Wilde", ["f1"])) == {"f1": 1.0}


def test_promptfoo_asserts_the_expected_answer_and_not_the_original_where_they_differ() -> None:
    run = load_config(None, {"answer.settings": ["closed_book", "open_book"]})
    choice = _swap(
        "ch",
        format="choice",
        options=[Option(text="Oscar Wilde", role="counterfactual"), Option(text="Jane Austen")],
    )
    nested = _swap("nest", expected=["Austen"], original_answers=["Jane Austen"])  # one inside the other
    premise = TestCase(id="fp", family="false_premise", question="When did Austen write Dracula?")
    suite = suite_of_cases(run, [_swap(), choice, nested, premise])
    by_id = {s.id: s for s in suite.entries}
    assert [a["type"] for a in assertions(by_id["s1-open_book"])] == ["icontains-any", "not-icontains-any"]
    assert assertions(by_id["s1-open_book"])[1]["value"] == ["Jane Austen"]
    assert [a["type"] for a in assertions(by_id["s1-closed_book"])] == ["icontains-any"]  # no context shown
    assert [a["type"] for a in assertions(by_id["nest-open_book"])] == ["icontains-any"]
    assert assertions(by_id["ch-open_book"]) == [] and assertions(by_id["fp-closed_book"]) == []
    body, left_out = config(suite)
    assert len(body["tests"]) == 4 and left_out == 3
    assert body["prompts"] == ["{{prompt}}"] and body["tests"][0]["vars"]["prompt"] == suite.entries[0].prompt
