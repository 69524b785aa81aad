"""INVITE's automated text metrics: a response against its reference and the disengagement answers.

INVITE §5.1 compares each response with the reference answer of the invalid question (the
premise rejection) and with two disengagement answers, "I don't know" and "I can't answer
that", to see whether cheap metrics track the human hallucination labels (they mostly do not,
which is why the premise judge exists). Every value here is in [0, 1]:

- ``bleu``: sentence-level BLEU from sacrebleu (its 0-100 score divided by 100).
- ``meteor``: nltk's METEOR with WordNet synonyms. WordNet is looked for in ``$WORDNET`` (a
  folder with ``data.noun``), then in an installed NLTK data package, then in Debian's
  ``wordnet-base`` (``/usr/share/wordnet``). Without it the value is ``None`` and the details
  say how to install it: a METEOR without synonyms would be a different metric.
- ``rouge_l``: ROUGE-L F-measure from rouge-score, with stemming.
- ``bertscore``: BERTScore F1 (greedy cosine matching of contextual token embeddings, no idf,
  no baseline rescaling) computed with transformers from a LOCAL model folder given as
  ``options["bertscore_model"]``; the embedding layer is ``options["bertscore_layer"]``
  (default: last). Never downloaded: without a local folder the value is ``None``.

Each metric has a ``<name>_disengage`` variant whose value is the higher of the scores against
the two disengagement answers; both single scores are in its details.
"""

from __future__ import annotations

import io
import os
import warnings
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

from halluforge.errors import ModelError
from halluforge.metrics.base import Scorer, ScoreValue
from halluforge.records import Response, TestCase

#: INVITE's two disengagement answers
DISENGAGE_ANSWERS = ("I don't know", "I can't answer that")
DEBIAN_WORDNET = "/usr/share/wordnet"
WORDNET_HINT = (
    "install WordNet: apt-get install wordnet-base (Debian/Ubuntu), or python -m nltk.downloader "
    "wordnet, or set WORDNET to a folder holding data.noun"
)
_EXTRA_HINT = 'pip install "halluforge[text-metrics]"'

#: WordNet 3.0 lexicographer file names, in number order: Debian's wordnet-base omits the
#: ``lexnames`` index that nltk's reader expects, so it is served from here
_LEXNAMES = [
    "adj.all",
    "adj.pert",
    "adv.all",
    "noun.Tops",
    "noun.act",
    "noun.animal",
    "noun.artifact",
    "noun.attribute",
    "noun.body",
    "noun.cognition",
    "noun.communication",
    "noun.event",
    "noun.feeling",
    "noun.food",
    "noun.group",
    "noun.location",
    "noun.motive",
    "noun.object",
    "noun.person",
    "noun.phenomenon",
    "noun.plant",
    "noun.possession",
    "noun.process",
    "noun.quantity",
    "noun.relation",
    "noun.shape",
    "noun.state",
    "noun.substance",
    "noun.time",
    "verb.body",
    "verb.change",
    "verb.cognition",
    "verb.communication",
    "verb.competition",
    "verb.consumption",
    "verb.contact",
    "verb.creation",
    "verb.emotion",
    "verb.motion",
    "verb.perception",
    "verb.possession",
    "verb.social",
    "verb.stative",
    "verb.weather",
    "adj.ppl",
]
_POS_NUMBER = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}


def bleu(hypothesis: str, reference: str) -> float:
    """Sentence BLEU of ``hypothesis`` against one reference, in [0, 1]."""
    try:
        import sacrebleu
    except ImportError as exc:
        raise ModelError("bleu needs sacrebleu", hint=_EXTRA_HINT) from exc
    if not hypothesis.strip():
        return 0.0
    return min(1.0, float(sacrebleu.sentence_bleu(hypothesis, [reference]).score) / 100.0)


def rouge_l(hypothesis: str, reference: str) -> float:
    """ROUGE-L F-measure (stemmed) of ``hypothesis`` against one reference."""
    scorer = _rouge_scorer()
    return float(scorer.score(reference, hypothesis)["rougeL"].fmeasure)


@lru_cache(maxsize=1)
def _rouge_scorer() -> Any:
    try:
        from rouge_score import rouge_scorer
    except ImportError as exc:
        raise ModelError("rouge_l needs rouge-score", hint=_EXTRA_HINT) from exc
    return rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)


def _lexnames_text() -> str:
    return "".join(
        f"{i:02d}\t{name}\t{_POS_NUMBER[name.split('.')[0]]}\n" for i, name in enumerate(_LEXNAMES)
    )


def _folder_reader(folder: str) -> Any:
    """A WordNet reader over a plain WordNet dict folder (Debian layout included)."""
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class _Reader(WordNetCorpusReader):  # type: ignore[misc]
        def open(self, file: str) -> Any:
            if file == "lexnames" and not (Path(folder) / "lexnames").is_file():
                return io.StringIO(_lexnames_text())
            return super().open(file)

        def map_wn(self, version: str = "wordnet") -> None:
            return None  # no mapping to another WordNet version: this folder is the reference

    # nltk only reads corpora under its data path: authorise exactly this folder
    if folder not in nltk.data.path:
        nltk.data.path.append(folder)
    with warnings.catch_warnings():  # "multilingual functions not available": no OMW, as intended
        warnings.simplefilter("ignore", UserWarning)
        return _Reader(folder, None)


