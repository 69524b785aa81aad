"""Every backend reads its options through one pydantic model: unknown keys and bad values are
config errors naming ``backends.<name>.<key>``, NaN and infinity are refused, and the defaults
are the ones the backends always used.
"""

from __future__ import annotations

import math

import pytest

from halluforge.backends.anthropic import AnthropicOptions
from halluforge.backends.base import BackendOptions, parse_options
from halluforge.backends.llama_cpp import LlamaCppOptions
from halluforge.backends.mock import MockBackend, MockOptions
from halluforge.backends.openai_compat import OpenAIOptions
from halluforge.backends.transformers import TransformersOptions
from halluforge.backends.vllm import VLLMOptions
from halluforge.errors import ConfigError

MODELS: dict[str, type[BackendOptions]] = {
    "anthropic": AnthropicOptions,
    "llamacpp": LlamaCppOptions,
    "mock": MockOptions,
    "openai": OpenAIOptions,
    "hf": TransformersOptions,
    "vllm": VLLMOptions,
}

#: one float option per backend, to check that NaN and infinity are refused where they are used
FLOATS = {
    "anthropic": "timeout_s",
    "llamacpp": "timeout_s",
    "mock": "delay_s",
    "openai": "timeout_s",
    "hf": "dola_relative_top",
    "vllm": "gpu_memory_utilization",
}


def test_every_registered_backend_has_a_model() -> None:
    from halluforge.backends import BACKENDS

    assert set(BACKENDS.names()) == set(MODELS)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_unknown_key_names_its_config_path(name: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_options(name, MODELS[name], {"no_such_option": 1})
    assert f"backends.{name}.no_such_option" in str(info.value)
    assert "accepts" in str(info.value)  # the hint lists what the backend does read


@pytest.mark.parametrize("name", sorted(MODELS))
@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_nan_and_infinity_are_refused(name: str, value: float) -> None:
    option = FLOATS[name]
    with pytest.raises(ConfigError, match=rf"backends\.{name}\.{option}"):
        parse_options(name, MODELS[name], {option: value})


def test_defaults_are_the_ones_the_backends_always_used() -> None:
    openai = OpenAIOptions()
    assert (openai.timeout_s, openai.api, openai.concurrency, openai.api_key_env) == (120.0, "chat", 16, None)
    assert openai.allow_insecure_http is False
    llama = LlamaCppOptions()
    assert (llama.n_ctx, llama.workers, llama.n_threads, llama.logits_all) == (2048, None, None, False)
    hf = TransformersOptions()
    assert (hf.batch_size, hf.dtype, hf.device, hf.dola_layers) == (8, "float32", "cpu", "high")
    assert (hf.dola_relative_top, hf.repetition_penalty, hf.dola_remote) == (0.1, 1.0, False)
    mock = MockOptions()
    assert (mock.batch_size, mock.delay_s, mock.fail_type, mock.default) == (
        8,
        0.0,
        "BackendUnavailableError",
        "",
    )


def test_values_of_the_wrong_kind_are_refused() -> None:
    with pytest.raises(ConfigError, match=r"backends\.openai\.api"):
        parse_options("openai", OpenAIOptions, {"api": "responses"})
    with pytest.raises(ConfigError, match=r"backends\.openai\.api_key_env"):
        parse_options("openai", OpenAIOptions, {"api_key_env": "  "})
    with pytest.raises(ConfigError, match=r"backends\.openai\.allow_insecure_http"):
        parse_options("openai", OpenAIOptions, {"allow_insecure_http": "yes"})  # only a real true opts in
    with pytest.raises(ConfigError, match=r"backends\.llamacpp\.n_ctx"):
        parse_options("llamacpp", LlamaCppOptions, {"n_ctx": "big"})
    with pytest.raises(ConfigError, match=r"backends\.llamacpp\.workers"):
        parse_options("llamacpp", LlamaCppOptions, {"workers": 0})
    with pytest.raises(ConfigError, match=r"backends\.hf\.dtype"):
        parse_options("hf", TransformersOptions, {"dtype": "float8"})
    with pytest.raises(ConfigError, match="'low', 'high'"):
        parse_options("hf", TransformersOptions, {"dola_layers": "middle"})
    with pytest.raises(ConfigError, match=r"backends\.mock\.delay_s"):
        parse_options("mock", MockOptions, {"delay_s": -1})


def test_the_mock_reads_its_script_through_the_model() -> None:
    from halluforge.backends.base import ModelSpec

    backend = MockBackend(ModelSpec.parse("mock/script"), {"script": [["cat", 7]], "default": "?"})
    assert backend._reply("a cat sat") == "7"
    assert backend._reply("a dog") == "?"
    with pytest.raises(ConfigError, match=r"backends\.mock\.script"):
        MockBackend(ModelSpec.parse("mock/script"), {"script": [["only one"]]})
