"""Throughput of the answer stage on 1, 2 and 4 Ray workers against a stub with a fixed delay.

Each worker is a CPU-light Ray actor (``--cpus-per-worker``, default 0.25) whose engine is the
openai backend pointed at the local OpenAI-compatible stub (``halluforge.testing.openai_stub``,
fixed ``--delay`` per request), capped at ``--cap`` requests in flight per worker
(``slots_per_worker`` and the backend's ``concurrency``). A worker can therefore answer at most
``cap / delay`` requests per second, and perfect scaling gives 4x with 4 workers. What is
measured is the executor's overhead: the Ray call per batch, the driver's runner and the run
store writes (SQLite, as in a real run). The response cache is off.

For each worker count, a warm-up stage starts the actors and opens their engines; then the
timed answer stage sends ``--n`` requests. Prints per-repeat figures and, as its last line,
``ratio=<4 workers / 1 worker throughput> efficiency=<ratio/4> ...`` (medians over repeats;
target efficiency >= 0.8).

    python benchmarks/ray_scaling.py --n 400 --delay 0.1 --cap 4 --repeats 3
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from halluforge.config import ExecutorConfig, load_config
from halluforge.executor_ray import RayExecutor
from halluforge.pipeline import open_context
from halluforge.records import Response, TestCase, stable_id
from halluforge.stages.answer import answer_stage
from halluforge.stages.context import RunContext
from halluforge.testing.openai_stub import StubConfig, StubServer

WORKER_COUNTS = (1, 2, 4)


def make_cases(n: int, tag: str) -> list[TestCase]:
    return [
        TestCase(
            id=stable_id("ray-bench", tag, i),
            family="answer_swap",
            question=f"Which river runs through Belcamp {i}?",
            context=f"Passage {i}: the river Ostra runs through the town of Belcamp {i}.",
            expected=["Ostra"],
        )
        for i in range(n)
    ]


async def one_run(base_url: str, workers: int, args: argparse.Namespace, workdir: Path, tag: str) -> float:
    backends = {"openai": {"concurrency": args.cap, "timeout_s": 60}}
    executor = RayExecutor(
        ExecutorConfig(
            kind="ray",
            workers=workers,
            resources_per_worker={"CPU": args.cpus_per_worker},
            engines=["openai"],
            slots_per_worker=args.cap,
        ),
        backends,
    )

    def context(run_id: str) -> RunContext:
        config = load_config(
            None,
            {
                "run_id": run_id,
                "output_dir": str(workdir),
                "families": {},
                "models.targets": [f"openai@{base_url}/stub"],
                "answer.settings": ["open_book"],
                "cache.enabled": False,
                "backends": backends,
            },
            environ={},
        )
        return open_context(config, executor=executor)

    try:
        warm = context(f"warm-{tag}")
        warm.store.put(make_cases(2 * workers * args.cap, f"warm-{tag}"))
        await answer_stage(warm)
        await warm.models.aclose()
        warm.store.close()
        ctx = context(f"bench-{tag}")
        ctx.store.put(make_cases(args.n, tag))
        started = time.perf_counter()
        await answer_stage(ctx)
        seconds = time.perf_counter() - started
        stored = ctx.store.count(Response)
        failed = sum(1 for r in ctx.store.iter(Response) if r.error)
        await ctx.models.aclose()
        ctx.store.close()
    finally:
        await executor.aclose()
    if stored != args.n or failed or executor.stats.workers_started != workers:
        raise RuntimeError(
            f"stored {stored} responses ({failed} failed) on {workers} workers, expected {args.n}"
        )
    return args.n / seconds


def main() -> None:
    import ray

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=400, help="requests per timed run")
    parser.add_argument("--delay", type=float, default=0.1, help="stub delay per request (s)")
    parser.add_argument("--cap", type=int, default=4, help="requests in flight per worker")
    parser.add_argument("--cpus-per-worker", type=float, default=0.25)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        _node_ip_address="127.0.0.1",
    )
    rps: dict[int, list[float]] = {w: [] for w in WORKER_COUNTS}
    try:
        with StubServer(StubConfig(delay_s=args.delay)) as server, tempfile.TemporaryDirectory() as tmp:
            for repeat in range(args.repeats):
                for workers in WORKER_COUNTS:
                    tag = f"{repeat}-{workers}"
                    rps[workers].append(asyncio.run(one_run(server.base_url, workers, args, Path(tmp), tag)))
                    ideal = workers * args.cap / args.delay
                    print(
                        f"repeat {repeat}: workers={workers} {rps[workers][-1]:.1f} req/s "
                        f"(ideal {ideal:.0f}, {rps[workers][-1] / ideal:.2f} of it)",
                        flush=True,
                    )
    finally:
        ray.shutdown()
    median = {w: statistics.median(v) for w, v in rps.items()}
    ratio = median[4] / median[1]
    print(
        f"ratio={ratio:.3f} efficiency={ratio / 4:.3f} rps_1={median[1]:.1f} rps_2={median[2]:.1f} "
        f"rps_4={median[4]:.1f} ideal_rps_1={args.cap / args.delay:.0f} n={args.n} delay_s={args.delay} "
        f"cap={args.cap} cpus_per_worker={args.cpus_per_worker} repeats={args.repeats}"
    )


if __name__ == "__main__":
    main()
