"""The True/False/no-answer parser of the claims family on many reply shapes (ABCD App. A.2)."""

from __future__ import annotations

import pytest

from halluforge.families.claims.metrics import parse_verdict

CLAIM = "Jules Verne wrote a novel in which Professor Lidenbrock climbs down into a volcano."

SHAPES: list[tuple[str, str]] = [
    ("True.", "true"),
    ("True", "true"),
    ("TRUE", "true"),
    ("true!", "true"),
    ("  True, that is right.", "true"),
    ("**True**", "true"),
    ("Answer: True", "true"),
    ("The statement is true.", "true"),
    ("That's true: he wrote it in 1864.", "true"),
    ("Yes, that is correct.", "true"),
    ("Correct.", "true"),
    ("False.", "false"),
    ("FALSE", "false"),
    ("false", "false"),
    ("False, he never wrote such a novel.", "false"),
    ("The claim is false.", "false"),
    ("That is not true.", "false"),
    ("This is untrue.", "false"),
    ("No.", "false"),
    ("No, that is wrong.", "false"),
    ("Incorrect.", "false"),
    ("Verdict: False", "false"),
    ("I'm not sure.", "idk"),
    ("I don't know.", "idk"),
    ("As an AI language model, I cannot verify this claim.", "idk"),
    ("I cannot answer that.", "idk"),
    ("", "idk"),
    ("Hmm.", "idk"),
    ("Please provide more context.", "idk"),
    # a reply that restates the claim as fact, with no verdict word
    ("Jules Verne wrote a novel in which Professor Lidenbrock climbs down into a volcano.", "true"),
    # ... and one that restates it negated
    ("Jules Verne did not write a novel in which Professor Lidenbrock climbs down into a volcano.", "false"),
    # "False." then the claim stated as fact: the paper's special case, read as true
    ("False. Jules Verne wrote a novel in which Professor Lidenbrock climbs down into a volcano.", "true"),
    # "False." then the claim denied stays false
    (
        "False. Jules Verne never wrote a novel in which Professor Lidenbrock climbs down into a volcano.",
        "false",
    ),
    ("Not false.", "true"),
    ("true or false? True.", "true"),
    ("It is false that he wrote it, true that he was French.", "false"),
]


def test_there_are_at_least_thirty_shapes() -> None:
    assert len(SHAPES) >= 30


@pytest.mark.parametrize(("reply", "expected"), SHAPES)
def test_robust_mode(reply: str, expected: str) -> None:
    assert parse_verdict(reply, CLAIM) == expected


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("True.", "true"),
        ("FALSE", "false"),
        ("I'm not sure.", "idk"),
        # literal substring rule: "not true" contains "true"
        ("That is not true.", "true"),
        ("It is false that he wrote it, true that he was French.", "true"),
        # a restatement without a verdict word is IDK for the literal rule
        ("Jules Verne wrote a novel in which Professor Lidenbrock climbs down into a volcano.", "idk"),
        (
            "False. Jules Verne wrote a novel in which Professor Lidenbrock climbs down into a volcano.",
            "true",
        ),
        ("False, he did not.", "false"),
    ],
)
def test_paper_mode_reads_the_literal_rule(reply: str, expected: str) -> None:
    assert parse_verdict(reply, CLAIM, "paper") == expected
