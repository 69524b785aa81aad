"""The wrappers around every backend: cache keys, retries with backoff, concurrency, batching."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from extra_skips import require
from halluforge.backends import open_backend
from halluforge.backends import wrappers as wrappers_module
from halluforge.backends.base import Backend, Capabilities, ModelSpec
from halluforge.backends.cache import ResponseCache
from halluforge.backends.mock import MockBackend
from halluforge.backends.wrappers import CachedBackend, LimitedBackend, RetryingBackend
from halluforge.errors import ConfigError
from halluforge.records import Completion, Message, Request


def _request(text: str, **kw: Any) -> Request:
    return Request(id=f"id-{text}", messages=[Message(role="user", content=text)], **kw)


class ScriptedBackend(Backend):
    """Fails each prompt with ``failures[prompt]`` error types, in order, then answers it."""

    def __init__(
        self,
        failures: dict[str, list[str]] | None = None,
        *,
        batch_size: int = 1,
        concurrency: int = 1,
        delay_s: float = 0.0,
        engine: dict[str, Any] | None = None,
        retry_after_s: dict[str, float] | None = None,
    ) -> None:
        self.spec = ModelSpec("scripted", "m")
        self.retry_after_s = retry_after_s or {}
        self.capabilities = Capabilities(batch_size=batch_size, concurrency=concurrency)
        self.failures = {k: list(v) for k, v in (failures or {}).items()}
        self.delay_s = delay_s
        self.engine = engine or {}
        self.calls: list[list[str]] = []
        self.in_flight = 0
        self.max_in_flight = 0

    def output_fields(self) -> dict[str, Any]:
        return dict(self.engine)

    async def generate(self, requests: Sequence[Request]) -> list[Completion]:
        self.calls.append([r.messages[-1].content for r in requests])
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.delay_s:
                await asyncio.sleep(self.delay_s)
            out = []
            for request in requests:
                prompt = request.messages[-1].content
                pending = self.failures.get(prompt)
                if pending:
                    kind = pending.pop(0)
                    out.append(
                        Completion(
                            request_id=request.id,
                            error=f"scripted {kind}",
                            error_type=kind,
                            retry_after_s=self.retry_after_s.get(prompt),
                        )
                    )
                else:
                    out.append(Completion(request_id=request.id, text=f"answer to {prompt}"))
            return out
        finally:
            self.in_flight -= 1


@pytest.fixture
def cache(tmp_path: Path) -> ResponseCache:
    return ResponseCache(tmp_path / "cache.sqlite")


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Record the retry wrapper's backoff sleeps instead of waiting."""
    recorded: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        recorded.append(seconds)

    monkeypatch.setattr(wrappers_module.asyncio, "sleep", fake_sleep)
    return recorded


# -- cache -------------------------------------------------------------------------------------


async def test_cache_hit_is_flagged_and_skips_the_backend(cache: ResponseCache) -> None:
    inner = ScriptedBackend()
    backend = CachedBackend(inner, cache)
    first = await backend.generate([_request("a")])
    again = await backend.generate([Request(id="other-id", messages=[Message(role="user", content="a")])])
    assert first[0].cached is False
    assert again[0].cached is True
    assert again[0].request_id == "other-id"
    assert again[0].text == first[0].text == "answer to a"
    assert len(inner.calls) == 1


@pytest.mark.parametrize(
    "change",
    [{"max_tokens": 5}, {"stop": ["\n"]}, {"seed": 7}, {"top_p": 0.5}, {"logprobs": True}],
)
async def test_cache_key_changes_with_request_fields_that_change_outputs(
    cache: ResponseCache, change: dict[str, Any]
) -> None:
    inner = ScriptedBackend()
    backend = CachedBackend(inner, cache)
    await backend.generate([_request("a")])
    out = await backend.generate([_request("a", **change)])
    assert out[0].cached is False
    assert len(inner.calls) == 2


async def test_cache_key_changes_with_engine_fields(cache: ResponseCache) -> None:
    await CachedBackend(ScriptedBackend(engine={"n_ctx": 512}), cache).generate([_request("a")])
    other = ScriptedBackend(engine={"n_ctx": 1024})
    out = await CachedBackend(other, cache).generate([_request("a")])
    assert out[0].cached is False and len(other.calls) == 1
    same = ScriptedBackend(engine={"n_ctx": 512})
    out = await CachedBackend(same, cache).generate([_request("a")])
    assert out[0].cached is True and same.calls == []


