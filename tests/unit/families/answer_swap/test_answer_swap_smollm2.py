"""answer_swap with the real embedded generator model (SmolLM2-135M through llama.cpp).

A 135M model rarely follows the propose and rewrite prompts, so this is where the fallbacks
earn their keep: every test case must still be valid, whichever path produced its fields. The
split between the LLM path and the fallbacks is logged (``-o log_cli=true --log-cli-level=INFO``
shows it) and stated in every assertion message.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import AsyncIterator

import pytest

from extra_skips import require
from halluforge.backends import open_backend
from halluforge.backends.base import Backend
from halluforge.config import DataSource
from halluforge.data.bundled import load_bundled
from halluforge.errors import ConfigError, ModelError
from halluforge.families.answer_swap.generator import AnswerSwap
from halluforge.families.shared.donors import example_kind
from halluforge.families.shared.restatements import restatement
from halluforge.forge.base import ForgeContext
from halluforge.records import Example, TestCase
from halluforge.textkit.answers import contains_answer

pytestmark = [pytest.mark.slow, pytest.mark.llamacpp]

PER_TYPE = 1  # one per answer type keeps this real-model test to about a minute


@pytest.fixture
async def smollm2() -> AsyncIterator[Backend]:
    require("llamacpp", "llama_cpp")
    try:
        backend = open_backend("llamacpp/smollm2-135m")
    except (ModelError, ConfigError) as exc:
        pytest.skip(f"SmolLM2 cannot be opened here: {exc}")
    yield backend
    await backend.aclose()


def _chosen(examples: list[Example]) -> list[Example]:
    """The shortest example of each answer type whose passage a swap can change (no restated count)."""
    by_type: dict[str, list[Example]] = {}
    for example in sorted(examples, key=lambda e: len((e.evidence or "").split())):
        if restatement(example.evidence or "", example.answers, example_kind(example)) is not None:
            continue  # skipped by design (tests/unit/forge/test_restatements.py)
        by_type.setdefault(str(example.metadata.get("answer_type")), []).append(example)
    return [e for group in by_type.values() for e in group[:PER_TYPE]]


async def test_real_generator_model_yields_only_valid_test_cases(smollm2: Backend) -> None:
    examples = list(load_bundled(DataSource()))
    chosen = _chosen(examples)
    assert len(chosen) == 5
    ctx = ForgeContext(llm=smollm2, seed=0, examples=examples)
    # every path open: by default a known answer or a person takes no proposal and may be skipped
    gen = AnswerSwap.from_config({"real_donors": "always"})
    made = [m for example in chosen for m in await gen.forge_one(example, ctx)]
    cases = [m for m in made if isinstance(m, TestCase)]
    skipped = [m for m in made if not isinstance(m, TestCase)]
    split = {f: dict(Counter(c.provenance.fields[f].path for c in cases)) for f in ("expected", "context")}
    logging.getLogger(__name__).info("answer_swap with SmolLM2: paths %s, %d skipped", split, len(skipped))
    assert not skipped, f"skips: {[s.reason for s in skipped]}; split {split}"
    assert len(cases) == len(chosen)
    for case in cases:
        assert case.valid, (case.checks, split)
        assert case.provenance.generator_model == "llamacpp/smollm2-135m"
        assert contains_answer(case.context or "", case.expected[0])
        assert not any(contains_answer(case.context or "", a) for a in case.original_answers)
        for field in ("expected", "context"):
            prov = case.provenance.fields[field]
            # a fallback always says why the model's output was not used
            assert prov.path == "llm" or prov.rejected, (field, prov)