@lru_cache(maxsize=1)
def find_wordnet() -> tuple[Any, str]:
    """WordNet for METEOR and where it came from; ``(None, why)`` when none is installed."""
    try:
        import nltk  # noqa: F401
    except ImportError:
        return None, f"nltk is not installed ({_EXTRA_HINT})"
    env = os.environ.get("WORDNET")
    if env and (Path(env) / "data.noun").is_file():
        return _folder_reader(str(Path(env).resolve())), f"WORDNET={env}"
    try:
        from nltk.corpus import wordnet

        wordnet.ensure_loaded()
        return wordnet, "nltk data package"
    except (LookupError, OSError):
        pass
    if (Path(DEBIAN_WORDNET) / "data.noun").is_file():
        return _folder_reader(DEBIAN_WORDNET), f"Debian wordnet-base ({DEBIAN_WORDNET})"
    return None, f"WordNet not found ({WORDNET_HINT})"


def meteor(hypothesis: str, reference: str) -> float | None:
    """METEOR of ``hypothesis`` against one reference; ``None`` when WordNet is missing."""
    wordnet, _ = find_wordnet()
    if wordnet is None:
        return None
    from nltk.translate.meteor_score import meteor_score

    hyp = hypothesis.lower().split()
    if not hyp:
        return 0.0
    return float(meteor_score([reference.lower().split()], hyp, wordnet=wordnet))


class BertScorer:
    """BERTScore F1 with a local transformers encoder (see the module docstring for the variant)."""

    def __init__(self, model_path: str, *, layer: int | None = None, batch_size: int = 16) -> None:
        if not Path(model_path).is_dir():
            raise ModelError(
                f"bertscore model {model_path!r} is not a local folder",
                hint="set options.bertscore_model to a folder saved with save_pretrained (no download)",
            )
        try:
            from transformers import AutoModel, AutoTokenizer
        except ImportError as exc:
            raise ModelError(
                "bertscore needs transformers and torch", hint='pip install "halluforge[nli]"'
            ) from exc
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(model_path)
            self.model = AutoModel.from_pretrained(model_path)
        except (OSError, ValueError) as exc:
            raise ModelError(f"cannot load bertscore model {model_path!r}: {exc}") from exc
        self.model.eval()
        self.layer = layer
        self.batch_size = batch_size

    def _embed(self, texts: Sequence[str]) -> list[Any]:
        import torch

        out: list[Any] = []
        for start in range(0, len(texts), self.batch_size):
            batch = self.tokenizer(
                list(texts[start : start + self.batch_size]),
                padding=True,
                truncation=True,
                max_length=512,
                return_tensors="pt",
                return_special_tokens_mask=True,
            )
            special = batch.pop("special_tokens_mask")
            with torch.inference_mode():
                result = self.model(**batch, output_hidden_states=self.layer is not None)
            states = result.last_hidden_state if self.layer is None else result.hidden_states[self.layer]
            keep = batch["attention_mask"].bool() & ~special.bool()
            for row in range(states.shape[0]):
                vectors = states[row][keep[row]]
                out.append(torch.nn.functional.normalize(vectors, dim=-1))
        return out

    def f1(self, hypotheses: Sequence[str], references: Sequence[str]) -> list[float]:
        """BERTScore F1 for each (hypothesis, reference) pair; an empty side scores 0."""
        hyp_vectors = self._embed(hypotheses)
        ref_vectors = self._embed(references)
        scores: list[float] = []
        for hyp, ref in zip(hyp_vectors, ref_vectors, strict=True):
            if hyp.shape[0] == 0 or ref.shape[0] == 0:
                scores.append(0.0)
                continue
            sim = hyp @ ref.T
            precision = float(sim.max(dim=1).values.mean())
            recall = float(sim.max(dim=0).values.mean())
            total = precision + recall
            scores.append(0.0 if total <= 0 else 2 * precision * recall / total)
        return scores


@lru_cache(maxsize=2)
def load_bert_scorer(model_path: str, layer: int | None = None) -> BertScorer:
    """One BERTScore encoder per (folder, layer) per process."""
    return BertScorer(model_path, layer=layer)


def reference_of(case: TestCase) -> str:
    """The reference answer of a test case: ``reference``, else the first expected answer."""
    return case.reference or (case.expected[0] if case.expected else "")