async def test_cache_key_ignores_timeouts_retries_and_concurrency(cache: ResponseCache) -> None:
    first = open_backend("mock/echo", {"retries": 1, "backoff_s": 0.1, "concurrency": 1}, cache)
    second = open_backend("mock/echo", {"retries": 5, "backoff_s": 2.0, "concurrency": 9}, cache)
    await first.generate([_request("hello")])
    out = await second.generate([_request("hello")])
    assert out[0].cached is True


def test_openai_output_fields_ignore_timeout_but_not_server(monkeypatch: pytest.MonkeyPatch) -> None:
    require("openai", "openai")
    from halluforge.backends.openai_compat import create

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    spec = ModelSpec.parse("openai@http://127.0.0.1:9/v1/m")
    quick = create(spec, {"timeout_s": 1}).output_fields()
    slow = create(spec, {"timeout_s": 600, "concurrency": 2}).output_fields()
    elsewhere = create(ModelSpec.parse("openai@http://127.0.0.1:10/v1/m"), {}).output_fields()
    assert quick == slow
    assert quick != elsewhere


async def test_a_sample_is_cached_under_its_seed(cache: ResponseCache) -> None:
    inner = ScriptedBackend()
    backend = CachedBackend(inner, cache)
    sampled = _request("a", temperature=0.7).model_copy(update={"seed": 1})
    await backend.generate([sampled])
    again = await backend.generate([sampled])
    assert again[0].cached is True and len(inner.calls) == 1
    # another seed, temperature or top_p is another sample
    for change in ({"seed": 2}, {"temperature": 0.9}, {"top_p": 0.5}):
        out = await backend.generate([sampled.model_copy(update=change)])
        assert out[0].cached is False
    assert len(inner.calls) == 4


async def test_errors_are_never_cached(cache: ResponseCache) -> None:
    inner = ScriptedBackend({"a": ["BackendUnavailableError"]})
    backend = CachedBackend(inner, cache)
    failed = await backend.generate([_request("a")])
    assert failed[0].error_type == "BackendUnavailableError"
    assert len(cache) == 0
    recovered = await backend.generate([_request("a")])
    assert recovered[0].ok and recovered[0].cached is False
    assert len(inner.calls) == 2
    assert len(cache) == 1


async def test_cache_serves_hits_and_sends_only_misses(cache: ResponseCache) -> None:
    inner = ScriptedBackend(batch_size=8)
    backend = CachedBackend(inner, cache)
    await backend.generate([_request("a"), _request("c")])
    out = await backend.generate([_request("a"), _request("b"), _request("c")])
    assert [c.text for c in out] == ["answer to a", "answer to b", "answer to c"]
    assert [c.cached for c in out] == [True, False, True]
    assert inner.calls[-1] == ["b"]


# -- retries -----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["RateLimitedError", "BackendUnavailableError", "BackendTimeoutError"])
async def test_retry_recovers_from_transient_failures(sleeps: list[float], kind: str) -> None:
    inner = ScriptedBackend({"a": [kind, kind]})
    backend = RetryingBackend(inner, retries=3, backoff_s=0.5)
    out = await backend.generate([_request("a"), _request("b")])
    assert [c.ok for c in out] == [True, True]
    assert out[0].text == "answer to a"
    assert inner.calls == [["a", "b"], ["a"], ["a"]]  # only the failed request is sent again
    assert len(sleeps) == 2
    # full jitter under an exponential ceiling: 0.5 then 1.0
    assert 0 <= sleeps[0] <= 0.5 and 0 <= sleeps[1] <= 1.0


async def test_retry_gives_up_after_n_attempts(sleeps: list[float]) -> None:
    inner = ScriptedBackend({"a": ["RateLimitedError"] * 10})
    backend = RetryingBackend(inner, retries=2, backoff_s=0.1)
    out = await backend.generate([_request("a")])
    assert out[0].error_type == "RateLimitedError"
    assert len(inner.calls) == 3
    assert len(sleeps) == 2


async def test_non_retryable_errors_are_not_retried(sleeps: list[float]) -> None:
    inner = ScriptedBackend({"a": ["ContextLengthError"], "b": ["BackendError"]})
    backend = RetryingBackend(inner, retries=3)
    out = await backend.generate([_request("a"), _request("b")])
    assert [c.error_type for c in out] == ["ContextLengthError", "BackendError"]
    assert len(inner.calls) == 1
    assert sleeps == []


