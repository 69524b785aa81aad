"""The claims family's self_eval plan: turns, tag filling from the target's replies, the gold variant."""

from __future__ import annotations

import pytest

from halluforge.families.claims import FAMILY
from halluforge.families.claims.plan import answer_text, follow, parse_tag_reply, plan
from halluforge.plans import Turn
from halluforge.records import Claim, Message, Response, TestCase


def _case(tags: list[str]) -> TestCase:
    texts = ["<answer> is an author.", "<answer> wrote <novel>.", "<novel> by <answer> has a volcano."]
    if tags == ["<answer>"]:
        texts = ["<answer> is an author.", "<answer> created Nemo."]
    return TestCase(
        id="case",
        family="claims",
        question="Which author wrote a volcano novel?",
        expected=["Jules Verne", "Verne"],
        claims=[Claim(id=f"c{i}", text=t) for i, t in enumerate(texts, start=1)],
        metadata={"tags": tags, "type_claim": "c1"},
    )


def _response(turn: str, messages: list[tuple[str, str]]) -> Response:
    return Response(
        id=turn or "first",
        test_case_id="case",
        model="m",
        setting="closed_book",
        turn=turn,
        messages=[Message(role=r, content=c) for r, c in messages],  # type: ignore[arg-type]
        text=messages[-1][1],
    )


def test_plan_with_shared_tags() -> None:
    case = _case(["<answer>", "<novel>"])
    turns = {t.key: t for t in plan(case, "closed_book", Turn("Q?"))}
    assert list(turns) == [
        "",
        "tags",
        "gt_tags",
        "whole",
        "claim:c1",
        "claim:c2",
        "claim:c3",
        "gt:c1",
        "gt:c2",
        "gt:c3",
    ]
    assert turns["tags"].after == "" and not turns["tags"].fresh
    assert all(turns[f"claim:c{i}"].after == "tags" and turns[f"claim:c{i}"].fresh for i in (1, 2, 3))
    # the gold variant asks the very same claims, with <answer> already the gold answer
    assert turns["gt:c2"].prompt == "True or False: Jules Verne wrote <novel>."
    assert turns["claim:c2"].prompt == "True or False: <answer> wrote <novel>."
    assert turns["gt:c2"].item == turns["claim:c2"].item == "c2"
    assert "novel:" in turns["tags"].prompt and "Jules Verne" in turns["gt_tags"].prompt


def test_plan_without_shared_tags_asks_the_claims_after_the_answer() -> None:
    turns = {t.key: t for t in plan(_case(["<answer>"]), "closed_book", Turn("Q?"))}
    assert "tags" not in turns and turns["claim:c2"].after == "" and turns["gt:c2"].after is None
    assert turns["gt:c2"].prompt == "True or False: Jules Verne created Nemo."


def test_follow_fills_every_use_of_a_tag_with_one_value() -> None:
    case = _case(["<answer>", "<novel>"])
    turns = {t.key: t for t in plan(case, "closed_book", Turn("Q?"))}
    parent = _response(
        "tags",
        [
            ("user", "Q?"),
            ("assistant", "The answer is H. G. Wells."),
            ("user", "novel:"),
            ("assistant", "Novel: The Time Machine"),
        ],
    )
    assert follow(case, turns["claim:c2"], parent) == "True or False: H. G. Wells wrote The Time Machine."
    assert (
        follow(case, turns["claim:c3"], parent)
        == "True or False: The Time Machine by H. G. Wells has a volcano."
    )
    gold = _response(
        "gt_tags", [("user", "..."), ("assistant", "<novel>: Journey to the Centre of the Earth")]
    )
    assert follow(case, turns["gt:c3"], gold) == (
        "True or False: Journey to the Centre of the Earth by Jules Verne has a volcano."
    )
    # an unnamed tag stays a tag (the verdict scorer then records no answer)
    silent = _response(
        "tags", [("user", "Q?"), ("assistant", "Wells"), ("user", "novel:"), ("assistant", "")]
    )
    assert follow(case, turns["claim:c2"], silent) == "True or False: Wells wrote <novel>."
    assert FAMILY.follow_prompt(
        case, turns["whole"], _response("", [("user", "Q?"), ("assistant", "Wells.")])
    ) == (turns["whole"].prompt.replace("{reply}", "Wells"))


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("novel: The Time Machine", {"<novel>": "The Time Machine"}),
        ("<novel>: The Time Machine\ncity: London", {"<novel>": "The Time Machine", "<city>": "London"}),
        ("- Novel = The Time Machine", {"<novel>": "The Time Machine"}),
        ("The Time Machine", {"<novel>": "The Time Machine"}),  # a lone line answers a lone tag
        ("novel:", {}),
    ],
)
def test_parse_tag_reply(reply: str, expected: dict[str, str]) -> None:
    tags = ["<novel>", "<city>"] if "city" in reply else ["<novel>"]
    assert parse_tag_reply(reply, tags) == expected


def test_answer_text_takes_the_first_line_without_lead_ins() -> None:
    assert answer_text("Answer: Jules Verne.\nHe was French.") == "Jules Verne"
    assert answer_text("The answer is Saturn") == "Saturn"
    assert answer_text('The answer is:\n"Saturn"') == "Saturn"
    assert answer_text("The answer is:") == ""


def test_an_empty_answer_leaves_the_answer_tag_unfilled() -> None:
    case = _case(["<answer>"])
    turns = {t.key: t for t in plan(case, "closed_book", Turn("Q?"))}
    empty = _response("", [("user", "Q?"), ("assistant", "The answer is:")])
    assert follow(case, turns["claim:c2"], empty) == "True or False: <answer> created Nemo."
