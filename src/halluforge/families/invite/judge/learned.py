"""The learned judge: logistic regression over the rule features and the answer head's closeness.

Features of one response (feature set ``answer_head``, the default since issue 27's second
round): the rule steps' decisions as numbers
(:func:`halluforge.families.invite.judge.steps.rule_features`) and the cosine between the
question's MiniLM embedding and the embedding of the reply's **answer head** (its first
sentences before any run-on, :func:`~.reading.read_reply`; the bundled ``all-MiniLM-L6-v2`` by
default, loaded offline by :func:`halluforge.retrieval.dense.load_encoder`). The earlier set,
``reply_embedding`` (the whole reply's 384-dimensional embedding, its cosine to the question
and the rule features), is still read from judges saved with it, but it transferred worse
between models: leave-one-model-out its worst fold was 0.880 against 0.908 for
``answer_head`` (docs/judge.md), the embedding of one model's run-on style carrying little
that holds for the next model. The classifier is scikit-learn's
:class:`~sklearn.linear_model.LogisticRegression` with balanced class weights, its probabilities
calibrated by :class:`~sklearn.calibration.CalibratedClassifierCV` (Platt's sigmoid fitted on
cross-validated decision values, ``ensemble=False``): balanced weights move the raw scores
towards the rarer class, the sigmoid maps them back to observed rates. The rule features are
inputs with weights like any other: no rule decision vetoes the learned label.

A trained judge is a folder: ``model.json`` (coefficients, intercept, feature names, encoder)
and ``manifest.json`` (the training files with their sha256, rows and labels per model, the
hashes of the training rows, versions, and the cross-validated / leave-one-model-out figures
measured when it was trained). JSON, not pickle, so loading a judge someone sent you runs no code.
Figures of a learned judge are only ever quoted from cross-validation or leave-one-model-out:
:func:`halluforge.families.invite.judge.evaluate.leave_one_model_out` refits it per fold.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from halluforge.errors import ConfigError, DataError
from halluforge.families.invite.judge.steps import rule_features

if TYPE_CHECKING:
    from halluforge.families.invite.judge.base import PremiseInput

DEFAULT_ENCODER = "all-MiniLM-L6-v2"
MODEL_FILE = "model.json"
MANIFEST_FILE = "manifest.json"
FORMAT = 3
#: formats this version reads (1: uncalibrated, no ``calibration`` entry; 1-2: ``reply_embedding`` only)
READABLE_FORMATS = (1, 2, 3)
#: what the classifier reads: the rule features and the answer head's cosine to the question,
#: or (judges saved before format 3) the whole reply's embedding as well
FEATURE_SETS = ("answer_head", "reply_embedding")
DEFAULT_FEATURE_SET = "answer_head"
#: sentences of the answer that make its head (the stance step reads as many)
HEAD_SENTENCES = 3
INSTALL_HINT = 'pip install "halluforge[judge,retrieval]"'


def row_hash(item: PremiseInput) -> str:
    """A short hash of what the judge reads (question and reply): marks training rows."""
    return hashlib.sha256(f"{item.question}\x00{item.response}".encode()).hexdigest()[:16]


def _rule_vector(item: PremiseInput) -> dict[str, float]:
    return rule_features(
        item.question, item.response, entities=item.entities, invalid=item.invalid,
        valid_answers=item.valid_answers,
    )  # fmt: skip


def feature_names(encoder_dim: int, feature_set: str = DEFAULT_FEATURE_SET) -> list[str]:
    """Names of the feature columns, in order."""
    probe = sorted(_rule_vector(_probe()))
    if feature_set == "answer_head":
        return ["cosine_question_answer_head", *probe]
    return [f"emb{i}" for i in range(encoder_dim)] + ["cosine_question_reply"] + probe


def answer_head(item: PremiseInput) -> str:
    """The reply's answer before any run-on, its first :data:`HEAD_SENTENCES` sentences."""
    from halluforge.families.invite.judge.reading import read_reply

    reading = read_reply(
        item.question, item.response, entities=item.entities, invalid=item.invalid,
        valid_answers=item.valid_answers,
    )  # fmt: skip
    return " ".join((reading.engaged or reading.content)[:HEAD_SENTENCES])


