"""Settings registry, prompt rendering (choice options), answer plans and log-probability requests."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import ClassVar

import pytest

from halluforge.backends.base import Capabilities
from halluforge.config import load_config
from halluforge.errors import ConfigError, RegistryError
from halluforge.metrics import SCORERS, Scorer, ScoreValue
from halluforge.pipeline import open_context
from halluforge.records import Option, Response, TestCase
from halluforge.settings import SETTINGS, answer_turn, check_settings, render, setting
from halluforge.stages.answer import answer_stage


def case(**extra: object) -> TestCase:
    fields: dict[str, object] = {"id": "c1", "family": "answer_swap", "question": "Who wrote Hamlet?"}
    fields.update(extra)
    return TestCase.model_validate(fields)


def test_registry_knows_every_setting_and_suggests() -> None:
    assert SETTINGS.names() == [
        "closed_book",
        "dola",
        "few_shot",
        "few_shot_adversarial",
        "open_book",
        "opinion",
        "original_context",
        "self_trust",
    ]
    assert (
        setting("few_shot_adversarial").demos == "adversarial" and setting("few_shot").demos == "configured"
    )
    assert not setting("closed_book").needs_context and setting("opinion").needs_context
    with pytest.raises(ConfigError, match="did you mean 'open_book'"):
        check_settings(["open_bok"])
    with pytest.raises(RegistryError):
        setting("nope")


def test_qa_prompts_are_unchanged_and_choice_cases_get_lettered_options() -> None:
    plain = render("closed_book", case())
    assert plain.endswith("Question: Who wrote Hamlet?\nAnswer:")
    options = [Option(text="Shakespeare", role="correct"), Option(text="Marlowe", role="counterfactual")]
    choice = render("open_book", case(format="choice", options=options, context="Marlowe wrote it."))
    assert choice.endswith("Question: Who wrote Hamlet?\nOptions:\nA. Shakespeare\nB. Marlowe\nAnswer:")
    opinion = render("opinion", case(format="choice", options=options, context="x"))
    assert "in Bob's opinion?" in opinion and "\nA. Shakespeare\nB. Marlowe\nAnswer:" in opinion
    assert answer_turn("closed_book", case()).key == "" and answer_turn("closed_book", case()).after is None


class NeedsLogprobs(Scorer):
    name: ClassVar[str] = "test_needs_logprobs"
    needs_logprobs: ClassVar[bool] = True

    def score(self, case: TestCase, response: Response) -> ScoreValue:
        return ScoreValue(1.0)


@pytest.mark.parametrize("offered", [True, False])
def test_requests_ask_for_logprobs_when_a_scorer_needs_them_and_the_backend_offers(
    tmp_path: Path, offered: bool
) -> None:
    SCORERS.register(NeedsLogprobs.name, NeedsLogprobs)
    try:
        config = load_config(
            None,
            {
                "output_dir": str(tmp_path),
                "cache.enabled": False,
                "models.targets": ["mock/echo"],
                "families": {},
                "data": [{"loader": "bundled", "limit": 2, "test_cases": "answer_swap"}],
                "answer.settings": ["closed_book"],
                "score.metrics": [NeedsLogprobs.name],
            },
            environ={},
        )
        ctx = open_context(config)
        backend = ctx.models.get("mock/echo")
        inner = backend
        while hasattr(inner, "inner"):
            inner = inner.inner
        inner.capabilities = Capabilities(logprobs=offered)

        async def go() -> None:
            from halluforge.stages.load import load_stage

            await load_stage(ctx)
            await answer_stage(ctx)
            await ctx.models.aclose()

        asyncio.run(go())
        seen = inner.seen  # type: ignore[attr-defined]
        assert len(seen) == 2 and all(r.logprobs is offered for r in seen)
        ctx.store.close()
    finally:
        SCORERS.unregister(NeedsLogprobs.name)


def test_original_context_and_self_trust_render_the_right_context() -> None:
    from halluforge.records import Option, TestCase
    from halluforge.settings import render, setting

    case = TestCase(
        id="c",
        family="counterfactual",
        question="Who won?",
        context="Edited: Bob won.",
        original_context="Original: Ann won.",
        format="choice",
        options=[Option(text="Ann", role="correct"), Option(text="Bob", role="counterfactual")],
    )
    original = render("original_context", case)
    assert "Original: Ann won." in original and "Edited" not in original
    trusting = render("self_trust", case)
    assert "Edited: Bob won." in trusting and "trust your own knowledge" in trusting
    assert trusting.index("Options:") < trusting.rindex("Answer:")
    assert not setting("original_context").applies(case.model_copy(update={"original_context": None}))


def test_dola_setting_shows_the_edited_context_and_asks_for_dola_decoding() -> None:
    """The DoLa mitigation is a setting: the open-book prompt, plus a decoding the request carries."""
    from halluforge.records import Message, Request
    from halluforge.settings import render, setting

    edited = case(context="Edited: Bob wrote it.", original_context="Ann wrote it.")
    assert render("dola", edited) == render("open_book", edited)
    assert setting("dola").decoding == "dola" and setting("open_book").decoding is None
    ask = [Message(role="user", content="q")]
    # an ordinary request keeps the cache key it had before requests could carry a decoding
    assert "decoding" not in Request(messages=ask).output_key()
    assert Request(messages=ask, decoding="dola").output_key() != Request(messages=ask).output_key()
