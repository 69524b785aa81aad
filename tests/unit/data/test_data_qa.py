"""MRQA, RealtimeQA and ReEval loaders on small files written here, and on the real ReEval files."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from halluforge.config import DataSource, FilterConfig
from halluforge.data import LOADERS
from halluforge.data.filters import apply_filters
from halluforge.data.qa import clean_mrqa_context, load_mrqa, load_realtimeqa, load_reeval
from halluforge.errors import DataError

SHARED_REEVAL = Path(__file__).resolve().parents[3] / ".." / "shared" / "data" / "reeval"

MRQA_ROWS = [
    {"header": {"dataset": "NaturalQuestions", "split": "dev"}},
    {
        "id": "c1",
        "context": "[TLE] Mount Everest [PAR] <P> Mount Everest is Earth 's highest mountain above sea"
        " level , located in the Mahalangur Himal of the Himalayas . </P>",
        "qas": [
            {
                "qid": "q1",
                "question": "what is the highest mountain above sea level",
                "answers": ["Mount Everest", "Mount Everest"],
                "detected_answers": [{"text": "Mount Everest", "char_spans": [[26, 38]]}],
            },
            {
                "qid": "q2",
                "question": "which range is mount everest in",
                "answers": [],
                "detected_answers": [{"text": "the Himalayas"}],
            },
        ],
    },
]


def write_lines(path: Path, rows: list[dict], *, gz: bool = False) -> Path:
    text = "\n".join(json.dumps(r) for r in rows) + "\n"
    if gz:
        with gzip.open(path, "wt", encoding="utf-8") as handle:
            handle.write(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("gz", [False, True])
def test_mrqa_one_example_per_question_cleaned(tmp_path: Path, gz: bool) -> None:
    path = write_lines(tmp_path / ("nq.jsonl.gz" if gz else "nq.jsonl"), MRQA_ROWS, gz=gz)
    examples = list(load_mrqa(DataSource(loader="mrqa", path=str(path))))
    assert [e.question for e in examples] == [
        "what is the highest mountain above sea level",
        "which range is mount everest in",
    ]
    first, second = examples
    assert first.answers == ["Mount Everest"]  # repeated annotations collapse
    assert second.answers == ["the Himalayas"]  # detected answers when answers is empty
    assert first.title == "Mount Everest"
    assert first.evidence is not None
    assert "[PAR]" not in first.evidence and "<P>" not in first.evidence and "</P>" not in first.evidence
    assert first.evidence.startswith("Mount Everest Mount Everest is Earth 's highest")
    assert first.metadata == {"source_id": "q1", "dataset": "NaturalQuestions"}
    assert first.source == path.name
    assert first.id != second.id


def test_mrqa_limit_and_raw_option(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "nq.jsonl", MRQA_ROWS)
    assert len(list(load_mrqa(DataSource(loader="mrqa", path=str(path), limit=1)))) == 1
    raw = next(load_mrqa(DataSource(loader="mrqa", path=str(path), options={"clean": False})))
    assert raw.evidence is not None and "[PAR]" in raw.evidence


def test_clean_mrqa_context() -> None:
    assert clean_mrqa_context("[DOC] [TLE] T [SEP] <Table> <Tr> <Td> x </Td> </Tr> </Table>") == "T x"


def test_mrqa_errors_name_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(MRQA_ROWS[0]) + "\n" + '{"context": "x", "qas": [\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"bad\.jsonl:2: not valid JSON"):
        list(load_mrqa(DataSource(loader="mrqa", path=str(path))))
    path.write_text(json.dumps({"context": "x", "qas": [{"qid": "a", "answers": ["y"]}]}), encoding="utf-8")
    with pytest.raises(DataError, match=r"bad\.jsonl:1: field 'question'"):
        list(load_mrqa(DataSource(loader="mrqa", path=str(path))))
    path.write_text(json.dumps(MRQA_ROWS[0]) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match="no examples"):
        list(load_mrqa(DataSource(loader="mrqa", path=str(path))))


REALTIME_ROWS = [
    {
        "question_id": "20230609_2",
        "question_date": "2023/06/08",
        "question_source": "CNN",
        "question_url": "https://example.test/quiz",
        "question_sentence": "Apple unveiled a new headset this week. What is it called?",
        "choices": ["Apple Car", "Apple Bike Pro", "Apple Hoverboard+", "Apple Vision Pro"],
        "answer": ["3"],
        "evidence": 'Apple introduced a headset called <a href="https://example.test/a">Apple Vision Pro'
        "</a>, which overlays virtual images on live video of the real world.",
    },
    {
        "question_id": "20230609_10",
        "question_date": "2023/06/09",
        "question_source": "USAtoday",
        "question_sentence": "Who stepped down as CEO this week?",
        "choices": ["A", "B", "C"],
        "answer": ["1"],
        "evidence": "",
    },
]


def test_realtimeqa_answers_from_choice_indices(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "20230609_qa.jsonl", REALTIME_ROWS)
    examples = list(LOADERS.get("realtimeqa")(DataSource(loader="realtimeqa", path=str(path))))
    assert [e.answers for e in examples] == [["Apple Vision Pro"], ["B"]]
    first = examples[0]
    assert first.metadata["source_id"] == "20230609_2"
    assert first.metadata["question_date"] == "2023/06/08"
    assert first.metadata["choices"][3] == "Apple Vision Pro"
    assert first.metadata["answer_index"] == [3]
    assert first.metadata["question_source"] == "CNN"
    assert examples[1].evidence is None
    kept, skips = apply_filters(examples, FilterConfig())
    assert (
        kept[0].evidence is not None
        and "<a" not in kept[0].evidence
        and "Apple Vision Pro" in kept[0].evidence
    )
    assert [s.reason for s in skips] == ["no_evidence"]


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (["7"], "'7' is not an index into the 3 choices"),
        ([], "field 'answer': missing"),
        (["x"], "'x' is not"),
    ],
)
def test_realtimeqa_bad_answer(tmp_path: Path, answer: list[str], message: str) -> None:
    row = {**REALTIME_ROWS[1], "answer": answer}
    path = write_lines(tmp_path / "rt.jsonl", [REALTIME_ROWS[0], row])
    with pytest.raises(DataError, match=rf"rt\.jsonl:2: .*{message}"):
        list(load_realtimeqa(DataSource(loader="realtimeqa", path=str(path))))


REEVAL_ROWS = [
    {
        "q_id": 0,
        "question": "Which show was renewed?",
        "answer": "\u201cSquid Game\u201d",
        "evidence": 'The hit show \u201c<a href="u">Squid Game</a>\u201d is coming back for a second season.',
        "source": "realtimeqa",
        "supporting_sen": "The hit show is coming back.",
    },
    {
        "q_id": 1,
        "question": "Who won?",
        "answer": "Jane Doe",
        "evidence": "Jane Doe won.",
        "source": "realtimeqa",
    },
]


def test_reeval_array_with_extras_in_metadata(tmp_path: Path) -> None:
    path = tmp_path / "cat2.json"
    path.write_text(json.dumps(REEVAL_ROWS, indent=2), encoding="utf-8")
    examples = list(load_reeval(DataSource(loader="reeval", path=str(path))))
    assert [e.answers for e in examples] == [["Squid Game"], ["Jane Doe"]]
    first = examples[0]
    assert first.metadata["supporting_sen"] == "The hit show is coming back."
    assert first.metadata["raw_answers"] == ["\u201cSquid Game\u201d"]
    assert first.metadata["source_id"] == "0" and first.metadata["origin"] == "realtimeqa"
    raw = next(load_reeval(DataSource(loader="reeval", path=str(path), options={"strip_quotes": False})))
    assert raw.answers == ["\u201cSquid Game\u201d"]


def test_reeval_errors_give_the_line_of_the_element(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    rows = [REEVAL_ROWS[0], {"q_id": 1, "question": "Who won?", "evidence": "x"}]
    text = json.dumps(rows, indent=2)
    path.write_text(text, encoding="utf-8")
    line = text[: text.index('"q_id": 1')].count("\n")  # the line of the element's opening brace
    with pytest.raises(DataError, match=rf"bad\.json:{line}: field 'answer': missing or empty"):
        list(load_reeval(DataSource(loader="reeval", path=str(path))))
    path.write_text('[{"q_id": 0, "question": "q", "answer": "a"},\n {"q_id": 1,,}]', encoding="utf-8")
    with pytest.raises(DataError, match=r"bad\.json:2: not valid JSON"):
        list(load_reeval(DataSource(loader="reeval", path=str(path))))
    path.write_text("[]", encoding="utf-8")
    with pytest.raises(DataError, match="no examples"):
        list(load_reeval(DataSource(loader="reeval", path=str(path))))


@pytest.mark.parametrize(
    ("name", "count"),
    [
        ("realtime_cat1_counterfact.json", 999),
        ("realtime_cat2_retrieve_by_query.json", 814),
        ("realtime_cat2_retrieve_by_evidence.json", 814),
    ],
)
def test_real_reeval_files(name: str, count: int) -> None:
    path = SHARED_REEVAL / name
    if not path.is_file():
        pytest.skip("shared/data/reeval is not beside this checkout")
    examples = list(LOADERS.get("reeval")(DataSource(loader="reeval", path=str(path))))
    assert len(examples) == count
    assert len({e.id for e in examples}) == count
    kept, skips = apply_filters(examples, FilterConfig())
    assert len(kept) + len(skips) == count
    assert {s.reason for s in skips} <= {"answer_too_long", "duplicate", "evidence_too_short"}
    assert all(e.evidence is not None and "<a " not in e.evidence for e in kept)
    if name.startswith("realtime_cat2"):
        assert "condensed_evidence" in examples[0].metadata
