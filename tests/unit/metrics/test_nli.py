"""Entailment with a tiny NLI model built here (derived metrics over it: tests/unit/metrics/test_layer.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from extra_skips import hide, needs, require
from halluforge.errors import ModelError
from halluforge.metrics import SCORERS, ScoreContext
from halluforge.metrics import nli as nli_module
from halluforge.metrics.nli import (
    NO_MODEL_REASON,
    Entailment,
    NLIModel,
    load_nli,
    nli_pairs,
)
from halluforge.records import Response, TestCase

VOCABULARY = (
    "who wrote hamlet william shakespeare did it the play was by christopher marlowe "
    "what is capital of france paris lyon i do not know answer question"
)


def build_tiny_nli(
    folder: Path, id2label: dict[int, str], bias: list[float] | None = None, seed: int = 0
) -> Path:
    """Save a 1-layer BERT classifier and a word-level tokenizer trained here, for from_pretrained."""
    torch = require("nli", "torch")
    transformers = require("nli", "transformers")
    from tokenizers import Tokenizer, models, pre_tokenizers, processors, trainers

    tokenizer = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"]
    tokenizer.train_from_iterator([VOCABULARY], trainers.WordLevelTrainer(special_tokens=specials))
    cls_id, sep_id = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", cls_id), ("[SEP]", sep_id)],
    )
    fast = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tokenizer, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]"
    )
    config = transformers.BertConfig(
        vocab_size=tokenizer.get_vocab_size(),
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=64,
        num_labels=len(id2label),
        id2label=id2label,
        label2id={v: k for k, v in id2label.items()},
    )
    torch.manual_seed(seed)
    model = transformers.BertForSequenceClassification(config)
    with torch.no_grad():  # large classifier weights, so verdicts differ between inputs
        model.classifier.weight.normal_(0.0, 4.0)
    if bias is not None:  # a constant verdict: zero weights, the bias picks the label
        with torch.no_grad():
            model.classifier.weight.zero_()
            model.classifier.bias.copy_(torch.tensor(bias))
    model.save_pretrained(folder)
    fast.save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("nli")
    order = {0: "contradiction", 1: "entailment", 2: "neutral"}
    return {
        # entailment at index 1 always wins: a scorer that assumed index 0 would say 0
        "always": build_tiny_nli(root / "always", order, bias=[0.0, 6.0, 0.0]),
        # contradiction at index 0 always wins
        "never": build_tiny_nli(root / "never", order, bias=[6.0, 0.0, 0.0]),
        # another label order, upper case: entailment at index 2
        "upper": build_tiny_nli(
            root / "upper", {0: "NEUTRAL", 1: "CONTRADICTION", 2: "ENTAILMENT"}, bias=[0.0, 0.0, 6.0]
        ),
        "random": build_tiny_nli(root / "random", order, seed=3),
        "no_entail": build_tiny_nli(root / "no_entail", {0: "positive", 1: "negative"}),
    }


def case(
    question: str = "who wrote hamlet",
    expected: list[str] | None = None,
    *,
    id: str = "c1",
    family: str = "answer_swap",
    parent_example: str | None = "e1",
    parent_seed: str | None = None,
    variant: str | None = None,
) -> TestCase:
    return TestCase(
        id=id,
        family=family,
        question=question,
        expected=expected if expected is not None else ["william shakespeare"],
        parent_example=parent_example,
        parent_seed=parent_seed,
        variant=variant,
    )


def response(
    text: str, *, case_id: str = "c1", model: str = "mock/a", setting: str = "open_book"
) -> Response:
    return Response(
        id=f"r-{case_id}-{model}-{setting}", test_case_id=case_id, model=model, setting=setting, text=text
    )


# -- the real loading path with test-built models ---------------------------------------------


def test_label_index_is_read_from_the_config(models: dict[str, Path]) -> None:
    assert NLIModel(str(models["always"])).entailment_index == 1
    assert NLIModel(str(models["upper"])).entailment_index == 2
    with pytest.raises(ModelError, match="no entailment label"):
        NLIModel(str(models["no_entail"]))


def test_entail_scorer_uses_the_entailment_label(models: dict[str, Path]) -> None:
    pairs = [(case(), response("it was william shakespeare")), (case(), response("i do not know"))]
    always = SCORERS.get("entail")(ScoreContext(nli_model=str(models["always"])))
    values = always.score_batch(pairs)
    assert [v.value for v in values] == [1.0, 1.0]
    assert values[0].details["entail_prob"] > 0.9 and values[0].details["nli_model"] == str(models["always"])
    never = Entailment(ScoreContext(nli_model=str(models["never"])))
    assert [v.value for v in never.score_batch(pairs)] == [0.0, 0.0]
    upper = Entailment(ScoreContext(nli_model=str(models["upper"])))
    assert [v.value for v in upper.score_batch(pairs)] == [1.0, 1.0]


def test_batched_probabilities_equal_one_pair_at_a_time(models: dict[str, Path]) -> None:
    pairs = [
        ("who wrote hamlet william shakespeare", "who wrote hamlet william shakespeare"),
        ("who wrote hamlet i do not know", "who wrote hamlet christopher marlowe"),
        ("what is the capital of france paris", "what is the capital of france lyon"),
        ("paris", "what is the capital of france paris did it the play was by william shakespeare"),
        ("who", "who"),
    ]
    batched = NLIModel(str(models["random"]), batch_size=4).probabilities(pairs)
    single = NLIModel(str(models["random"]), batch_size=1).probabilities(pairs)
    assert len(batched) == len(pairs) and all(len(p) == 3 for p in batched)
    for left, right in zip(batched, single, strict=True):
        assert left == pytest.approx(right, abs=1e-5)
        assert sum(left) == pytest.approx(1.0, abs=1e-5)
    # the random model does not give every pair the same verdict probabilities
    assert len({round(p[1], 4) for p in batched}) > 1


@needs("nli")
def test_missing_model_is_a_model_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="cannot load the NLI model"):
        NLIModel(str(tmp_path / "no-such-model"))


def test_without_the_nli_extra_loading_names_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hide(monkeypatch, "torch", "transformers")
    with pytest.raises(
        ModelError, match=r'entailment needs transformers and torch .*pip install "halluforge\[nli\]"'
    ):
        NLIModel(str(tmp_path / "no-such-model"))


def test_load_nli_reuses_the_loaded_model(models: dict[str, Path]) -> None:
    assert load_nli(str(models["always"])) is load_nli(str(models["always"]))


# -- no model: say so, never substitute --------------------------------------------------------


def test_without_nli_model_values_are_none_with_the_reason() -> None:
    values = Entailment(ScoreContext()).score_batch([(case(), response("william shakespeare"))])
    assert values[0].value is None and values[0].reason == NO_MODEL_REASON and values[0].details == {}
    assert "not computed" in NO_MODEL_REASON and "cross-encoder/nli-deberta-v3-base" in NO_MODEL_REASON


# -- pairs and the any-gold rule (a fake model stands in for the network here) ----------------


class KeywordNLI:
    """Entails exactly when the hypothesis's last word occurs in the premise; records batches."""

    name = "keyword"

    def __init__(self) -> None:
        self.calls: list[list[tuple[str, str]]] = []

    def entails(self, pairs: list[tuple[str, str]]) -> list[tuple[bool, float]]:
        self.calls.append(list(pairs))
        return [(h.split()[-1] in p.split(), 0.9 if h.split()[-1] in p.split() else 0.1) for p, h in pairs]


@pytest.fixture
def keyword(monkeypatch: pytest.MonkeyPatch) -> KeywordNLI:
    fake = KeywordNLI()
    monkeypatch.setattr(nli_module, "load_nli", lambda *_args: fake)
    return fake


def test_nli_pairs_follow_the_papers() -> None:
    assert nli_pairs(" who wrote hamlet ", "shakespeare ", ["William Shakespeare", " "]) == [
        ("who wrote hamlet shakespeare", "who wrote hamlet William Shakespeare")
    ]


def test_any_gold_counts_and_all_pairs_go_in_one_batch(keyword: KeywordNLI) -> None:
    golds = ["christopher marlowe", "shakespeare"]
    pairs = [
        (case(expected=golds), response("it was shakespeare")),
        (case(expected=golds), response("nobody knows")),
        (case(expected=[" "]), response("anything")),
    ]
    values = Entailment(ScoreContext(nli_model="fake")).score_batch(pairs)
    assert [v.value for v in values] == [1.0, 0.0, None]
    assert values[2].reason == "no gold answer to entail"
    assert len(keyword.calls) == 1 and len(keyword.calls[0]) == 4
