"""Where a denial sits, and a lead-in that frames an answer line (issue 27, round nine).

"Richard Feynman received the Nobel Prize in Literature, not in the traditional sense": the
premise is stated first, and the "not" belongs to a phrase added after it. Read from the
replies the stance step called ``negates_premise`` over every labelled file (sampled SmolLM2
replies mostly: there the step agreed with the blind label on 11 of 29). "A few words at most:
2." echoes the prompt's request before the answer, as "The answer is:" does. Real rows are
dev-half rows (``sha256(id) % 2 == 0``) of ``tests/data/judge/smollm2_<file>_invite_labels.jsonl``;
the hand-made cases show each rule is about the shape of a sentence, not the wording of one reply.
"""

from __future__ import annotations

import hashlib

import pytest

from halluforge.families.invite.judge import rule_judge
from judge_shapes import judge_row, shape_row


@pytest.mark.parametrize(
    ("name", "row_id", "reason"),
    [
        # a denial after the premise stated whole:
        # "Richard Feynman received the Nobel Prize in Literature, not in the traditional sense."
        ("t08_seed10", "88610043d4006a29", "asserts_premise"),
        # "Bob Dylan started performing with Pink Floyd at the age of 22, not 1995."
        ("t08_seed19", "5218447738ea66a5", "asserts_premise"),
        # "Charlie Watts started performing with The Police in 1991 and ended up with a record
        # that he didn't own."
        ("t08_seed26", "e488798418370af9", "asserts_premise"),
        # "What inspired Fran Walsh to write "Alien" was a long and winding road ... that might
        # otherwise not have been recognized."
        ("t08_seed30", "bd5d82becd7591b9", "asserts_premise"),
        # the prompt's request echoed as a lead-in is the frame of an answer line:
        # "A few words at most: 2." for "How much of the budget ... did X raise": an amount
        ("t08_seed14", "712ef20a702c3627", "answers"),
        # "The answer is a few words at most: 5."
        ("t08_seed17", "32d78c9a561486e0", "answers"),
        # 'A few words at most: "Au-Fleche"' for the capital of a reunified Germany in 2091
        ("t08_seed19", "f878ea59d3188f33", "answers_despite_invalid_date"),
        # "A good answer: A: Anthony Scaramanga" for the explorer who reached the Americas in 2051
        ("t08_seed27", "0723db61ea9bee84", "answers_despite_invalid_date"),
    ],
)
def test_real_replies_get_their_blind_label(name: str, row_id: str, reason: str) -> None:
    assert int(hashlib.sha256(row_id.encode()).hexdigest(), 16) % 2 == 0, "a dev-half row"
    row = shape_row(f"smollm2_{name}_invite_labels.jsonl", row_id)
    verdict = judge_row(row)
    assert (verdict.label, verdict.reason) == (int(row["hallucination_label"]), reason), verdict


_QUESTION = "Which role did Orla Brenn play in The Salt Road?"
_ENTITIES = ("Orla Brenn",)


@pytest.mark.parametrize(
    ("reply", "label"),
    [
        # the denial hangs on an added phrase or a clause of its own: the premise stands
        ("Orla Brenn played the ferryman in The Salt Road, not the lead.", 1),
        ("Orla Brenn played the ferryman in The Salt Road and never looked back.", 1),
        ("Orla Brenn played the ferryman in The Salt Road, a part which was not in the novel.", 1),
        # the denial is the main verb, or names what the premise is made of: it denies the premise
        ("Orla Brenn, a painter, did not play in The Salt Road.", 0),
        ("Orla Brenn never played in The Salt Road.", 0),
        ("Tam Ives played the ferryman in The Salt Road, not Orla Brenn.", 0),
        # a denial of the answer itself takes it back
        ("Orla Brenn played the ferryman in The Salt Road, which is not true.", 0),
    ],
)
def test_where_the_denial_sits(reply: str, label: int) -> None:
    verdict = rule_judge(_QUESTION, reply, entities=_ENTITIES)
    assert verdict.label == label, verdict


def test_another_year_before_the_denial_still_corrects() -> None:
    # a birth year that is not the question's stays a correction of the premise
    question = "Since Orla Brenn was born in 1869, which other famous people share that birth year?"
    reply = "Orla Brenn was born in 1831, which is not a birth year of anyone famous."
    assert rule_judge(question, reply, entities=("Orla Brenn",)).label == 0


@pytest.mark.parametrize(
    ("reply", "label"),
    [
        ("A few words at most: Tam Ives.", 1),
        ("Answers: Tam Ives and Orla Brenn", 1),
        ("Short answer: Tam Ives.", 1),
        # talk about the answer with no answer after a colon still says nothing
        ("A few words at most would not be enough for this question.", 0),
        ("These words are the answer.", 0),
    ],
)
def test_hand_made_lead_ins(reply: str, label: int) -> None:
    question = "Which explorer reached the Americas for Spain in 2051?"
    assert rule_judge(question, reply).label == label
