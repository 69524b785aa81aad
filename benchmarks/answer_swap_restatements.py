"""What the answer swap's restatement checks and the donor-embedding cache cost or save.

Two parts, on the bundled sample (115 examples), no generator model (every wrong answer from the
fallbacks, the path where the checks run most often per seed case):

1. **checks**: forging every example with the checks of ``families/shared/restatements.py`` (a passage that
   restates its answer is skipped; a date or noun that contradicts the passage is not drawn; an
   LLM rewrite must keep every word) against the same forging with those checks replaced by
   no-ops. A skipped seed case also saves its generator-model calls in the main job; that saving
   is not counted here.
2. **donors**: ``build_neighbours`` without the embedding cache (MiniLM loaded and every text
   encoded, what every run paid before) against a warm re-run that reads the cached embeddings
   (no torch, no MiniLM). Needs sentence-transformers (the ``retrieval`` extra).

Prints the medians of ``--repeats`` timings, for all examples and for the examples the checks
do not skip (the same work on both sides); the last line is ``ratio=<forging those seconds with
the checks / without>`` (target: at most 1.10, the issue's "+10%").

    python benchmarks/answer_swap_restatements.py --repeats 5
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from typing import Any
from unittest import mock

from halluforge.config import DataSource, FilterConfig
from halluforge.data.bundled import load_bundled
from halluforge.data.filters import apply_filters
from halluforge.families.answer_swap.generator import AnswerSwap
from halluforge.families.shared.donors import build_kind_pool, build_neighbours, example_kind
from halluforge.families.shared.restatements import restatement
from halluforge.forge.base import ForgeContext
from halluforge.records import Example, TestCase


async def _forge_all(examples: list[Example]) -> tuple[float, int]:
    """Seconds to forge every example (kind pool only, no neighbours) and the cases made."""
    gen = AnswerSwap.from_config({"neighbours": False})
    ctx = ForgeContext(llm=None, examples=examples)
    gen.prepare(ctx)
    start = time.perf_counter()
    made = [m for e in examples for m in await gen.forge_one(e, ctx)]
    return time.perf_counter() - start, sum(isinstance(m, TestCase) for m in made)


def _timed(examples: list[Example], repeats: int, checks: bool) -> tuple[float, int]:
    times, cases = [], 0
    for _ in range(repeats):
        if checks:
            seconds, cases = asyncio.run(_forge_all(examples))
        else:
            with (
                mock.patch("halluforge.families.answer_swap.generator.restatement", lambda *a: None),
                mock.patch("halluforge.families.shared.wrong_answer.conflict", lambda *a: None),
                mock.patch("halluforge.families.answer_swap.generator.check_kept", lambda *a: (True, "")),
            ):
                seconds, cases = asyncio.run(_forge_all(examples))
        times.append(seconds)
    return statistics.median(times), cases


def _donors(examples: list[Example], repeats: int) -> dict[str, Any]:
    pool = build_kind_pool(examples)
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        cold = build_neighbours(examples, pool=pool)  # loads MiniLM, encodes everything
        cold_s = time.perf_counter() - start
        if cold.reason is not None:
            return {"donors": f"not measured: {cold.reason}"}
        build_neighbours(examples, pool=pool, cache_dir=folder)  # fills the cache
        warm = []
        for _ in range(repeats):
            start = time.perf_counter()
            index = build_neighbours(examples, pool=pool, cache_dir=folder)
            warm.append(time.perf_counter() - start)
            assert index.rivals == cold.rivals
    return {"uncached_s": round(cold_s, 3), "cached_s": round(statistics.median(warm), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-donors", action="store_true", help="skip the MiniLM part")
    args = parser.parse_args()
    examples, _ = apply_filters(load_bundled(DataSource()), FilterConfig())
    # the same work on both sides: only the examples the checks do not skip
    kept = [
        e for e in examples if restatement(e.evidence or "", e.answers, example_kind(e), e.question) is None
    ]
    _timed(examples, 1, True)  # warm imports and caches
    with_s, with_cases = _timed(examples, args.repeats, True)
    without_s, without_cases = _timed(examples, args.repeats, False)
    kept_with_s, _ = _timed(kept, args.repeats, True)
    kept_without_s, _ = _timed(kept, args.repeats, False)
    print(f"examples={len(examples)} repeats={args.repeats}")
    print(f"all: without_checks_s={without_s:.3f} cases={without_cases} with_checks_s={with_s:.3f}")
    print(f"all: cases_with_checks={with_cases} skipped_by_checks={without_cases - with_cases}")
    added = (kept_with_s - kept_without_s) * 1000 / len(kept)
    print(f"kept={len(kept)}: without_checks_s={kept_without_s:.3f} with_checks_s={kept_with_s:.3f}")
    print(f"added_ms_per_example={added:.3f}")
    if not args.no_donors:
        print(" ".join(f"{k}={v}" for k, v in _donors(examples, args.repeats).items()))
    print(f"ratio={kept_with_s / kept_without_s:.3f} (forging the same seed cases with the checks / without)")


if __name__ == "__main__":
    main()