def _probe() -> PremiseInput:
    from halluforge.families.invite.judge.base import PremiseInput

    return PremiseInput("q?", "a")


def featurize(
    inputs: Sequence[PremiseInput], encoder: str = DEFAULT_ENCODER, feature_set: str = DEFAULT_FEATURE_SET
) -> np.ndarray:
    """The feature matrix (one row per input) of ``feature_set`` (:data:`FEATURE_SETS`), float32."""
    if feature_set not in FEATURE_SETS:
        raise ConfigError(
            f"unknown feature set {feature_set!r}", hint=f"use one of {', '.join(FEATURE_SETS)}"
        )
    model = _encoder(encoder)
    texts = (
        [answer_head(item) for item in inputs]
        if feature_set == "answer_head"
        else [i.response for i in inputs]
    )
    replies = [text.strip()[:2000] or "(empty)" for text in texts]
    reply_vectors = np.asarray(
        model.encode(replies, batch_size=32, normalize_embeddings=True), dtype=np.float32
    )
    question_vectors = np.asarray(
        model.encode([item.question for item in inputs], batch_size=32, normalize_embeddings=True),
        dtype=np.float32,
    )
    cosine = (reply_vectors * question_vectors).sum(axis=1, keepdims=True)
    rules = [_rule_vector(item) for item in inputs]
    names = sorted(rules[0]) if rules else []
    rule_matrix = np.asarray([[r[n] for n in names] for r in rules], dtype=np.float32).reshape(
        len(inputs), -1
    )
    if feature_set == "answer_head":
        return np.hstack([cosine, rule_matrix])
    return np.hstack([reply_vectors, cosine, rule_matrix])


def _sklearn_lr() -> Any:
    try:
        from sklearn.linear_model import LogisticRegression
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ConfigError("the learned judge needs scikit-learn", hint=INSTALL_HINT) from exc
    return LogisticRegression


@functools.cache
def _encoder(name: str) -> Any:
    try:
        from halluforge.retrieval.dense import load_encoder
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ConfigError("the learned judge needs sentence-transformers", hint=INSTALL_HINT) from exc
    return load_encoder(name)


def fit_classifier(features: np.ndarray, labels: Sequence[int], *, c: float = 1.0, seed: int = 0) -> Any:
    """Fit the logistic regression on a feature matrix (both classes must be present)."""
    LogisticRegression = _sklearn_lr()  # noqa: N806 - a class

    if len(set(labels)) < 2:
        raise DataError(
            "the training labels are all the same", field="hallucination_label",
            hint="give rows labelled 0 and rows labelled 1",
        )  # fmt: skip
    classifier = LogisticRegression(C=c, class_weight="balanced", max_iter=5000, random_state=seed)
    classifier.fit(features, np.asarray(labels))
    return classifier


@dataclass(frozen=True)
class Calibrated:
    """A logistic regression and the sigmoid that calibrates it: P(1) = 1 / (1 + exp(a·z + b))."""

    classifier: Any
    a: float
    b: float

    def predict_proba_1(self, features: np.ndarray) -> np.ndarray:
        """Calibrated P(label 1) of each row."""
        return _sigmoid(np.asarray(self.classifier.decision_function(features)), self.a, self.b)


def _sigmoid(z: np.ndarray, a: float, b: float) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(a * z + b)))


