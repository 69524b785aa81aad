"""Seed-case selection: sort examples into AutoDebug's Table 1 status buckets.

The generator model answers every example zero-shot, closed-book (question only) and
open-book (question and evidence). Each answer is judged correct by exact match or by hit
(the normalised gold answer contained in the output; ``seed_cases.is_correct``). The two outcomes
give the four buckets (closed right/wrong × open right/wrong); each family consumes the
buckets its options name (``answer_swap``: open-book right; ``context_enrich``: closed-book
wrong and open-book right).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from halluforge.backends.base import Backend
from halluforge.config import SelectConfig
from halluforge.executor import Executor, LocalExecutor
from halluforge.metrics.match import is_exact
from halluforge.prompts import load_template
from halluforge.records import Completion, Example, Message, Request, SeedCase, stable_id
from halluforge.runner import ProgressHook
from halluforge.textkit.answers import contains_answer

SELECT_TEMPLATES = ("select/closed_book", "select/open_book")


def is_correct(output: str, answers: Sequence[str], match: str) -> bool:
    """Correctness of one output against gold answers by ``em`` or ``hit``, read as their scorers read it.

    ``em`` strips answer lead-ins ("Answer:", "The answer is") like the ``em`` scorer, so a
    seed's bucket and its score agree.
    """
    if match == "em":
        return is_exact(output, tuple(answers))
    return any(contains_answer(output, a) for a in answers)


def _request(kind: str, example: Example, config: SelectConfig, seed: int) -> Request:
    template = load_template(f"select/{kind}")
    if kind == "closed_book":
        prompt = template.render(question=example.question)
    else:
        prompt = template.render(question=example.question, context=example.evidence or "")
    return Request(
        id=f"{example.id}:{kind}",
        messages=[Message(role="user", content=prompt)],
        max_tokens=config.max_tokens,
        temperature=0.0,
        seed=seed,
    )


def seed_case_id(example: Example, generator: str, config: SelectConfig) -> str:
    """Deterministic id of the seed case for one example under one generator model."""
    hashes = [load_template(n).sha256 for n in SELECT_TEMPLATES]
    return stable_id("seed", example.id, generator, config.match, config.max_tokens, hashes)


async def select_seed_cases(
    examples: Sequence[Example],
    generator: Backend,
    config: SelectConfig,
    *,
    seed: int,
    sink: Callable[[list[SeedCase]], object],
    executor: Executor | None = None,
    progress: ProgressHook | None = None,
) -> None:
    """Answer each example closed- and open-book and hand seed cases to ``sink`` as they finish."""
    requests = [_request(kind, e, config, seed) for e in examples for kind in ("closed_book", "open_book")]
    by_id = {e.id: e for e in examples}
    partial: dict[str, dict[str, Completion]] = {}

    def collect(results: list[tuple[Request, Completion]]) -> None:
        finished: list[SeedCase] = []
        for request, completion in results:
            example_id, _, kind = request.id.rpartition(":")
            slot = partial.setdefault(example_id, {})
            slot[kind] = completion
            if len(slot) == 2:
                finished.append(_seed_case(by_id[example_id], slot, generator.name, config))
                del partial[example_id]
        if finished:
            sink(finished)

    await (executor or LocalExecutor()).generate(generator, requests, collect, progress=progress)


def _seed_case(
    example: Example, slot: dict[str, Completion], generator: str, config: SelectConfig
) -> SeedCase:
    closed, opened = slot["closed_book"], slot["open_book"]
    errors = [c.error for c in (closed, opened) if c.error]
    return SeedCase(
        id=seed_case_id(example, generator, config),
        example=example,
        generator_model=generator,
        closed_book_answer=closed.text if closed.ok else None,
        open_book_answer=opened.text if opened.ok else None,
        closed_book_correct=is_correct(closed.text, example.answers, config.match) if closed.ok else None,
        open_book_correct=is_correct(opened.text, example.answers, config.match) if opened.ok else None,
        error="; ".join(e for e in errors if e) or None,
    )


__all__ = ["SELECT_TEMPLATES", "is_correct", "seed_case_id", "select_seed_cases"]
