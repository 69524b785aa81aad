"""What the world-knowledge checks add to the answer swap's forge stage, before/after.

Forges the bundled sample (115 examples) with ``answer_swap`` in a fresh process per repeat,
with the generator's replies served by a scripted backend (no model: only our code is timed;
every proposal is a name, so the proposal checks run), once with a source tree given by
``--before`` (e.g. an export of the base commit) and once with this tree. Each repeat is a
fresh process with a warm user cache (the entity table read from disk, as on every run but
the first). Prints the medians of ``--repeats`` timings, the cases forged, and last
``ratio=<after / before>`` with the added seconds against ``--main-job-seconds``.

    git archive 694400a | tar -x -C /tmp/base
    python benchmarks/forge_knowledge.py --before /tmp/base/src --repeats 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import asyncio, json, time
start = time.perf_counter()
from halluforge.backends import open_backend
from halluforge.config import DataSource
from halluforge.data.bundled import load_bundled
from halluforge.families.answer_swap.generator import AnswerSwap
from halluforge.forge.base import ForgeContext
from halluforge.records import TestCase

async def main():
    examples = list(load_bundled(DataSource()))
    script = [["Name a different", "Wrong answer: Ada Quist."]]
    llm = open_backend("mock/script", {"script": script, "retries": 0})
    gen = AnswerSwap.from_config({"neighbours": False})
    ctx = ForgeContext(llm=llm, seed=0, examples=examples)
    gen.prepare(ctx)
    made = [m for e in examples for m in await gen.forge_one(e, ctx)]
    return sum(isinstance(m, TestCase) for m in made), len(examples)

cases, total = asyncio.run(main())
print(json.dumps({"seconds": time.perf_counter() - start, "cases": cases, "examples": total}))
"""


def run(src: str) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": src}
    out = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="src folder of the tree to compare with")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--main-job-seconds", type=float, default=600.0)
    args = parser.parse_args()
    after_src = str(Path(__file__).resolve().parents[1] / "src")
    run(after_src)  # warm: builds the entity table into the user cache once
    timings: dict[str, list[float]] = {"before": [], "after": []}
    cases: dict[str, float] = {}
    for _ in range(args.repeats):
        for name, src in (("before", args.before), ("after", after_src)):
            found = run(src)
            timings[name].append(found["seconds"])
            cases[name] = found["cases"]
    before, after = statistics.median(timings["before"]), statistics.median(timings["after"])
    print(f"repeats={args.repeats} cases_before={cases['before']:.0f} cases_after={cases['after']:.0f}")
    print(f"forge_before_s={before:.2f} forge_after_s={after:.2f} added_s={after - before:.2f}")
    share = (after - before) / args.main_job_seconds
    print(f"added_share_of_main_job={share:.4f} (main job {args.main_job_seconds:.0f} s)")
    print(f"ratio={after / before:.3f} (forge stage after / before, scripted generator)")


if __name__ == "__main__":
    main()