def fit_calibrated(
    features: np.ndarray, labels: Sequence[int], *, folds: int = 5, seed: int = 0
) -> Calibrated:
    """Fit the classifier on every row and its sigmoid on cross-validated decision values.

    scikit-learn's ``CalibratedClassifierCV(method="sigmoid", ensemble=False)``; the folds are
    fewer when the rarer class has fewer rows than ``folds`` (at least 2).
    """
    if len(set(labels)) < 2:
        fit_classifier(features, labels)  # raises its clear DataError
    try:
        from sklearn.calibration import CalibratedClassifierCV
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ConfigError("the learned judge needs scikit-learn", hint=INSTALL_HINT) from exc
    LogisticRegression = _sklearn_lr()  # noqa: N806 - a class

    y = np.asarray(labels)
    cv = max(2, min(folds, int(np.bincount(y).min())))
    base = LogisticRegression(C=1.0, class_weight="balanced", max_iter=5000, random_state=seed)
    model = CalibratedClassifierCV(base, method="sigmoid", cv=cv, ensemble=False)
    model.fit(features, y)
    fitted = model.calibrated_classifiers_[0]
    sigmoid = fitted.calibrators[0]
    return Calibrated(fitted.estimator, float(sigmoid.a_), float(sigmoid.b_))


@dataclass
class LearnedJudge:
    """A trained learned judge: classifier weights, the encoder it expects and its manifest."""

    coef: list[float]
    intercept: float
    encoder: str = DEFAULT_ENCODER
    threshold: float = 0.5
    names: list[str] = field(default_factory=list)
    manifest: dict[str, Any] = field(default_factory=dict)
    #: Platt sigmoid (a, b) over the decision value; None: the raw logistic probability (format 1)
    calibration: tuple[float, float] | None = None
    #: what the classifier reads (:data:`FEATURE_SETS`); judges saved before format 3 read "reply_embedding"
    feature_set: str = DEFAULT_FEATURE_SET

    @classmethod
    def from_classifier(
        cls, classifier: Any, encoder: str, manifest: dict[str, Any], feature_set: str = DEFAULT_FEATURE_SET
    ) -> LearnedJudge:
        """Wrap a fitted scikit-learn logistic regression, or a :class:`Calibrated` one."""
        calibration = None
        if isinstance(classifier, Calibrated):
            classifier, calibration = classifier.classifier, (classifier.a, classifier.b)
        coef = [float(v) for v in classifier.coef_[0]]
        return cls(
            coef,
            float(classifier.intercept_[0]),
            encoder,
            0.5,
            feature_names(len(coef) - _n_rule_cols() - 1, feature_set),
            manifest,
            calibration,
            feature_set,
        )

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """P(label 1) for each feature row, through scikit-learn's own predict_proba."""
        LogisticRegression = _sklearn_lr()  # noqa: N806 - a class

        if features.shape[1] != len(self.coef):
            raise DataError(
                f"the judge expects {len(self.coef)} features, got {features.shape[1]}",
                hint="retrain the learned judge with this version of halluforge",
            )
        classifier = LogisticRegression()
        classifier.classes_ = np.asarray([0, 1])
        classifier.coef_ = np.asarray([self.coef])
        classifier.intercept_ = np.asarray([self.intercept])
        classifier.n_features_in_ = len(self.coef)
        if self.calibration is not None:
            return _sigmoid(np.asarray(classifier.decision_function(features)), *self.calibration)
        return np.asarray(classifier.predict_proba(features)[:, 1])

    def predict(self, inputs: Sequence[PremiseInput]) -> list[tuple[int, float]]:
        """(label, probability of 1) for each input."""
        if not inputs:
            return []
        probs = self.probabilities(featurize(inputs, self.encoder, self.feature_set))
        return [(int(p >= self.threshold), float(p)) for p in probs]

    def save(self, folder: str | Path) -> Path:
        """Write ``model.json`` and ``manifest.json`` into ``folder`` (created if missing)."""
        path = Path(folder)
        path.mkdir(parents=True, exist_ok=True)
        model = {
            "format": FORMAT, "kind": "logistic_regression", "encoder": self.encoder,
            "threshold": self.threshold, "intercept": self.intercept, "coef": self.coef,
            "features": self.names, "feature_set": self.feature_set,
        }  # fmt: skip
        if self.calibration is not None:
            model["calibration"] = {"method": "sigmoid", "a": self.calibration[0], "b": self.calibration[1]}
        (path / MODEL_FILE).write_text(json.dumps(model), encoding="utf-8")
        (path / MANIFEST_FILE).write_text(
            json.dumps(self.manifest, indent=2, ensure_ascii=False), encoding="utf-8"
        )
        return path

    @classmethod
    def load(cls, folder: str | Path) -> LearnedJudge:
        """Read a judge saved by :meth:`save`; a missing or foreign folder is a ConfigError."""
        path = Path(folder)
        model_path = path / MODEL_FILE
        if not model_path.is_file():
            raise ConfigError(
                f"no learned judge in {path} (missing {MODEL_FILE})",
                hint="train one with `halluforge judge train FILES --out DIR`",
            )
        try:
            model = json.loads(model_path.read_text(encoding="utf-8"))
            manifest = json.loads((path / MANIFEST_FILE).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise DataError(f"unreadable learned judge: {exc}", path=str(path), hint="retrain it") from exc
        if model.get("format") not in READABLE_FORMATS or model.get("kind") != "logistic_regression":
            raise DataError(
                f"unknown learned-judge format {model.get('format')!r}", path=str(model_path),
                hint="retrain it with this version of halluforge",
            )  # fmt: skip
        sigmoid = model.get("calibration")
        calibration = (float(sigmoid["a"]), float(sigmoid["b"])) if isinstance(sigmoid, dict) else None
        feature_set = str(model.get("feature_set", "reply_embedding"))  # formats 1-2 had only that one
        if feature_set not in FEATURE_SETS:
            raise DataError(
                f"unknown feature set {feature_set!r}", path=str(model_path), field="feature_set",
                hint="retrain it with this version of halluforge",
            )  # fmt: skip
        return cls(
            [float(v) for v in model["coef"]], float(model["intercept"]), str(model["encoder"]),
            float(model.get("threshold", 0.5)), list(model.get("features", [])), manifest, calibration,
            feature_set,
        )  # fmt: skip


def lomo_predictions(
    inputs: Sequence[PremiseInput],
    labels: Sequence[int],
    models: Sequence[str],
    *,
    encoder: str = DEFAULT_ENCODER,
) -> list[tuple[int, float]]:
    """(label, probability) for every input from a judge fitted without that input's model."""
    from halluforge.families.invite.judge.evaluate import leave_one_model_out

    matrix = featurize(inputs, encoder)
    probabilities: dict[int, float] = {}

    def fit(features: np.ndarray, train_labels: Sequence[int]) -> Any:
        classifier = fit_calibrated(features, train_labels)
        return lambda rows: [float(p) for p in classifier.predict_proba_1(rows)]

    by_model = leave_one_model_out(matrix, labels, models, fit)
    for name, probs in by_model.items():
        rows = [i for i, m in enumerate(models) if m == name]
        probabilities.update(zip(rows, probs, strict=True))
    return [(int(probabilities[i] >= 0.5), probabilities[i]) for i in range(len(inputs))]


def _n_rule_cols() -> int:
    return len(_rule_vector(_probe()))


@functools.cache
def load_learned(folder: str) -> LearnedJudge:
    """Load a learned judge once per process."""
    return LearnedJudge.load(folder)


def train(
    inputs: Sequence[PremiseInput],
    labels: Sequence[int],
    *,
    encoder: str = DEFAULT_ENCODER,
    manifest: dict[str, Any] | None = None,
    features: np.ndarray | None = None,
) -> LearnedJudge:
    """Fit a learned judge on labelled inputs; the manifest records the training rows' hashes."""
    if len(inputs) != len(labels) or not inputs:
        raise DataError("train needs as many labels as inputs, and at least one", field="labels")
    matrix = featurize(inputs, encoder) if features is None else features
    classifier = fit_calibrated(matrix, labels)
    record = dict(manifest or {})
    record.setdefault("rows", len(inputs))
    record.setdefault("positives", int(sum(labels)))
    record["row_hashes"] = sorted({row_hash(item) for item in inputs})
    record["encoder"] = encoder
    return LearnedJudge.from_classifier(classifier, encoder, record)
