"""DoLa decoding, step by step, against hand-computed logits and a tiny Llama built by the test."""

from __future__ import annotations

import math
from typing import Any

import pytest

from extra_skips import require
from halluforge.backends.dola import (
    candidate_layers,
    choose_premature,
    contrast,
    dola_generate,
    dola_step,
    relative_top_filter,
)


@pytest.fixture(scope="module")
def torch() -> Any:
    """torch, for the tests that compute on tensors (the layer choice needs none)."""
    return require("hf", "torch")


def test_layer_sets() -> None:
    assert candidate_layers(4, "low", tied_embeddings=False) == [0]
    assert candidate_layers(4, "high", tied_embeddings=False) == [2]
    assert candidate_layers(32, "low", tied_embeddings=True) == [2, 4, 6, 8, 10, 12, 14]
    assert candidate_layers(32, "high", tied_embeddings=True) == list(range(16, 32, 2))
    assert candidate_layers(48, "low", tied_embeddings=False) == list(range(0, 20, 2))
    assert candidate_layers(48, "high", tied_embeddings=False) == list(range(28, 48, 2))
    assert candidate_layers(10, [1, 5, 99], tied_embeddings=False) == [1, 5]
    with pytest.raises(ValueError, match="low"):
        candidate_layers(4, "middle", tied_embeddings=False)


def _jsd(p: list[float], q: list[float]) -> float:
    m = [(a + b) / 2 for a, b in zip(p, q, strict=True)]
    kl_p = sum(a * math.log(a / c) for a, c in zip(p, m, strict=True)) / len(p)
    kl_q = sum(b * math.log(b / c) for b, c in zip(q, m, strict=True)) / len(q)
    return 0.5 * (kl_p + kl_q)


def _softmax(xs: list[float]) -> list[float]:
    total = sum(math.exp(x) for x in xs)
    return [math.exp(x) / total for x in xs]


def test_divergence_choice_matches_hand_computation(torch: Any) -> None:
    final = [2.0, 0.0, 0.0]
    candidates = {1: [2.0, 0.0, 0.0], 3: [0.0, 0.0, 2.0], 5: [1.0, 1.0, 0.0]}
    chosen, divergences = choose_premature(
        torch.tensor(final), {k: torch.tensor(v) for k, v in candidates.items()}
    )
    assert chosen == 3
    for layer, logits in candidates.items():
        assert divergences[layer] == pytest.approx(_jsd(_softmax(final), _softmax(logits)), abs=1e-6)
    assert divergences[1] == pytest.approx(0.0, abs=1e-7)


def test_plausibility_cut_and_contrast_match_hand_computation(torch: Any) -> None:
    final = torch.log(torch.tensor([0.6, 0.3, 0.05, 0.05]))
    premature = torch.log(torch.tensor([0.7, 0.1, 0.1, 0.1]))
    f, p, keep = relative_top_filter(final, premature, 0.1)
    assert keep.tolist() == [True, True, False, False]  # 0.05 < 0.1 * 0.6
    assert f[2] == float("-inf") and p[2] == pytest.approx(-1e-3)
    scores = contrast(final, premature, 0.1)
    assert scores[0] == pytest.approx(math.log(0.6 / 0.7), abs=1e-5)
    assert scores[1] == pytest.approx(math.log(0.3 / 0.1), abs=1e-5)
    assert int(scores.argmax()) == 1  # greedy would take token 0; DoLa prefers the one that grew
    # without the cut, an implausible token that the premature layer ruled out would win
    assert int(contrast(final, torch.log(torch.tensor([0.7, 0.25, 0.04, 0.01])), 0.0).argmax()) == 3


@pytest.fixture(scope="module")
def tiny_llama(torch: Any) -> object:
    transformers = require("hf", "transformers")
    torch.manual_seed(0)
    config = transformers.LlamaConfig(
        vocab_size=40,
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=4,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=64,
        tie_word_embeddings=False,
    )
    model = transformers.LlamaForCausalLM(config)
    model.eval()
    return model


