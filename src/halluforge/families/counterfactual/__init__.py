"""The ``counterfactual`` family (RECALL, Liu et al. 2023): contexts with counterfactual facts.

The generator (:mod:`halluforge.families.counterfactual.generator`) forges three variants per input: QA-A
(the answer in the context is replaced), QA-NA (only facts around the answer are changed) and
text generation (a paragraph or definition written from an edited source). The ``rgb`` loader
yields ready-made QA-A cases from RGB's counterfactual file.

**Direction.** A correct response **keeps the true answer**: it picks the option with role
``correct`` even though the edited context states the other one. Following the edited context
is the mistake, the opposite of ``answer_swap``, where the same kind of edited evidence has the
swapped-in answer as the expected one.

Settings: ``closed_book`` (no context, RECALL's p^n), ``original_context`` (p^o), ``open_book``
(the edited context, p^e), ``self_trust`` (edited context plus the trust-yourself
instruction) and ``dola`` (the edited context decoded with DoLa; ``hf`` targets only, so it is
not among the settings of the example configs that use the embedded llama.cpp model). A
text-generation case is not asked without a context (its plan is empty there), and its prompt
is the family's own writing instruction instead of the QA template.
"""

from __future__ import annotations

from pydantic import Field

from halluforge.family import CaseMetadata, Components, Family, LoaderSpec
from halluforge.prompts import family_prompts

#: this family's prompt templates (``<name>.txt``; names ``counterfactual/<name>``)
PROMPTS = family_prompts(__file__)

_HERE = "halluforge.families.counterfactual"
#: the settings whose context is the edited one (their wrong answers count in M-Rate)
EDITED_SETTINGS = ("open_book", "self_trust", "dola")
NO_CONTEXT = "closed_book"
ORIGINAL = "original_context"
#: the longest free text asked for in the text-generation task, in tokens
GENERATION_TOKENS = 64


class CounterfactualMetadata(CaseMetadata):
    """What the counterfactual generator and the ``rgb`` loader record about each case."""

    domain: str | None = None
    title: str | None = None
    repeat: int = 0
    answer_type: str | None = None
    true_answers: list[str] = Field(default_factory=list)
    counterfactual_answer: str | None = None
    answer_key: str | None = None
    reference_kind: str | None = None
    word_pairs: list[list[str]] = Field(default_factory=list)
    edited_words: list[str] = Field(default_factory=list)
    original_words: list[str] = Field(default_factory=list)


FAMILY = Family(
    name="counterfactual",
    paper="RECALL (Liu et al. 2023) §2-§5",
    title="counterfactual: contexts with counterfactual facts (RECALL)",
    correct_means=(
        "keeps the true answer; following the edited context is the mistake (opposite of answer_swap)"
    ),
    generator=f"{_HERE}.generator:Counterfactual",
    settings=(NO_CONTEXT, ORIGINAL, *EDITED_SETTINGS),
    scorers=("accuracy", "error_detection", "confidence"),
    metrics=("m_rate", "r_rate"),
    sections=("recall",),
    metadata=CounterfactualMetadata,
    plan=f"{_HERE}.plan:plan",
    options={"variants": ("qa_a", "qa_na", "textgen"), "edited_settings": EDITED_SETTINGS},
    brings=Components(
        scorers={
            "accuracy": f"{_HERE}.metrics:ChoiceAccuracy",
            "error_detection": f"{_HERE}.metrics:ErrorDetection",
            "confidence": f"{_HERE}.metrics:AnswerConfidence",
        },
        metrics={
            "m_rate": f"{_HERE}.metrics:MisleadingRate",
            "r_rate": f"{_HERE}.metrics:ReappearanceRate",
        },
        sections={"recall": f"{_HERE}.report:SECTION"},
        # RGB's counterfactual file: ready-made QA-A cases (options: {mode: examples} for examples)
        loaders={"rgb": LoaderSpec(f"{_HERE}.rgb:load_rgb", options=("mode", "seed"), ready_made=True)},
    ),
)

__all__ = [
    "EDITED_SETTINGS",
    "FAMILY",
    "GENERATION_TOKENS",
    "PROMPTS",
    "CounterfactualMetadata",
]
