"""INVITE's text metrics (BLEU, METEOR, ROUGE-L, BERTScore) against the reference and disengagement."""

from __future__ import annotations

from pathlib import Path

import pytest

from extra_skips import hide, needs, require
from halluforge.metrics import SCORERS, ScoreContext
from halluforge.metrics import text as text_metrics
from halluforge.records import Response, TestCase

REF = "Joshua Sinclair did not write Adavalle Aligithe."


def _pair(text: str, reference: str | None = REF) -> tuple[TestCase, Response]:
    case = TestCase(
        id="c", family="false_premise", question="When did Joshua Sinclair write it?", reference=reference
    )
    return case, Response(id="r", test_case_id="c", model="m", setting="closed_book", text=text)


@needs("text-metrics", "sacrebleu", "rouge_score")
def test_bleu_and_rouge_order_responses_sensibly() -> None:
    same = text_metrics.bleu(REF, REF)
    close = text_metrics.bleu("Joshua Sinclair did not write that book.", REF)
    far = text_metrics.bleu("Bananas are yellow.", REF)
    assert same == pytest.approx(1.0) and same > close > far >= 0.0
    assert text_metrics.bleu("", REF) == 0.0
    assert text_metrics.rouge_l(REF, REF) == pytest.approx(1.0)
    assert 0.0 < text_metrics.rouge_l("Sinclair did not write it.", REF) < 1.0
    assert text_metrics.rouge_l("Bananas are yellow.", REF) == 0.0


def test_meteor_uses_wordnet_synonyms_or_says_why_not() -> None:
    require("text-metrics", "nltk")  # without nltk: test_without_the_extra_each_metric_names_it
    wordnet, where = text_metrics.find_wordnet()
    if wordnet is None:
        assert "wordnet" in where.lower()
        assert text_metrics.meteor("the auto is red", "the car is red") is None
        values = SCORERS.get("meteor")().score_batch([_pair("anything")])
        assert values[0].value is None and "install" in values[0].reason
        pytest.skip(f"no WordNet here: {where}")
    synonym = text_metrics.meteor("the auto is red", "the car is red")
    unrelated = text_metrics.meteor("the banana is red", "the car is red")
    assert synonym is not None and unrelated is not None
    assert synonym > unrelated  # "auto" matches "car" only through WordNet


def test_meteor_reports_missing_wordnet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        text_metrics, "find_wordnet", lambda: (None, "WordNet not found (install WordNet: ...)")
    )
    assert text_metrics.meteor("a", "b") is None
    value = SCORERS.get("meteor")().score(*_pair("anything"))
    assert value.value is None and "not computed" in (value.reason or "")


@needs("text-metrics", "sacrebleu", "rouge_score")
def test_disengage_variant_takes_the_best_disengagement_answer() -> None:
    scorer = SCORERS.get("rouge_l_disengage")()
    idk, rejecting = scorer.score_batch([_pair("I don't know."), _pair(REF)])
    assert idk.value == pytest.approx(1.0)
    assert set(idk.details["against"]) == set(text_metrics.DISENGAGE_ANSWERS)
    assert rejecting.value is not None and rejecting.value < 0.5
    bleu = SCORERS.get("bleu")().score_batch([_pair(REF)])[0]
    assert bleu.value == pytest.approx(1.0) and bleu.details["against"] == "reference"


def test_without_the_extra_each_metric_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from halluforge.errors import ModelError

    hide(monkeypatch, "sacrebleu", "rouge_score", "nltk")
    for cached in ("_rouge_scorer", "find_wordnet"):  # not what an earlier test found
        monkeypatch.setattr(text_metrics, cached, getattr(text_metrics, cached).__wrapped__)
    install = r'pip install "halluforge\[text-metrics\]"'
    with pytest.raises(ModelError, match=rf"bleu needs sacrebleu \(fix: {install}\)"):
        text_metrics.bleu("a", REF)
    with pytest.raises(ModelError, match=rf"rouge_l needs rouge-score \(fix: {install}\)"):
        text_metrics.rouge_l("a", REF)
    # METEOR is not computed, with the reason, rather than failing the run
    wordnet, why = text_metrics.find_wordnet()
    assert wordnet is None and why == 'nltk is not installed (pip install "halluforge[text-metrics]")'
    assert text_metrics.meteor("the auto is red", "the car is red") is None
    value = SCORERS.get("meteor")().score_batch([_pair("anything")])[0]
    assert value.value is None and "halluforge[text-metrics]" in (value.reason or "")


def test_text_metrics_apply_only_with_a_reference() -> None:
    scorer = SCORERS.get("bleu")()
    assert scorer.applies_to(_pair("x")[0])
    assert not scorer.applies_to(_pair("x", reference=None)[0])


def test_bertscore_not_computed_without_local_model() -> None:
    values = SCORERS.get("bertscore")(ScoreContext()).score_batch([_pair(REF)])
    assert values[0].value is None and "local model folder" in values[0].reason


def test_bertscore_refuses_a_hub_id() -> None:
    from halluforge.errors import ModelError

    with pytest.raises(ModelError, match="not a local folder"):
        text_metrics.BertScorer("bert-base-uncased")


@pytest.fixture(scope="module")
def tiny_encoder(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A random-weight BERT encoder with a word-level tokenizer built here (tests the path, not quality)."""
    require("nli", "torch")  # BERTScore's encoder: transformers and torch, the nli extra
    transformers = require("nli", "transformers")
    from tokenizers import Tokenizer, models, pre_tokenizers, processors

    words = sorted({w.strip(".").lower() for w in (REF + " I don't know bananas are yellow").split()})
    vocab = {t: i for i, t in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", *words])}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])]
    )
    folder = tmp_path_factory.mktemp("tiny_encoder")
    fast = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]"
    )
    fast.save_pretrained(folder)
    config = transformers.BertConfig(
        vocab_size=len(vocab), hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
        intermediate_size=32, max_position_embeddings=64,
    )  # fmt: skip
    transformers.BertModel(config).save_pretrained(folder)
    return str(folder)


def test_bertscore_with_tiny_local_encoder(tiny_encoder: str) -> None:
    ctx = ScoreContext(options={"bertscore_model": tiny_encoder})
    same, other, empty = SCORERS.get("bertscore")(ctx).score_batch(
        [_pair(REF), _pair("bananas are yellow"), _pair("")]
    )
    assert same.value == pytest.approx(1.0, abs=1e-4)  # identical tokens match themselves exactly
    assert other.value is not None and other.value < same.value
    assert empty.value == 0.0
    disengage = SCORERS.get("bertscore_disengage")(ctx).score_batch([_pair("I don't know")])[0]
    assert disengage.value is not None and set(disengage.details["against"]) == set(
        text_metrics.DISENGAGE_ANSWERS
    )
    assert Path(tiny_encoder).is_dir()