class _TextMetric(Scorer):
    """Shared loop: score against the reference, or (``disengage``) the best disengagement answer."""

    disengage: ClassVar[bool] = False
    extras: ClassVar[tuple[str, ...]] = ("text-metrics",)

    def applies_to(self, case: TestCase) -> bool:
        """Meaningful whenever the test case has a reference text."""
        return bool(reference_of(case))

    def pair_scores(self, hypotheses: Sequence[str], references: Sequence[str]) -> list[float | None]:
        """The metric for each pair (override)."""
        raise NotImplementedError

    def unavailable(self) -> str | None:
        """Why the metric cannot be computed at all, or None."""
        return None

    def score_batch(self, pairs: Sequence[tuple[TestCase, Response]]) -> list[ScoreValue]:
        """Score every response against its reference or the disengagement answers."""
        why = self.unavailable()
        if why is not None:
            return [ScoreValue(None, reason=why) for _ in pairs]
        texts = [response.text for _, response in pairs]
        if not self.disengage:
            values = self.pair_scores(texts, [reference_of(case) for case, _ in pairs])
            return [ScoreValue(v, {"against": "reference"}) for v in values]
        per_answer = [self.pair_scores(texts, [answer] * len(texts)) for answer in DISENGAGE_ANSWERS]
        out = []
        for i in range(len(pairs)):
            singles = {
                answer: scores[i] for answer, scores in zip(DISENGAGE_ANSWERS, per_answer, strict=True)
            }
            known = [v for v in singles.values() if v is not None]
            out.append(ScoreValue(max(known) if known else None, {"against": singles}))
        return out

    def score(self, case: TestCase, response: Response) -> ScoreValue:
        """Score one response."""
        return self.score_batch([(case, response)])[0]


class Bleu(_TextMetric):
    """``bleu``: sentence BLEU against the reference answer."""

    name: ClassVar[str] = "bleu"

    def pair_scores(self, hypotheses: Sequence[str], references: Sequence[str]) -> list[float | None]:
        """Sentence BLEU per pair."""
        return [bleu(h, r) for h, r in zip(hypotheses, references, strict=True)]


class BleuDisengage(Bleu):
    """``bleu_disengage``: the higher BLEU against "I don't know" / "I can't answer that"."""

    name: ClassVar[str] = "bleu_disengage"
    disengage: ClassVar[bool] = True


class RougeL(_TextMetric):
    """``rouge_l``: ROUGE-L F-measure against the reference answer."""

    name: ClassVar[str] = "rouge_l"

    def pair_scores(self, hypotheses: Sequence[str], references: Sequence[str]) -> list[float | None]:
        """ROUGE-L F per pair."""
        return [rouge_l(h, r) for h, r in zip(hypotheses, references, strict=True)]


class RougeLDisengage(RougeL):
    """``rouge_l_disengage``: the higher ROUGE-L against the disengagement answers."""

    name: ClassVar[str] = "rouge_l_disengage"
    disengage: ClassVar[bool] = True


class Meteor(_TextMetric):
    """``meteor``: METEOR against the reference answer (``None`` without WordNet)."""

    name: ClassVar[str] = "meteor"

    def unavailable(self) -> str | None:
        """Not computed without WordNet."""
        wordnet, where = find_wordnet()
        return None if wordnet is not None else f"meteor not computed: {where}"

    def pair_scores(self, hypotheses: Sequence[str], references: Sequence[str]) -> list[float | None]:
        """METEOR per pair."""
        return [meteor(h, r) for h, r in zip(hypotheses, references, strict=True)]


class MeteorDisengage(Meteor):
    """``meteor_disengage``: the higher METEOR against the disengagement answers."""

    name: ClassVar[str] = "meteor_disengage"
    disengage: ClassVar[bool] = True


class BertScore(_TextMetric):
    """``bertscore``: BERTScore F1 against the reference, with ``options["bertscore_model"]`` (local)."""

    name: ClassVar[str] = "bertscore"
    extras: ClassVar[tuple[str, ...]] = ("nli",)
    option_names: ClassVar[tuple[str, ...]] = ("bertscore_model", "bertscore_layer")

    def unavailable(self) -> str | None:
        """Not computed without a local model folder."""
        if not self.ctx.options.get("bertscore_model"):
            return "bertscore not computed: set options.bertscore_model to a local model folder"
        return None

    def pair_scores(self, hypotheses: Sequence[str], references: Sequence[str]) -> list[float | None]:
        """BERTScore F1 per pair, batched."""
        layer = self.ctx.options.get("bertscore_layer")
        scorer = load_bert_scorer(
            str(self.ctx.options["bertscore_model"]), None if layer is None else int(layer)
        )
        return list(scorer.f1(hypotheses, references))


class BertScoreDisengage(BertScore):
    """``bertscore_disengage``: the higher BERTScore against the disengagement answers."""

    name: ClassVar[str] = "bertscore_disengage"
    disengage: ClassVar[bool] = True


__all__ = [
    "DISENGAGE_ANSWERS",
    "BertScore",
    "BertScoreDisengage",
    "BertScorer",
    "Bleu",
    "BleuDisengage",
    "Meteor",
    "MeteorDisengage",
    "RougeL",
    "RougeLDisengage",
    "bleu",
    "find_wordnet",
    "load_bert_scorer",
    "meteor",
    "reference_of",
    "rouge_l",
]