def test_one_step_on_a_tiny_model_matches_manual_computation(tiny_llama: object, torch: Any) -> None:
    model = tiny_llama
    ids = torch.tensor([[3, 7, 11, 5]])
    with torch.inference_mode():
        outputs = model(input_ids=ids, output_hidden_states=True)  # type: ignore[operator]
        head = model.get_output_embeddings()  # type: ignore[attr-defined]
        layers = candidate_layers(4, "low", tied_embeddings=False) + candidate_layers(
            4, "high", tied_embeddings=False
        )
        scores, _, chosen = dola_step(model, outputs, layers, 0.1)
        final_row = outputs.logits[0, -1]
        manual = {layer: head(outputs.hidden_states[layer][0, -1]) for layer in layers}
        divergences = {
            layer: _jsd(_softmax(final_row.tolist()), _softmax(v.tolist())) for layer, v in manual.items()
        }
        assert chosen == max(divergences, key=lambda k: divergences[k])
        expected = contrast(final_row, manual[chosen], 0.1)
        assert torch.allclose(scores[0], expected, atol=1e-5)


def test_generate_returns_final_layer_logprobs_and_chosen_layers(tiny_llama: object, torch: Any) -> None:
    model = tiny_llama
    ids = torch.tensor([[3, 7, 11, 5]])
    tokens, logprobs, picked = dola_generate(model, ids, layers=[0, 2], max_new_tokens=5)
    assert len(tokens) == len(logprobs) == len(picked) == 5 and set(picked) <= {0, 2}
    with torch.inference_mode():
        outputs = model(input_ids=ids, output_hidden_states=True)  # type: ignore[operator]
        scores, final, _ = dola_step(model, outputs, [0, 2], 0.1)
    assert tokens[0] == int(scores[0].argmax())
    assert logprobs[0] == pytest.approx(float(torch.log_softmax(final[0], -1)[tokens[0]]), abs=1e-5)
    with pytest.raises(ValueError, match="selects no layer"):
        dola_generate(model, ids, layers=[9], max_new_tokens=1)


def test_hf_backend_decodes_dola_requests_only_and_checks_its_options(
    tiny_hf_model: object, torch: Any
) -> None:
    """A request of the dola setting is decoded by our DoLa module, the others greedily as before."""
    import asyncio

    from halluforge.backends.base import ModelSpec
    from halluforge.backends.transformers import create
    from halluforge.errors import ConfigError
    from halluforge.records import Message, Request

    spec = ModelSpec.parse(f"hf/{tiny_hf_model}")
    backend = create(spec, {"dola_layers": [1]})
    ask = [Message(role="user", content="the sky")]
    dola = Request(id="d", messages=ask, max_tokens=6, logprobs=True, decoding="dola")
    plain = Request(id="p", messages=ask, max_tokens=6, logprobs=True)
    done, usual = asyncio.run(backend.generate([dola, plain]))
    assert done.error is None and done.token_logprobs is not None and done.tokens is not None
    assert len(done.tokens) == len(done.token_logprobs) == done.usage.completion_tokens
    model, tokenizer = backend._model, backend._tokenizer  # type: ignore[attr-defined]
    ids = tokenizer([backend._prompt(tokenizer, dola)], return_tensors="pt")["input_ids"]  # type: ignore[attr-defined]
    expected, _, _ = dola_generate(model, ids, layers=[1], max_new_tokens=6)
    assert done.tokens == [tokenizer.decode([t]) for t in expected][: len(done.tokens)]
    with torch.inference_mode():
        greedy = model.generate(ids, max_new_tokens=6, do_sample=False, pad_token_id=tokenizer.pad_token_id)
    assert (
        usual.text == tokenizer.decode(greedy[0, ids.shape[1] :], skip_special_tokens=True).split("<pad>")[0]
    )
    assert backend.output_fields()["dola"]["layers"] == [1]
    assert create(spec, {}).output_fields()["dola"]["layers"] == "high"
    with pytest.raises(ConfigError, match="trust_remote_code"):
        create(spec, {"dola_layers": "high", "dola_remote": True})
    with pytest.raises(ConfigError, match="'low', 'high'"):
        create(spec, {"dola_layers": "middle"})
