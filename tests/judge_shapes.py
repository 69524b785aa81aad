"""Real replies of one reply shape for the premise-judge tests, and the rule judge run on one.

Each ``tests/data/judge/<shape file>.jsonl`` row is a labelled reply in INVITE's columns, naming
its source; the tests of each judging round read theirs through here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from halluforge.families.invite.cli import premise_inputs
from halluforge.families.invite.judge import rule_judge

DATA = Path(__file__).resolve().parent / "data" / "judge"


def shape_rows(name: str) -> list[dict[str, Any]]:
    """The rows of ``tests/data/judge/<name>``."""
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines()]


def shape_row(name: str, row_id: str) -> dict[str, Any]:
    """The one row of ``tests/data/judge/<name>`` with this id."""
    (row,) = [r for r in shape_rows(name) if r["id"] == row_id]
    return row


def judge_row(row: dict[str, Any], world: Any = None) -> Any:
    """The rule judge's verdict on one row, read as ``halluforge judge`` reads it (``world``: its table)."""
    (item,) = premise_inputs([row])
    return rule_judge(
        item.question,
        item.response,
        entities=item.entities,
        invalid=item.invalid,
        valid_answers=item.valid_answers,
        world=world,
    )
