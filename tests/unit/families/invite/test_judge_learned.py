"""The learned judge: features, save/load with its manifest, cross-validation and leave-one-model-out."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from extra_skips import hide, needs, require
from halluforge.errors import ConfigError, DataError
from halluforge.families.invite.judge import JudgeOptions, PremiseInput, judge_premise
from halluforge.families.invite.judge.evaluate import cross_validate, leave_one_model_out

#: scikit-learn: the learned judge's classifier and the stratified folds
SKLEARN = needs("judge", "sklearn")

QUESTIONS = [  # (question, a reply that goes along with {y}, a reply that rejects)
    ("When did Ada Brun marry Olav Kise?", "Ada Brun married Olav Kise in {y}.", "There is no record that Ada Brun married Olav Kise."),  # noqa: E501
    ("When did Per Lund write Grey Harbour?", "Per Lund wrote Grey Harbour in {y}.", "Per Lund did not write Grey Harbour."),  # noqa: E501
    ("When did Eva Holm join Red Tide FC?", "Eva Holm joined Red Tide FC in {y}.", "I'm not aware that Eva Holm ever played for Red Tide FC."),  # noqa: E501
    ("When did Nils Ek found Bluewater Ltd?", "Nils Ek founded Bluewater Ltd in {y}.", "Nils Ek never founded Bluewater Ltd."),  # noqa: E501
    ("When did Siv Dahl direct Cold Light?", "Siv Dahl directed Cold Light in {y}.", "Cold Light was actually directed by someone else."),  # noqa: E501
    ("When did Jon Vik study at Elm College?", "Jon Vik studied at Elm College from {y}.", "I don't know of Jon Vik studying at Elm College."),  # noqa: E501
]  # fmt: skip


def _rows(model_years: Sequence[int]) -> tuple[list[PremiseInput], list[int]]:
    inputs, labels = [], []
    for year in model_years:
        for question, yes, no in QUESTIONS:
            inputs.append(PremiseInput(question, yes.format(y=year)))
            labels.append(1)
            inputs.append(PremiseInput(question, no))
            labels.append(0)
    return inputs, labels


def test_leave_one_model_out_never_trains_on_the_held_model() -> None:
    features = np.arange(12, dtype=float).reshape(6, 2)
    models = ["a", "a", "b", "b", "c", "c"]
    seen: list[list[float]] = []

    def fit(train: np.ndarray, labels: Sequence[int]) -> Any:
        seen.append(sorted(train[:, 0].tolist()))
        return lambda rows: [0] * len(rows)

    out = leave_one_model_out(features, [0, 1, 0, 1, 0, 1], models, fit)
    assert sorted(out) == ["a", "b", "c"] and all(len(v) == 2 for v in out.values())
    assert seen == [[4.0, 6.0, 8.0, 10.0], [0.0, 2.0, 8.0, 10.0], [0.0, 2.0, 4.0, 6.0]]
    with pytest.raises(ValueError, match="two models"):
        leave_one_model_out(features, [0] * 6, ["a"] * 6, fit)


@SKLEARN
def test_cross_validate_predicts_every_row_from_other_folds() -> None:
    features = np.asarray([[float(i % 2)] for i in range(20)])
    labels = [i % 2 for i in range(20)]
    calls: list[int] = []

    def fit(train: np.ndarray, train_labels: Sequence[int]) -> Any:
        calls.append(len(train))
        return lambda rows: [int(r[0]) for r in rows]

    assert cross_validate(features, labels, fit, folds=5) == labels
    assert calls == [16] * 5


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require("judge", "sklearn")
    require("retrieval", "sentence_transformers")  # MiniLM embeddings
    from halluforge.families.invite.judge.learned import train

    inputs, labels = _rows([1990, 2004])
    judge = train(inputs, labels, manifest={"files": [{"path": "crafted"}]})
    return judge.save(tmp_path_factory.mktemp("learned"))


def test_save_load_round_trip_with_manifest(trained: Path) -> None:
    from halluforge.families.invite.judge.learned import LearnedJudge, row_hash

    model = json.loads((trained / "model.json").read_text())
    manifest = json.loads((trained / "manifest.json").read_text())
    assert model["kind"] == "logistic_regression" and model["encoder"] == "all-MiniLM-L6-v2"
    # the answer head's cosine to the question and the rule features, no reply embedding (format 3)
    assert len(model["coef"]) == len(model["features"]) and model["feature_set"] == "answer_head"
    assert model["features"][0] == "cosine_question_answer_head" and "rule_label" in model["features"]
    assert manifest["rows"] == 24 and manifest["positives"] == 12
    assert manifest["files"] == [{"path": "crafted"}]
    inputs, _ = _rows([1990])
    assert row_hash(inputs[0]) in manifest["row_hashes"]
    loaded = LearnedJudge.load(trained)
    assert loaded.coef == model["coef"] and loaded.manifest["rows"] == 24
    # calibrated: the sigmoid over the decision value is saved and read back
    assert model["format"] == 3 and model["calibration"]["method"] == "sigmoid"
    assert loaded.calibration == (model["calibration"]["a"], model["calibration"]["b"])
    # held-out replies of the same shapes: a claim with a new year, a rejection
    fresh = [
        PremiseInput("When did Kari Moe marry Leif Aas?", "Kari Moe married Leif Aas in 1977."),
        PremiseInput(
            "When did Kari Moe marry Leif Aas?", "There is no record that Kari Moe married Leif Aas."
        ),
    ]
    assert [label for label, _ in loaded.predict(fresh)] == [1, 0]
    out = judge_premise(fresh, JudgeOptions(modes=("learned",), learned_model=str(trained)))
    assert [j.label for j in out] == [1, 0] and 0.0 <= out[0].notes["learned_probability"] <= 1.0


def test_learned_with_rule_veto(trained: Path) -> None:
    # an echo of the question: the rule's engagement step vetoes whatever the classifier says
    echo = PremiseInput("When did Kari Moe marry Leif Aas?", "When did Kari Moe marry Leif Aas?")
    options = JudgeOptions(modes=("learned",), combine="learned-with-rule-veto", learned_model=str(trained))
    out = judge_premise([echo], options)
    assert out[0].label == 0 and out[0].notes["rule_step"] == "engagement"


def test_load_errors_are_clear(tmp_path: Path) -> None:
    from halluforge.families.invite.judge.learned import LearnedJudge

    with pytest.raises(ConfigError, match="no learned judge"):
        LearnedJudge.load(tmp_path)
    (tmp_path / "model.json").write_text('{"format": 99, "kind": "forest"}')
    (tmp_path / "manifest.json").write_text("{}")
    with pytest.raises(DataError, match="unknown learned-judge format"):
        LearnedJudge.load(tmp_path)
    with pytest.raises(ConfigError, match="learned_model"):
        JudgeOptions.from_options({"modes": "learned"})


@SKLEARN
def test_training_needs_both_labels() -> None:
    from halluforge.families.invite.judge.learned import fit_classifier

    with pytest.raises(DataError, match="all the same"):
        fit_classifier(np.zeros((4, 3)), [1, 1, 1, 1])


def test_training_without_scikit_learn_names_the_extras(monkeypatch: pytest.MonkeyPatch) -> None:
    from halluforge.families.invite.judge.learned import fit_classifier

    hide(monkeypatch, "sklearn")
    with pytest.raises(ConfigError, match=r'pip install "halluforge\[judge,retrieval\]"'):
        fit_classifier(np.zeros((4, 3)), [0, 1, 0, 1])


def test_format_1_judges_still_load_uncalibrated(trained: Path, tmp_path: Path) -> None:
    from halluforge.families.invite.judge.learned import LearnedJudge

    model = json.loads((trained / "model.json").read_text())
    del model["calibration"]
    model["format"] = 1
    (tmp_path / "model.json").write_text(json.dumps(model))
    (tmp_path / "manifest.json").write_text((trained / "manifest.json").read_text())
    old = LearnedJudge.load(tmp_path)
    assert old.calibration is None
    fresh = [PremiseInput("When did Kari Moe marry Leif Aas?", "Kari Moe married Leif Aas in 1977.")]
    # the raw logistic probability and the calibrated one differ, and both say 1 here
    raw, calibrated = old.predict(fresh)[0], LearnedJudge.load(trained).predict(fresh)[0]
    assert raw[0] == calibrated[0] == 1 and raw[1] != calibrated[1]


@SKLEARN
def test_calibrated_probabilities_follow_the_observed_rates() -> None:
    from halluforge.families.invite.judge.evaluate import expected_calibration_error, reliability
    from halluforge.families.invite.judge.learned import fit_calibrated

    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 1))
    y = (rng.random(400) < 1 / (1 + np.exp(-2 * x[:, 0]))).astype(int).tolist()
    model = fit_calibrated(x, y)
    p = model.predict_proba_1(x)
    assert ((p > 0) & (p < 1)).all()
    assert expected_calibration_error(reliability(p.tolist(), y, bins=5)) < 0.08


def test_reliability_and_confusion_by_step() -> None:
    from halluforge.families.invite.judge.evaluate import (
        confusion_by_step,
        expected_calibration_error,
        reliability,
    )

    bins = reliability([0.1, 0.15, 0.9, 1.0], [0, 1, 1, 1], bins=5)
    assert [(b.low, b.n, b.observed_rate) for b in bins] == [(0.0, 2, 0.5), (0.8, 2, 1.0)]
    assert expected_calibration_error(bins) == pytest.approx((2 * 0.375 + 2 * 0.05) / 4)
    with pytest.raises(ValueError, match="one label per probability"):
        reliability([0.5], [0, 1])
    table = confusion_by_step(
        [("stance", "refuses"), ("assertion", "answers"), ("assertion", "answers")], [0, 0, 1], [0, 1, 1]
    )
    assert table[("assertion", "answers")] == {"n": 2, "agree": 1, "false_1": 1, "false_0": 0}
    assert table[("stance", "refuses")]["agree"] == 1


def test_judges_saved_before_format_3_read_the_whole_reply(trained: Path, tmp_path: Path) -> None:
    from halluforge.families.invite.judge.learned import LearnedJudge, answer_head, featurize

    model = json.loads((trained / "model.json").read_text())
    del model["feature_set"]
    model["format"] = 2
    (tmp_path / "model.json").write_text(json.dumps(model))
    (tmp_path / "manifest.json").write_text((trained / "manifest.json").read_text())
    assert LearnedJudge.load(tmp_path).feature_set == "reply_embedding"
    item = PremiseInput(
        "When did Kari Moe marry Leif Aas?", "Kari Moe married Leif Aas in 1977.\n\nWho is Ola?"
    )
    assert answer_head(item) == "Kari Moe married Leif Aas in 1977."
    assert featurize([item], feature_set="reply_embedding").shape[1] == featurize([item]).shape[1] + 384
    model["feature_set"] = "bag_of_words"
    (tmp_path / "model.json").write_text(json.dumps(model))
    with pytest.raises(DataError, match="unknown feature set"):
        LearnedJudge.load(tmp_path)
