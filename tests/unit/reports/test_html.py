from __future__ import annotations

import json
import re

import pytest

from halluforge.records import Edit, Provenance, Response, Score, TestCase
from halluforge.reports.cases import case_payload, report_cases, sample_cases
from halluforge.reports.html import inline_script, render_html, render_table, script_json
from halluforge.reports.model import Paragraph, Report, Section, Table

EVIL = "</script><script>alert(1)</script><!-- & <img src=x onerror=alert(2)>"


def _case(i: int, family: str = "answer_swap", question: str = "q") -> TestCase:
    context = f"Ada built tower {i}."
    return TestCase(
        id=f"{family}-{i:03d}",
        family=family,
        question=question,
        context=context,
        original_context=f"Bob built tower {i}.",
        expected=["Ada"],
        edits=[Edit.locate("context", "answer", "Bob", "Ada", context)],
        provenance=Provenance(),
    )


def test_script_json_cannot_close_its_block_and_reads_back() -> None:
    data = {"text": EVIL, "line": "a\u2028b"}
    text = script_json(data)
    assert "</script" not in text.lower() and "<!--" not in text and "<" not in text
    assert json.loads(text) == data


def test_inline_script_escapes_a_closing_tag() -> None:
    assert "</script" not in inline_script('var s = "</script>";')


def test_table_cells_titles_and_notes_are_escaped() -> None:
    table = Table(title=EVIL, columns=["a", EVIL], rows=[[EVIL, "1"]], strong=[(0, 0)], notes=[EVIL])
    out = render_table(table)
    assert "<script>" not in out and "<img" not in out
    assert "&lt;/script&gt;" in out


def test_page_embeds_cases_and_allows_only_its_own_scripts() -> None:
    report = Report(title="t", sections=[Section(title="S", blocks=[Paragraph(text=EVIL)])])
    cases = report_cases([_case(1, question=EVIL)], [], [])
    page = render_html(report, plots=[], cases=cases)
    block = re.search(r'<script type="application/json" id="hf-cases">(.*?)</script>', page, re.S)
    assert block is not None
    assert json.loads(block.group(1))["cases"][0]["question"] == EVIL
    assert EVIL not in page
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page)
    assert csp is not None and "'unsafe-inline'" not in csp.group(1).split("script-src")[1].split(";")[0]
    executable = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(executable) == csp.group(1).count("'sha256-")


def test_case_payload_keeps_edits_scores_and_the_latest_score() -> None:
    case = _case(1)
    response = Response(id="r1", test_case_id=case.id, model="m", setting="open_book", text="Ada")
    old = Score(id="s1", response_id="r1", test_case_id=case.id, model="m", setting="open_book",
                family="answer_swap", metric="em", value=0.0)  # fmt: skip
    new = old.model_copy(update={"id": "s2", "value": 1.0})
    payload = case_payload(case, [response], [old, new])
    assert payload["edits"][0]["start"] == 0 and payload["edits"][0]["new"] == "Ada"
    assert payload["responses"][0]["scores"] == [{"metric": "em", "item": None, "value": 1.0, "reason": None}]


def test_sample_keeps_every_family_and_is_deterministic() -> None:
    cases = [_case(i) for i in range(50)] + [_case(i, "original") for i in range(3)]
    first = sample_cases(cases, 10)
    assert len(first) == 10 and {c.family for c in first} == {"answer_swap", "original"}
    assert [c.id for c in sample_cases(list(reversed(cases)), 10)] == [c.id for c in reversed(first)]
    browser = report_cases(cases, [], [], max_cases=10)
    assert browser["sampled"] and browser["total"] == 53 and browser["shown"] == 10


@pytest.mark.parametrize("n", [0, 3])
def test_small_runs_are_not_sampled(n: int) -> None:
    browser = report_cases([_case(i) for i in range(n)], [], [], max_cases=3)
    assert not browser["sampled"] and browser["shown"] == n
