"""The transformers backend on a tiny GPT-2 built and saved by the test (no download)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from halluforge.backends.base import ModelSpec
from halluforge.backends.transformers import create, resolve_source, trim_at_stop
from halluforge.errors import ConfigError, ModelError
from halluforge.records import Message, Request

PROMPTS = ["the sky", "what is the capital", "paris is", "blue blue green", "the answer", "question"]


def _ask(text: str, **kw: Any) -> Request:
    return Request(
        id=text, messages=[Message(role="user", content=text)], max_tokens=kw.pop("max_tokens", 8), **kw
    )


@pytest.fixture(scope="module")
def backend(tiny_hf_model: Path) -> Any:
    return create(ModelSpec.parse(f"hf/{tiny_hf_model}"), {"batch_size": 4})


def test_trim_at_stop() -> None:
    assert trim_at_stop("abc\ndef", ["\n"]) == ("abc", True)
    assert trim_at_stop("abc STOP x END", ["END", "STOP"]) == ("abc ", True)
    assert trim_at_stop("abc", ["zz", ""]) == ("abc", False)


def test_resolve_source(tmp_path: Path) -> None:
    (tmp_path / "m").mkdir()
    gguf = tmp_path / "m" / "w.gguf"
    gguf.write_bytes(b"GGUF")
    assert resolve_source(str(tmp_path / "m")) == (str(tmp_path / "m"), None)
    assert resolve_source(str(gguf)) == (str(tmp_path / "m"), "w.gguf")
    assert resolve_source("org/repo/model.Q4.gguf") == ("org/repo", "model.Q4.gguf")
    assert resolve_source("org/model", "x.gguf") == ("org/model", "x.gguf")
    with pytest.raises(ModelError, match="not found"):
        resolve_source(str(tmp_path / "absent"))
    with pytest.raises(ModelError, match=r"absent\.gguf"):
        resolve_source(str(tmp_path / "absent.gguf"))


def test_missing_torch_or_transformers_says_which_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from halluforge.backends import transformers as module

    real = importlib.util.find_spec
    monkeypatch.setattr(
        module.importlib.util, "find_spec", lambda name, *a: None if name == "torch" else real(name, *a)
    )
    with pytest.raises(ModelError) as info:
        create(ModelSpec.parse("hf/org/model"), {})
    assert 'pip install "halluforge[hf]"' in str(info.value) and "CPU" in str(info.value)


def test_bad_options(tiny_hf_model: Path) -> None:
    spec = ModelSpec.parse(f"hf/{tiny_hf_model}")
    with pytest.raises(ConfigError, match="dtype"):
        create(spec, {"dtype": "float8"})
    with pytest.raises(ConfigError, match="batchsize"):
        create(spec, {"batchsize": 2})


def test_output_fields_track_weights_not_batching(tiny_hf_model: Path) -> None:
    spec = ModelSpec.parse(f"hf/{tiny_hf_model}")
    small = create(spec, {"batch_size": 1}).output_fields()
    large = create(spec, {"batch_size": 16, "timeout_s": 5}).output_fields()
    half = create(spec, {"dtype": "bfloat16"}).output_fields()
    assert small == large
    assert small != half
    assert small["weights_bytes"] > 0


@pytest.mark.slow
async def test_batched_outputs_are_in_order_and_match_single_calls(backend: Any) -> None:
    batch = await backend.generate([_ask(p) for p in PROMPTS])
    assert all(c.ok for c in batch), [c.error for c in batch]
    assert [c.request_id for c in batch] == PROMPTS
    singles = [(await backend.generate([_ask(p)]))[0] for p in PROMPTS]
    assert [c.text for c in batch] == [c.text for c in singles]
    assert len({c.text for c in batch}) > 1  # different prompts, different outputs
    assert backend.capabilities.max_context == 128


@pytest.mark.slow
async def test_greedy_is_deterministic_and_sampling_follows_the_seed(backend: Any) -> None:
    first = await backend.generate([_ask(p) for p in PROMPTS[:3]])
    second = await backend.generate([_ask(p) for p in PROMPTS[:3]])
    assert [c.text for c in first] == [c.text for c in second]
    a = await backend.generate([_ask("the sky", temperature=1.0, seed=1)])
    b = await backend.generate([_ask("the sky", temperature=1.0, seed=1)])
    c = await backend.generate([_ask("the sky", temperature=1.0, seed=2)])
    assert a[0].text == b[0].text
    assert a[0].text != c[0].text


@pytest.mark.slow
async def test_a_sample_does_not_depend_on_what_it_was_batched_with(backend: Any) -> None:
    # same decoding options, so the old code put them in one generate call sharing one stream
    alone = [(await backend.generate([_ask(p, temperature=1.0, seed=7, max_tokens=12)]))[0] for p in PROMPTS]
    together = await backend.generate([_ask(p, temperature=1.0, seed=7, max_tokens=12) for p in PROMPTS])
    assert [c.text for c in together] == [c.text for c in alone]


@pytest.mark.slow
async def test_stop_strings_are_trimmed_and_logprobs_line_up(backend: Any) -> None:
    full = (await backend.generate([_ask("the sky", max_tokens=12)]))[0]
    stop = full.text[4:6]
    cut = full.text.index(stop)
    stopped = (await backend.generate([_ask("the sky", max_tokens=12, stop=[stop], logprobs=True)]))[0]
    assert stopped.text == full.text[:cut]
    assert stopped.finish_reason == "stop"
    assert stopped.token_logprobs is not None
    assert len(stopped.token_logprobs) == stopped.usage.completion_tokens <= 12
    assert all(v <= 0.0 for v in stopped.token_logprobs)
    assert full.usage.completion_tokens == 12 and full.finish_reason == "length"


@pytest.mark.slow
async def test_max_new_tokens_caps_requests(tiny_hf_model: Path) -> None:
    capped = create(ModelSpec.parse(f"hf/{tiny_hf_model}"), {"max_new_tokens": 3})
    out = await capped.generate([_ask("the sky", max_tokens=50)])
    await capped.aclose()
    assert out[0].usage.completion_tokens == 3


@pytest.mark.slow
async def test_prompt_longer_than_the_model_is_a_context_length_completion(backend: Any) -> None:
    out = await backend.generate([_ask("the sky " * 100), _ask("the sky")])
    assert out[0].error_type == "ContextLengthError"
    assert out[1].ok


@pytest.mark.slow
async def test_missing_chat_template_falls_back_to_plain_text(tiny_hf_model: Path, tmp_path: Path) -> None:
    import json
    import shutil

    plain = tmp_path / "plain"
    shutil.copytree(tiny_hf_model, plain)
    for name in ("tokenizer_config.json",):
        config = json.loads((plain / name).read_text())
        config.pop("chat_template", None)
        (plain / name).write_text(json.dumps(config))
    (plain / "chat_template.jinja").unlink(missing_ok=True)
    backend = create(ModelSpec.parse(f"hf/{plain}"), {})
    out = await backend.generate([_ask("the sky")])
    await backend.aclose()
    assert out[0].ok and out[0].usage.prompt_tokens == len(backend_tokens(plain, "the sky"))


def backend_tokens(folder: Path, text: str) -> list[int]:
    from transformers import AutoTokenizer

    ids: list[int] = AutoTokenizer.from_pretrained(folder)(text, add_special_tokens=False)["input_ids"]
    return ids
