"""Prompt settings: how a test case is put to a target model (its first turn).

A :class:`Setting` is one registered way of asking (:data:`SETTINGS`):

- ``closed_book``: the question alone; the model answers from memory.
- ``open_book``: the question with the test case's context (ReEval's zero-shot open-book prompt).
- ``few_shot``: open-book with k context-question-answer demonstrations before the case.
  ``few_shot.demos`` picks them: ``bundled`` (our demos file), a JSONL path of examples, or
  ``adversarial`` (other forged test cases of the same family, with their new answers, as in
  AutoDebug §3.4 / Table 6).
- ``few_shot_adversarial``: few-shot with adversarial demonstrations whatever ``few_shot.demos`` says.
- ``opinion``: the context framed as someone's statement and the question asked about that
  person's view, the context-faithful prompt of Zhou et al. (2023) that ReEval calls the
  "faithful prompt".
- ``original_context``: open-book with the test case's *original* context (before the family
  edited it), RECALL's "original" setting.
- ``self_trust``: open-book with an instruction at the end to trust one's own knowledge when
  the context contradicts it, RECALL's prompt mitigation (§4.1; our wording).
- ``dola``: open-book decoded with DoLa (Chuang et al. 2023), RECALL's decoding mitigation
  (§4.2). It is the only setting with a ``decoding``: its requests ask the backend to contrast
  the final layer with an early one, which needs the model's hidden states, so only the
  backends in :data:`halluforge.backends.DECODINGS` take it (``hf``); a run that puts it to any
  other target is refused before it starts.

Settings that need a context are not used for a test case without one (e.g. an INVITE
false-premise question). A ``choice`` test case gets its options lettered after the question.

A setting renders the first turn of an **answer plan** (:mod:`halluforge.plans`); a family may
extend the plan with later turns.
"""

from __future__ import annotations

import difflib
import random
import string
from collections.abc import Sequence
from dataclasses import dataclass

from halluforge.config import FewShotConfig
from halluforge.errors import ConfigError
from halluforge.plans import Turn
from halluforge.prompts import Template, load_template
from halluforge.records import Example, TestCase, stable_id
from halluforge.registry import Registry

ZERO_SHOT, FEW_SHOT = "Zero-shot", "Few-shot"


@dataclass(frozen=True)
class Setting:
    """One way of putting a test case to a model.

    ``method`` and ``block`` place the setting in paper-shaped tables (ReEval Table 1: a
    method row in a Zero-shot or a Few-shot column block). ``demos`` is ``"none"``,
    ``"configured"`` (``answer.few_shot.demos``) or ``"adversarial"``.
    """

    name: str
    template: str
    needs_context: bool
    method: str
    block: str = ZERO_SHOT
    demos: str = "none"
    description: str = ""
    #: where the method row sits in paper-shaped tables (lower first)
    rank: int = 100
    #: which field of the test case is shown as the context: ``context`` (the edited one, for
    #: a perturbed family) or ``original_context``
    context_field: str = "context"
    #: a decoding method the backend must use for this setting's requests (``"dola"``), or None
    decoding: str | None = None

    def context_of(self, case: TestCase) -> str | None:
        """The context this setting shows for a test case."""
        found = getattr(case, self.context_field)
        return str(found) if found else None

    def applies(self, case: TestCase) -> bool:
        """Whether this setting can be used for a test case (context-based ones need a context)."""
        return not self.needs_context or bool(self.context_of(case))

    def templates(self) -> list[Template]:
        """Every template the setting renders (hashed into the manifest)."""
        names = [self.template] + (["settings/few_shot_demo"] if self.demos != "none" else [])
        return [load_template(name) for name in names]