async def test_backoff_ceiling_is_capped(sleeps: list[float]) -> None:
    inner = ScriptedBackend({"a": ["RateLimitedError"] * 6})
    backend = RetryingBackend(inner, retries=6, backoff_s=1.0, max_backoff_s=2.0)
    await backend.generate([_request("a")])
    assert len(sleeps) == 6
    assert max(sleeps) <= 2.0


async def test_retry_waits_at_least_what_the_server_asked(sleeps: list[float]) -> None:
    inner = ScriptedBackend(
        {"a": ["RateLimitedError"], "b": ["BackendUnavailableError"]}, retry_after_s={"a": 3.0, "b": 7.5}
    )
    backend = RetryingBackend(inner, retries=3, backoff_s=0.1)
    out = await backend.generate([_request("a"), _request("b"), _request("c")])
    assert [c.ok for c in out] == [True, True, True]
    assert sleeps == [7.5]  # one wait for the batch: the longest asked, not the 0.1 s backoff


async def test_retry_after_is_capped(sleeps: list[float]) -> None:
    inner = ScriptedBackend({"a": ["RateLimitedError"] * 2}, retry_after_s={"a": 3600.0})
    backend = RetryingBackend(inner, retries=3, backoff_s=0.1, max_retry_after_s=20.0)
    out = await backend.generate([_request("a")])
    assert out[0].ok
    assert sleeps == [20.0, 20.0]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("max_retry_after_s", "soon"),
        ("max_retry_after_s", -1),
        ("backoff_s", None),
        ("retries", 1.5),
        ("retries", True),
        ("concurrency", 0),
        ("concurrency", "four"),
    ],
)
def test_bad_wrapper_options_name_the_option(name: str, value: Any) -> None:
    with pytest.raises(ConfigError, match=f"backends.mock.{name}"):
        open_backend("mock/echo", {name: value})


async def test_open_backend_passes_the_retry_after_cap(sleeps: list[float]) -> None:
    backend = open_backend("mock/echo", {"max_retry_after_s": 5})
    retrying = backend
    while not isinstance(retrying, RetryingBackend):
        assert isinstance(retrying, LimitedBackend | CachedBackend)
        retrying = retrying.inner
    assert retrying.max_retry_after_s == 5.0


# -- limits and batching -----------------------------------------------------------------------


async def test_concurrency_limit_is_never_exceeded() -> None:
    inner = ScriptedBackend(batch_size=1, concurrency=100, delay_s=0.01)
    backend = LimitedBackend(inner, concurrency=3)
    out = await backend.generate([_request(str(i)) for i in range(20)])
    assert [c.text for c in out] == [f"answer to {i}" for i in range(20)]
    assert inner.max_in_flight == 3


async def test_concurrency_defaults_to_the_backend_capability() -> None:
    inner = ScriptedBackend(batch_size=1, concurrency=2, delay_s=0.01)
    backend = LimitedBackend(inner)
    await backend.generate([_request(str(i)) for i in range(8)])
    assert inner.max_in_flight == 2


async def test_lists_are_split_into_engine_batches_in_order() -> None:
    inner = ScriptedBackend(batch_size=4, concurrency=1)
    backend = LimitedBackend(inner)
    prompts = [str(i) for i in range(10)]
    out = await backend.generate([_request(p) for p in prompts])
    assert [len(batch) for batch in inner.calls] == [4, 4, 2]
    assert [c.request_id for c in out] == [f"id-{p}" for p in prompts]


async def test_full_stack_cache_retry_limit(cache: ResponseCache, sleeps: list[float]) -> None:
    """open_backend's stack: a flaky request is retried, then served from the cache."""
    backend = open_backend("mock/script", {"script": [["q", "A"]], "retries": 2}, cache)
    raw = backend.inner.inner.inner  # type: ignore[attr-defined]
    assert isinstance(raw, MockBackend)
    first = await backend.generate([_request("q1"), _request("q2")])
    second = await backend.generate([_request("q1"), _request("q2")])
    assert [c.text for c in first] == ["A", "A"]
    assert all(c.cached for c in second)
    assert raw.calls == 2


