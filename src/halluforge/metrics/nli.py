"""Entailment accuracy, normalized entailment, and the ReEval both-variants rule.

**Entailment accuracy** (ReEval §4.1, AutoDebug §3.1) is lenient where exact match is strict:
a response is correct when "question + response" entails "question + gold answer" under an
NLI cross-encoder. The papers use ``cross-encoder/nli-deberta-v3-base``; any sequence
classification model with an ``entailment`` label works, by hub id or local path
(``score.nli_model`` → :attr:`ScoreContext.nli_model`). Pairs are scored in batches and the
entailment label's index is read from the model config's ``id2label`` (label orders differ
between NLI models, so it is never assumed). A response counts as correct when entailment is
the most probable label for at least one gold answer.

No NLI model ships in any registry package. With none configured, both scorers return
``None`` with the reason :data:`NO_MODEL_REASON`: a run never reports another metric under
the entailment name.

**Normalized entailment** (entailment over the cases a target got right before perturbation)
and ReEval's **both-variants** rule read several responses; they are derived from the stored
``entail`` scores in :mod:`halluforge.metrics.layer`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar

from halluforge.errors import ModelError
from halluforge.metrics.base import Scorer, ScoreValue
from halluforge.records import Response, TestCase

#: what a run without an NLI model reports instead of an entailment value
NO_MODEL_REASON = (
    "entailment not computed: no NLI model configured "
    "(set score.nli_model to cross-encoder/nli-deberta-v3-base or a local path)"
)
#: the model the papers use (Sentence-BERT's NLI cross-encoder)
PAPER_NLI_MODEL = "cross-encoder/nli-deberta-v3-base"
DEFAULT_BATCH_SIZE = 16


class NLIModel:
    """An NLI cross-encoder loaded with transformers, scoring (premise, hypothesis) pairs in batches."""

    def __init__(
        self, name_or_path: str, *, batch_size: int = DEFAULT_BATCH_SIZE, max_length: int = 512
    ) -> None:
        try:
            import torch  # noqa: F401
            from transformers import AutoModelForSequenceClassification, AutoTokenizer
        except ImportError as exc:
            raise ModelError(
                f"entailment needs transformers and torch ({exc})",
                hint='pip install "halluforge[nli]"',
            ) from exc
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(name_or_path)
            self.model = AutoModelForSequenceClassification.from_pretrained(name_or_path)
        except (OSError, ValueError) as exc:
            raise ModelError(
                f"cannot load the NLI model {name_or_path!r}: {exc}",
                hint=f"set score.nli_model to a local folder saved with save_pretrained, "
                f"or to {PAPER_NLI_MODEL} on a machine that can reach the model hub",
            ) from exc
        self.model.eval()
        self.name = name_or_path
        self.batch_size = max(1, batch_size)
        self.max_length = max_length
        self.entailment_index = entailment_index(self.model.config.id2label, name_or_path)

    def probabilities(self, pairs: Sequence[tuple[str, str]]) -> list[list[float]]:
        """Label probabilities for each (premise, hypothesis) pair, in the model's label order."""
        import torch

        out: list[list[float]] = []
        for start in range(0, len(pairs), self.batch_size):
            batch = pairs[start : start + self.batch_size]
            encoded = self.tokenizer(
                [p for p, _ in batch],
                [h for _, h in batch],
                padding=True,
                truncation=True,
                max_length=self.max_length,
                return_tensors="pt",
            )
            with torch.inference_mode():
                logits = self.model(**encoded).logits
            out.extend(torch.softmax(logits.float(), dim=-1).tolist())
        return out

    def entails(self, pairs: Sequence[tuple[str, str]]) -> list[tuple[bool, float]]:
        """For each pair: whether entailment is the most probable label, and its probability."""
        results = []
        for probs in self.probabilities(pairs):
            best = max(range(len(probs)), key=probs.__getitem__)
            results.append((best == self.entailment_index, probs[self.entailment_index]))
        return results


def entailment_index(id2label: Mapping[Any, str], model: str = "the NLI model") -> int:
    """The index of the entailment label in a config's ``id2label`` (keys may be ints or strings)."""
    for key, label in id2label.items():
        if str(label).strip().lower().startswith("entail"):
            return int(key)
    raise ModelError(
        f"{model} has no entailment label (its labels: {sorted(map(str, id2label.values()))})",
        hint=f"use an NLI model such as {PAPER_NLI_MODEL}, whose config names an 'entailment' label",
    )


@lru_cache(maxsize=2)
def load_nli(name_or_path: str, batch_size: int = DEFAULT_BATCH_SIZE) -> NLIModel:
    """Load an NLI model once per process (``entail`` and ``norm_entail`` share it)."""
    return NLIModel(name_or_path, batch_size=batch_size)


def nli_pairs(question: str, output: str, answers: Sequence[str]) -> list[tuple[str, str]]:
    """The papers' pairs: premise "question + output", hypothesis "question + gold", one per gold."""
    premise = f"{question.strip()} {output.strip()}".strip()
    return [(premise, f"{question.strip()} {answer.strip()}".strip()) for answer in answers if answer.strip()]


class Entailment(Scorer):
    """``entail``: 1 when the response entails the question plus some gold answer, else 0."""

    name: ClassVar[str] = "entail"
    option_names: ClassVar[tuple[str, ...]] = ("batch_size",)

    def _model(self) -> NLIModel | None:
        if not self.ctx.nli_model:
            return None
        return load_nli(self.ctx.nli_model, int(self.ctx.options.get("batch_size", DEFAULT_BATCH_SIZE)))

    def entail_values(self, pairs: Sequence[tuple[TestCase, Response]]) -> list[ScoreValue]:
        """Entailment for every pair in one batched pass over all (response, gold) combinations."""
        model = self._model()
        if model is None:
            return [ScoreValue(None, reason=NO_MODEL_REASON) for _ in pairs]
        flat: list[tuple[str, str]] = []
        owners: list[int] = []
        for index, (case, response) in enumerate(pairs):
            for pair in nli_pairs(case.question, response.text, case.expected):
                flat.append(pair)
                owners.append(index)
        judged = model.entails(flat) if flat else []
        per_case: list[list[tuple[bool, float]]] = [[] for _ in pairs]
        for owner, result in zip(owners, judged, strict=True):
            per_case[owner].append(result)
        values = []
        for results in per_case:
            if not results:
                values.append(ScoreValue(None, reason="no gold answer to entail"))
                continue
            hit = any(entailed for entailed, _ in results)
            values.append(
                ScoreValue(
                    1.0 if hit else 0.0,
                    {"entail_prob": round(max(p for _, p in results), 4), "nli_model": model.name},
                )
            )
        return values

    def score_batch(self, pairs: Sequence[tuple[TestCase, Response]]) -> list[ScoreValue]:
        return self.entail_values(pairs)


__all__ = [
    "NO_MODEL_REASON",
    "PAPER_NLI_MODEL",
    "Entailment",
    "NLIModel",
    "entailment_index",
    "load_nli",
    "nli_pairs",
]
