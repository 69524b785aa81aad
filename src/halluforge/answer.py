"""The answer stage: put test cases to target models under each prompt setting.

Every (test case, target model, setting) gets one response under a deterministic id, so a
resumed run sends only what is missing (failed responses are sent again). Requests stream
through :func:`halluforge.runner.run_requests` and are stored as they finish. Test cases that
failed a validity check are not answered unless ``answer.include_invalid`` is set; settings
that need a context are not used for test cases without one. Both are counted.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from halluforge.records import Completion, Message, Request, Response, TestCase, stable_id
from halluforge.runner import RunnerStats, run_requests
from halluforge.settings import Demo, applies, few_shot_pool, pick_demos, render

if TYPE_CHECKING:
    from halluforge.pipeline import Pipeline


def response_id(case_id: str, model: str, setting: str) -> str:
    """The one id a (test case, model, setting) response can have."""
    return stable_id("response", case_id, model, setting)


def to_response(request: Request, completion: Completion, case_id: str, model: str, setting: str) -> Response:
    """Tie a backend completion to its test case, model and setting."""
    return Response(
        id=request.id,
        test_case_id=case_id,
        model=model,
        setting=setting,
        prompt=request.messages[-1].content,
        text=completion.text.strip(),
        token_logprobs=completion.token_logprobs,
        usage=completion.usage,
        latency_s=completion.latency_s,
        error=completion.error,
        cached=completion.cached,
    )


class DemoPools:
    """Few-shot demonstration pools, built on first use."""

    def __init__(self, pipeline: Pipeline, cases: list[TestCase]) -> None:
        self.pipeline = pipeline
        self.cases = cases
        self._pools: dict[str, list[Demo]] = {}

    def get(self, setting: str, family: str) -> list[Demo]:
        config = self.pipeline.config.answer.few_shot
        adversarial = setting == "few_shot_adversarial" or config.demos == "adversarial"
        key = f"adversarial:{family}" if adversarial else "static"
        if key not in self._pools:
            same_family = [c for c in self.cases if c.family == family]
            self._pools[key] = few_shot_pool(config, adversarial, same_family)
        return self._pools[key]


async def answer_stage(pipeline: Pipeline) -> None:
    """Answer every valid test case with every target model under every applicable setting."""
    config = pipeline.config.answer
    store = pipeline.store
    all_cases = store.all(TestCase)
    cases = [c for c in all_cases if config.include_invalid or c.valid]
    not_applicable: Counter[str] = Counter()
    pools = DemoPools(pipeline, cases)
    done = store.ids(Response, include_failed=False)
    for target in pipeline.config.models.targets:
        backend = pipeline.backend(target)
        model = backend.name
        requests: list[Request] = []
        origin: dict[str, tuple[str, str]] = {}
        for case in cases:
            for setting in config.settings:
                if not applies(setting, case):
                    not_applicable[setting] += 1
                    continue
                rid = response_id(case.id, model, setting)
                if rid in done:
                    continue
                demos: list[Demo] = []
                if setting.startswith("few_shot"):
                    pool = pools.get(setting, case.family)
                    demos = pick_demos(pool, case, config.few_shot.k, pipeline.config.seed)
                prompt = render(setting, case, demos)
                requests.append(
                    Request(
                        id=rid,
                        messages=[Message(role="user", content=prompt)],
                        max_tokens=config.max_tokens,
                        temperature=config.temperature,
                        seed=pipeline.config.seed,
                    )
                )
                origin[rid] = (case.id, setting)
        stage = f"answer:{model}"
        total = len(requests)
        pipeline.progress.start(stage, total)

        def sink(
            results: list[tuple[Request, Completion]],
            model: str = model,
            origin: dict[str, tuple[str, str]] = origin,
        ) -> None:
            rows = []
            for request, completion in results:
                case_id, setting = origin[request.id]
                rows.append(to_response(request, completion, case_id, model, setting))
            store.put(rows)

        def hook(stats: RunnerStats, stage: str = stage) -> None:
            pipeline.progress.update(stage, stats.done, stats.cached, stats.failed)

        await run_requests(backend, requests, sink, progress=hook)
        pipeline.progress.finish(stage)
    pipeline.counts["test_cases_invalid_not_answered"] = len(all_cases) - len(cases)
    pipeline.counts["settings_not_applicable"] = dict(not_applicable)


__all__ = ["DemoPools", "answer_stage", "response_id", "to_response"]