SETTINGS: Registry[Setting] = Registry("settings")
for _setting in (
    Setting("closed_book", "settings/closed_book", False, "Closed-book", description="question only", rank=0),
    Setting("open_book", "settings/open_book", True, "Open-book", description="question and context", rank=1),
    Setting(
        "opinion", "settings/opinion", True, "Faithful prompt", description="context as Bob's view", rank=2
    ),
    Setting(
        "few_shot", "settings/few_shot", True, "Open-book", FEW_SHOT, "configured", "k demos, open-book", 1
    ),
    Setting(
        "few_shot_adversarial",
        "settings/few_shot",
        True,
        "Open-book, adversarial demos",
        FEW_SHOT,
        "adversarial",
        "k forged cases of the same family as demos",
        3,
    ),
    Setting(
        "original_context",
        "settings/open_book",
        True,
        "Original context",
        description="question and the context before editing",
        rank=4,
        context_field="original_context",
    ),
    Setting(
        "self_trust",
        "settings/self_trust",
        True,
        "Trust-yourself prompt",
        description="context plus an instruction to trust one's own knowledge",
        rank=5,
    ),
    Setting(
        "dola",
        "settings/open_book",
        True,
        "DoLa",
        description="question and context, decoded with DoLa (hf targets only)",
        rank=6,
        decoding="dola",
    ),
):
    SETTINGS.register(_setting.name, _setting)


@dataclass(frozen=True)
class Demo:
    """One few-shot demonstration."""

    context: str
    question: str
    answer: str


def setting(name: str) -> Setting:
    """The registered setting called ``name`` (unknown names get a "did you mean")."""
    return SETTINGS.get(name)


def check_settings(names: Sequence[str]) -> None:
    """Reject unknown setting names with a suggestion."""
    known = SETTINGS.names()
    for name in names:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"choose from {', '.join(known)}"
            raise ConfigError(f"unknown setting {name!r} in answer.settings", hint=hint)


def question_stem(question: str) -> str:
    """The question without its trailing question mark (for the opinion framing)."""
    return question.strip().rstrip("?").rstrip()


def option_letter(index: int) -> str:
    """A, B, C, ... for the options of a choice test case."""
    return string.ascii_uppercase[index]


def with_options(prompt: str, case: TestCase) -> str:
    """A ``choice`` case's lettered options inserted before the prompt's closing ``Answer:`` line.

    Other formats are returned unchanged, so the prompts of ``qa`` cases never move.
    """
    if case.format != "choice" or not case.options:
        return prompt
    block = "Options:\n" + "\n".join(f"{option_letter(i)}. {o.text}" for i, o in enumerate(case.options))
    head, _, last = prompt.rpartition("\n")
    if head and last.strip().lower().startswith("answer"):
        return f"{head}\n{block}\n{last}"
    return f"{prompt}\n{block}"


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


def render(name: str, case: TestCase, demos: Sequence[Demo] = ()) -> str:
    """The prompt text for one test case under one setting."""
    spec = setting(name)
    template = load_template(spec.template)
    if not spec.needs_context:
        prompt = template.render(question=case.question)
    elif spec.name == "opinion":
        prompt = template.render(context=case.context, question_stem=question_stem(case.question))
    elif spec.demos != "none":
        demo_template = load_template("settings/few_shot_demo")
        block = "\n\n".join(
            demo_template.render(context=d.context, question=d.question, answer=d.answer) for d in demos
        )
        prompt = template.render(demos=block, context=case.context, question=case.question)
    else:
        prompt = template.render(context=spec.context_of(case), question=case.question)
    return with_options(prompt, case)


def answer_turn(name: str, case: TestCase, demos: Sequence[Demo] = ()) -> Turn:
    """The first (answering) turn of a setting's plan."""
    return Turn(prompt=render(name, case, demos))


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
    "FEW_SHOT",
    "SETTINGS",
    "ZERO_SHOT",
    "Demo",
    "Setting",
    "answer_turn",
    "check_settings",
    "few_shot_pool",
    "option_letter",
    "pick_demos",
    "question_stem",
    "render",
    "setting",
    "with_options",
]