async def test_runner_hands_over_cached_completions_before_sending_the_rest(cache: ResponseCache) -> None:
    from halluforge.runner import run_requests

    inner = ScriptedBackend(batch_size=2)
    backend = LimitedBackend(inner)  # the wrappers pass ``known`` through to the cache below them
    cached = CachedBackend(backend, cache)
    await cached.generate([_request("a"), _request("c")])
    inner.calls.clear()
    groups: list[list[tuple[str, bool]]] = []
    requests = [_request(t) for t in "abcd"]
    stats = await run_requests(
        cached, requests, lambda done: groups.append([(r.id, c.cached) for r, c in done])
    )
    assert groups[0] == [("id-a", True), ("id-c", True)]  # known first, in request order, one group
    assert sorted(p for call in inner.calls for p in call) == ["b", "d"]  # only the misses were sent
    assert sorted(i for g in groups for i, _ in g) == ["id-a", "id-b", "id-c", "id-d"]
    assert (stats.total, stats.done, stats.cached) == (4, 4, 2)


async def test_runner_with_everything_cached_sends_nothing(cache: ResponseCache) -> None:
    from halluforge.runner import run_requests

    inner = ScriptedBackend(batch_size=2)
    cached = CachedBackend(inner, cache)
    await cached.generate([_request("a"), _request("b")])
    inner.calls.clear()
    seen: list[str] = []
    stats = await run_requests(
        cached, [_request("b"), _request("a")], lambda d: seen.extend(r.id for r, _ in d)
    )
    assert inner.calls == []
    assert seen == ["id-b", "id-a"]
    assert stats.cached == 2


async def test_the_same_request_twice_gets_two_cached_completions(cache: ResponseCache) -> None:
    backend = CachedBackend(ScriptedBackend(), cache)
    await backend.generate([_request("a")])
    twice = [_request("a"), Request(id="other", messages=[Message(role="user", content="a")])]
    out = await backend.generate(twice)
    assert [(c.request_id, c.cached, c.text) for c in out] == [
        ("id-a", True, "answer to a"),
        ("other", True, "answer to a"),
    ]
    assert out[0] is not out[1]


class CountingBackend(ScriptedBackend):
    """Answers each call with a new numbered text, like an engine whose output moves with its batch."""

    async def generate(self, requests: Sequence[Request]) -> list[Completion]:
        self.calls.append([r.messages[-1].content for r in requests])
        await asyncio.sleep(0.01)
        return [
            Completion(request_id=r.id, text=f"answer {len(self.calls)}.{i}") for i, r in enumerate(requests)
        ]


def _same(prompt: str, rid: str) -> Request:
    return Request(id=rid, messages=[Message(role="user", content=prompt)])


async def test_the_same_request_in_one_batch_is_computed_once(cache: ResponseCache) -> None:
    inner = CountingBackend()
    out = await CachedBackend(inner, cache).generate([_same("q", "a"), _same("r", "b"), _same("q", "c")])
    assert inner.calls == [["q", "r"]]
    assert [(c.request_id, c.text, c.cached) for c in out] == [
        ("a", "answer 1.0", False),
        ("b", "answer 1.1", False),
        ("c", "answer 1.0", True),
    ]


async def test_the_same_request_in_two_batches_in_flight_gets_one_answer(cache: ResponseCache) -> None:
    inner = CountingBackend()
    backend = CachedBackend(inner, cache)
    first, second = await asyncio.gather(
        backend.generate([_same("q", "a")]), backend.generate([_same("q", "b"), _same("s", "c")])
    )
    assert sorted(inner.calls) == [["q"], ["s"]]  # "q" was sent once, though two calls asked for it
    assert first[0].text == second[0].text
    assert (second[0].request_id, second[0].cached) == ("b", True)
    # and the cache holds that same answer, so a re-run reproduces the run's figures
    again = await backend.generate([_same("q", "d")])
    assert again[0].text == first[0].text and again[0].cached


async def test_a_failed_first_copy_is_handed_to_its_twin_and_not_cached(cache: ResponseCache) -> None:
    inner = ScriptedBackend({"q": ["BackendTimeoutError"]})
    out = await CachedBackend(inner, cache).generate([_same("q", "a"), _same("q", "b")])
    assert [c.error_type for c in out] == ["BackendTimeoutError", "BackendTimeoutError"]
    assert inner.calls == [["q"]]
    assert cache.get_many([]) == {}
