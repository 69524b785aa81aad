"""Overhead of halluforge's answer stage over a bare AsyncOpenAI loop.

Both sides send the same N chat requests at the same concurrency to one local
OpenAI-compatible stub server (a separate process, fixed delay per request). The bare side
is a semaphore-bounded `AsyncOpenAI` loop that keeps nothing. Our side is the full answer
stage: prompt rendering from the template, the openai backend with its retry and
concurrency wrappers, the runner, and response rows written to the run store (SQLite) as they
finish. The response cache is off so every request reaches the server.

Prints per-repeat figures and, as its last line, ``ratio=<ours/bare throughput> ...``
(target >= 0.9). The two sides run back to back in each repeat, and the ratio is the median of
the per-repeat ratios: on a shared machine the load drifts between repeats, and pairing each
repeat's two runs keeps that drift out of the ratio. The medians of each side's requests per
second are printed too.

    python benchmarks/runner_overhead.py --n 1000 --concurrency 16 --delay 0.02 --repeats 3
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_stub(port: int, delay: float) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        "-m",
        "halluforge.testing.openai_stub",
        "--port",
        str(port),
        "--delay",
        str(delay),
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=1):
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("stub server did not start")


def prompts(n: int) -> list[tuple[str, str]]:
    return [
        (
            f"Passage {i}: the river Ostra runs through the town of Belcamp {i}.",
            f"Which river runs through Belcamp {i}?",
        )
        for i in range(n)
    ]


async def bare(base_url: str, n: int, concurrency: int) -> float:
    from openai import AsyncOpenAI

    client = AsyncOpenAI(base_url=base_url, api_key="EMPTY", max_retries=0)
    limit = asyncio.Semaphore(concurrency)
    items = prompts(n)

    async def one(context: str, question: str) -> str:
        async with limit:
            reply = await client.chat.completions.create(
                model="stub",
                messages=[{"role": "user", "content": f"Context: {context}\nQuestion: {question}\nAnswer:"}],
                max_tokens=24,
                temperature=0.0,
            )
            return reply.choices[0].message.content or ""

    started = time.perf_counter()
    await asyncio.gather(*(one(c, q) for c, q in items))
    seconds = time.perf_counter() - started
    await client.close()
    return n / seconds


async def ours(base_url: str, n: int, concurrency: int, workdir: Path, repeat: int) -> float:
    from halluforge.config import load_config
    from halluforge.pipeline import open_context
    from halluforge.records import Response, TestCase, stable_id
    from halluforge.stages.answer import answer_stage

    config = load_config(
        None,
        {
            "run_id": f"bench-{repeat}",
            "output_dir": str(workdir),
            "families": {},
            "models.targets": [f"openai@{base_url}/stub"],
            "answer.settings": ["open_book"],
            "cache.enabled": False,
            "backends": {"openai": {"concurrency": concurrency}},
        },
        environ={},
    )
    ctx = open_context(config)
    cases = [
        TestCase(id=stable_id("bench", i), family="answer_swap", question=q, context=c, expected=["Ostra"])
        for i, (c, q) in enumerate(prompts(n))
    ]
    ctx.store.put(cases)
    started = time.perf_counter()
    await answer_stage(ctx)
    seconds = time.perf_counter() - started
    stored = ctx.store.count(Response)
    failed = sum(1 for r in ctx.store.iter(Response) if r.error)
    await ctx.models.aclose()
    ctx.store.close()
    if stored != n or failed:
        raise RuntimeError(f"answer stage stored {stored} responses ({failed} failed), expected {n}")
    return n / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--delay", type=float, default=0.02, help="stub server delay per request (s)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    port = free_port()
    server = start_stub(port, args.delay)
    base_url = f"http://127.0.0.1:{port}/v1"
    ours_rps: list[float] = []
    bare_rps: list[float] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            asyncio.run(bare(base_url, min(100, args.n), args.concurrency))  # warm-up
            for repeat in range(args.repeats):
                bare_rps.append(asyncio.run(bare(base_url, args.n, args.concurrency)))
                ours_rps.append(asyncio.run(ours(base_url, args.n, args.concurrency, Path(tmp), repeat)))
                print(f"repeat {repeat}: bare {bare_rps[-1]:.1f} req/s, ours {ours_rps[-1]:.1f} req/s")
    finally:
        server.terminate()
        server.wait()
    ours_median = statistics.median(ours_rps)
    bare_median = statistics.median(bare_rps)
    paired = statistics.median(o / b for o, b in zip(ours_rps, bare_rps, strict=True))
    ideal = args.concurrency / args.delay
    print(
        f"ratio={paired:.3f} ours_rps={ours_median:.1f} bare_rps={bare_median:.1f} "
        f"ideal_rps={ideal:.0f} n={args.n} concurrency={args.concurrency} delay_s={args.delay}"
    )


if __name__ == "__main__":
    main()
