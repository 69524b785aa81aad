"""Prompt settings: how a test case is put to a target model.

- ``closed_book``: the question alone; the model answers from memory.
- ``open_book``: the question with the test case's context (ReEval's zero-shot open-book prompt).
- ``few_shot``: open-book with k context-question-answer demonstrations before the case.
  ``few_shot.demos`` picks them: ``bundled`` (our demos file), a JSONL path of examples, or
  ``adversarial`` (other forged test cases of the same family, with their new answers, as in
  AutoDebug §3.4 / Table 6).
- ``opinion``: the context framed as someone's statement and the question asked about that
  person's view, the context-faithful prompt of Zhou et al. (2023) that ReEval calls the
  "faithful prompt".

Settings other than ``closed_book`` need a context; a test case without one (e.g. an INVITE
false-premise question) is put only under ``closed_book``.
"""

from __future__ import annotations

import difflib
import random
from collections.abc import Sequence
from dataclasses import dataclass

from halluforge.config import FewShotConfig
from halluforge.errors import ConfigError
from halluforge.prompts import Template, load_template
from halluforge.records import Example, TestCase, stable_id

SETTINGS = ("closed_book", "open_book", "few_shot", "opinion", "few_shot_adversarial")
NEEDS_CONTEXT = frozenset({"open_book", "few_shot", "opinion", "few_shot_adversarial"})


@dataclass(frozen=True)
class Demo:
    """One few-shot demonstration."""

    context: str
    question: str
    answer: str


def check_settings(names: Sequence[str]) -> None:
    """Reject unknown setting names with a suggestion."""
    for name in names:
        if name not in SETTINGS:
            close = difflib.get_close_matches(name, SETTINGS, n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"choose from {', '.join(SETTINGS)}"
            raise ConfigError(f"unknown setting {name!r} in answer.settings", hint=hint)


def applies(setting: str, case: TestCase) -> bool:
    """Whether a setting can be used for a test case (context-based ones need a context)."""
    return setting not in NEEDS_CONTEXT or bool(case.context)


def template_for(setting: str) -> Template:
    """The template file behind a setting."""
    name = "few_shot" if setting.startswith("few_shot") else setting
    return load_template(f"settings/{name}")


def question_stem(question: str) -> str:
    """The question without its trailing question mark (for the opinion framing)."""
    return question.strip().rstrip("?").rstrip()


def demos_from_examples(examples: Sequence[Example]) -> list[Demo]:
    """Demonstrations from examples that have evidence."""
    return [
        Demo(context=e.evidence, question=e.question, answer=e.answers[0])
        for e in examples
        if e.evidence and e.answers
    ]


def demos_from_cases(cases: Sequence[TestCase]) -> list[Demo]:
    """Adversarial demonstrations: forged test cases with their expected (new) answers."""
    return [
        Demo(context=c.context, question=c.question, answer=c.expected[0])
        for c in cases
        if c.context and c.expected
    ]


def pick_demos(pool: Sequence[Demo], case: TestCase, k: int, seed: int) -> list[Demo]:
    """K demos for one case, never the case's own question, deterministic per case."""
    candidates = [d for d in pool if d.question != case.question]
    rng = random.Random(stable_id("demos", seed, case.id))
    return rng.sample(candidates, min(k, len(candidates)))


def render(setting: str, case: TestCase, demos: Sequence[Demo] = ()) -> str:
    """The prompt text for one test case under one setting."""
    template = template_for(setting)
    if setting == "closed_book":
        return template.render(question=case.question)
    if setting == "opinion":
        return template.render(context=case.context, question_stem=question_stem(case.question))
    if setting.startswith("few_shot"):
        demo_template = load_template("settings/few_shot_demo")
        block = "\n\n".join(
            demo_template.render(context=d.context, question=d.question, answer=d.answer) for d in demos
        )
        return template.render(demos=block, context=case.context, question=case.question)
    return template.render(context=case.context, question=case.question)


def few_shot_pool(config: FewShotConfig, adversarial: bool, cases: Sequence[TestCase]) -> list[Demo]:
    """The demonstration pool for few-shot settings."""
    if adversarial or config.demos == "adversarial":
        return demos_from_cases(cases)
    if config.demos == "bundled":
        from halluforge.data.bundled import load_demos

        return demos_from_examples(load_demos())
    from halluforge.config import DataSource
    from halluforge.data import LOADERS

    loader = LOADERS.get("jsonl")
    return demos_from_examples(list(loader(DataSource(loader="jsonl", path=config.demos))))


__all__ = [
    "NEEDS_CONTEXT",
    "SETTINGS",
    "Demo",
    "applies",
    "check_settings",
    "few_shot_pool",
    "pick_demos",
    "question_stem",
    "render",
    "template_for",
]
