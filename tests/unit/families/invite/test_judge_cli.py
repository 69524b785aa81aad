"""``halluforge judge premise``: output rows, printed rates, the last line, and bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from extra_skips import hide, needs, require
from halluforge.cli.main import main

ROWS = [
    {
        "valid_question": "When did Ganesh Patro write Adavalle Aligithe?",
        "invalid_question": "When did Joshua Sinclair write Adavalle Aligithe?",
        "answer_to_invalid_question": "Joshua Sinclair did not write Adavalle Aligithe.",
        "model_response_to_invalid_question": "Joshua Sinclair did not write Adavalle Aligithe.",
        "category": "writer",
        "hallucination_label": "0",
    },
    {
        "invalid_question": "When did Heiti Talvik marry Ermalee Hickel?",
        "answer_to_invalid_question": "Heiti Talvik never married Ermalee Hickel.",
        "model_response_to_invalid_question": "Heiti Talvik married Ermalee Hickel on June 20, 1981.",
        "category": "spouse",
        "hallucination_label": "1",
    },
    {
        "invalid_question": "When did Rick Ducommun write The Manhattan Hunt Club?",
        "answer_to_invalid_question": "Rick Ducommun did not write The Manhattan Hunt Club.",
        "model_response_to_invalid_question": "",
        "category": "writer",
        "hallucination_label": "1",  # a human disagreeing with the judge: agreement 2/3
    },
]
GOOD = '{"invalid_question": "q?", "model_response_to_invalid_question": "a"}\n'
LAST = re.compile(r"^agreement=([\d.]+) kappa=(-?[\d.]+) rate=([\d.]+) human_rate=([\d.]+)$")


def _write(path: Path, rows: list[dict[str, str]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@needs("judge")  # agreement and kappa are scikit-learn's
def test_judge_premise_writes_rows_and_ends_with_agreement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _write(tmp_path / "TinyModel.jsonl", ROWS)
    assert main(["judge", "premise", str(source)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    match = LAST.match(lines[-1])
    assert match, lines[-1]
    agreement, kappa, rate, human = map(float, match.groups())
    assert agreement == pytest.approx(2 / 3, abs=1e-4)
    assert rate == pytest.approx(1 / 3, abs=1e-4) and human == pytest.approx(2 / 3, abs=1e-4)
    assert -1.0 <= kappa <= 1.0
    assert any(line.startswith("model=TinyModel n=3") for line in lines)
    assert any("category=spouse n=1 rate=1.000" in line for line in lines)
    out = [json.loads(x) for x in (tmp_path / "TinyModel.judged.jsonl").read_text().splitlines()]
    assert [r["judge_label"] for r in out] == [0, 1, 0]
    assert [r["judge_rule"] for r in out] == [0, 1, 0]
    assert out[0]["invalid_question"] == ROWS[0]["invalid_question"]  # the input is kept
    assert out[2]["judge_notes"]["rule_reason"] == "empty"


def test_judge_premise_without_labels_has_no_agreement_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [{k: v for k, v in r.items() if k != "hallucination_label"} for r in ROWS]
    source = _write(tmp_path / "m.jsonl", rows)
    out_path = tmp_path / "judged.jsonl"
    assert main(["judge", "premise", str(source), "--out", str(out_path), "--modes", "rule,nli"]) == 0
    printed = capsys.readouterr().out
    assert "agreement=" not in printed
    assert "mode=nli n=3 rate=nan" in printed  # nli not computed without a model, never substituted
    first = json.loads(out_path.read_text().splitlines()[0])
    assert first["judge_nli"] is None and "not computed" in first["judge_notes"]["nli"]


def test_labelled_rows_without_scikit_learn_end_on_an_error_naming_the_judge_extra(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    hide(monkeypatch, "sklearn")
    source = _write(tmp_path / "TinyModel.jsonl", ROWS)
    assert main(["judge", "premise", str(source)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    (line,) = [x for x in err.splitlines() if x.startswith("error:")]
    assert "scikit-learn" in line and 'pip install "halluforge[judge]"' in line


@needs("judge")  # agreement and kappa are scikit-learn's
def test_judge_premise_table_and_llm_mode_with_mock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _write(tmp_path / "m.jsonl", ROWS)
    code = main(
        ["judge", "premise", str(source), "--modes", "llm", "--judge-model", "mock/const:1", "--table"]
    )
    assert code == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert "| m | 3 | 100.0 [100.0, 100.0] | 0 |" in lines
    assert LAST.match(lines[-1]) and lines[-1].startswith("agreement=0.6667")


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (
            '{"invalid_question": "q?", "model_response_to_invalid_question": "a"}\n{not json}\n',
            ":2: not valid JSON",
        ),
        ('{"invalid_question": "q?"}\n', ":1: field 'model_response_to_invalid_question'"),
        (
            GOOD.replace("}", ', "hallucination_label": "yes"}'),
            ":1: field 'hallucination_label'",
        ),
        ("[1, 2]\n", ":1: expected a JSON object"),
        (
            GOOD.replace("}", ', "answers_to_valid_question": [1969]}'),
            ":1: field 'answers_to_valid_question'",
        ),
    ],
)
def test_bad_line_exits_2_naming_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, needle: str
) -> None:
    source = tmp_path / "bad.jsonl"
    source.write_text(content, encoding="utf-8")
    assert main(["judge", "premise", str(source)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and str(source) + needle in err
    assert "Traceback" not in err
    assert not (tmp_path / "bad.judged.jsonl").exists()


def test_missing_file_and_bad_mode_are_user_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["judge", "premise", str(tmp_path / "nope.jsonl")]) == 2
    assert "file not found" in capsys.readouterr().err
    source = _write(tmp_path / "m.jsonl", ROWS)
    assert main(["judge", "premise", str(source), "--modes", "rule,guess"]) == 2
    assert "unknown modes" in capsys.readouterr().err


@needs("judge")  # agreement and kappa are scikit-learn's
def test_evaluate_prints_intervals_and_how_it_was_measured(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _write(tmp_path / "TinyModel.jsonl", ROWS)
    assert main(["judge", "premise", str(source), "--evaluate"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert any(line.startswith("note: rule mode is hand-written, not fitted") for line in lines)
    model_line = next(line for line in lines if line.startswith("model=TinyModel"))
    assert re.search(
        r"rate=0\.333 \[[\d.]+, [\d.]+\] human_rate=0\.667 \[[\d.]+, [\d.]+\] gap=-0\.333", model_line
    )
    assert LAST.match(lines[-1])


def _labelled_rows(model: str) -> list[dict[str, str]]:
    people = [
        ("Ada Brun", "Olav Kise"),
        ("Per Lund", "Siv Dahl"),
        ("Eva Holm", "Nils Ek"),
        ("Jon Vik", "Kari Moe"),
    ]
    rows = []
    for a, b in people:
        question = f"When did {a} marry {b}?"
        for reply, label in (
            (f"{a} married {b} in 1981.", "1"),
            (f"There is no record that {a} married {b}.", "0"),
        ):
            rows.append({"invalid_question": question, "model_response_to_invalid_question": reply,
                         "hallucination_label": label, "model": model})  # fmt: skip
    return rows


def test_train_then_judge_with_the_learned_model_names_in_sample_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    require("judge", "sklearn")
    require("retrieval", "sentence_transformers")  # the learned judge's MiniLM embeddings
    first = _write(tmp_path / "a.jsonl", _labelled_rows("A"))
    second = _write(tmp_path / "b.jsonl", _labelled_rows("B"))
    folder = tmp_path / "judge"
    assert main(["judge", "train", str(first), str(second), "--out", str(folder)]) == 0
    printed = capsys.readouterr().out
    assert "cv5 all n=16" in printed and "lomo model=A n=8" in printed and "lomo model=B n=8" in printed
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["models"] == {"A": {"rows": 8, "positives": 4}, "B": {"rows": 8, "positives": 4}}
    assert {"cross_validated_5fold", "lomo:A", "lomo:B"} <= set(manifest["figures"])
    assert [f["rows"] for f in manifest["files"]] == [8, 8]
    code = main(
        ["judge", "premise", str(first), "--modes", "learned", "--learned-model", str(folder), "--evaluate"]
    )
    assert code == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert (
        "note: learned mode: 8 of 8 rows were in the judge's training data: figures on them are in-sample"
        in lines
    )
    assert LAST.match(lines[-1])
    # without a saved judge the learned mode is fitted leave-one-model-out over the files given
    assert main(["judge", "premise", str(first), str(second), "--modes", "learned", "--evaluate"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert any("leave-one-model-out" in line for line in lines if line.startswith("note:"))
    judged = [json.loads(x) for x in (tmp_path / "a.judged.jsonl").read_text().splitlines()]
    assert all("fitted without this row's model" in r["judge_notes"]["learned"] for r in judged)


def test_learned_mode_needs_two_models_or_a_saved_judge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _write(tmp_path / "a.jsonl", _labelled_rows("A"))
    assert main(["judge", "premise", str(source), "--modes", "learned"]) == 2
    err = capsys.readouterr().err
    assert "at least two models" in err and "Traceback" not in err
    unlabelled = _write(
        tmp_path / "u.jsonl", [{k: v for k, v in r.items() if k != "hallucination_label"} for r in ROWS]
    )
    assert main(["judge", "train", str(unlabelled), "--out", str(tmp_path / "j")]) == 2
    assert "u.jsonl:1: field 'hallucination_label'" in capsys.readouterr().err


def test_answers_to_the_valid_question_decide_a_date_answer(tmp_path: Path) -> None:
    """A date question answered without the impossible date: true answer 0, another answer 1."""
    base = {
        "invalid_question": "which ferry first crossed the Oslofjord on 34 July 1961",
        "answers_to_valid_question": ["Nordlys"],
    }
    rows = [
        {**base, "model_response_to_invalid_question": "The Nordlys."},
        {**base, "model_response_to_invalid_question": "The Stormbird."},
        {**base, "answers_to_valid_question": "Nordlys", "model_response_to_invalid_question": "Nordlys"},
    ]
    source = _write(tmp_path / "dates.jsonl", rows)
    assert main(["judge", "premise", str(source)]) == 0
    judged = [json.loads(line) for line in (tmp_path / "dates.judged.jsonl").read_text().splitlines()]
    assert [r["judge_label"] for r in judged] == [0, 1, 0]
    assert judged[0]["judge_notes"]["rule_reason"] == "answers_valid_part"
