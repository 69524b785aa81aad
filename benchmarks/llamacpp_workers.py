"""Throughput of the embedded llama.cpp backend: one multi-thread engine vs a pool of engines.

The same answer-stage requests (the bundled sample's 115 questions with their evidence, the
``open_book`` prompt, greedy, up to 24 new tokens, as in the main job) go through
``open_backend`` and the runner, once with ``workers=1`` (one engine using every core) and
once with ``workers=N`` (N engines, ``n_threads`` = cores / N). The response cache is off and
each engine is loaded and warmed up before the clock starts. Repeats alternate the two
configurations; medians are reported. The answers of both configurations are compared too:
greedy decoding should give the same text, though llama.cpp does not promise bit-identical
logits across thread counts.

A third configuration takes halluforge out: a bare llama-cpp-python loop with the same number
of engines (``Llama`` objects, ``n_threads`` = cores / N, each driven by its own thread taking
the next prompt from a shared queue) over the same prompts and decoding options, so
``ratio_vs_bare`` shows what the backend, its wrappers and the runner cost.

The last line is ``ratio=<pool/single requests per second> ratio_vs_bare=<pool/bare>
single_rps=<..> pool_rps=<..> bare_rps=<..> same_text=<share>``.

    python benchmarks/llamacpp_workers.py                 # workers = CPU count
    python benchmarks/llamacpp_workers.py --workers 2 --repeats 5
"""

from __future__ import annotations

import argparse
import asyncio
import os
import queue
import statistics
import sys
import threading
import time
from typing import Any

from halluforge.backends import open_backend
from halluforge.backends.llama_cpp import smollm2_path
from halluforge.config import DataSource
from halluforge.data.bundled import load_bundled
from halluforge.records import Message, Request, TestCase
from halluforge.runner import run_requests
from halluforge.settings import render


def requests(limit: int | None, max_tokens: int) -> list[Request]:
    """Open-book requests for the bundled sample, rendered by the project's own template."""
    examples = list(load_bundled(DataSource(loader="bundled", limit=limit)))
    out = []
    for example in examples:
        case = TestCase(
            id=example.id,
            family="original",
            question=example.question,
            context=example.evidence,
            expected=list(example.answers),
        )
        prompt = render("open_book", case)
        out.append(
            Request(
                id=example.id,
                messages=[Message(role="user", content=prompt)],
                max_tokens=max_tokens,
                temperature=0.0,
            )
        )
    return out


async def timed(options: dict[str, Any], batch: list[Request]) -> tuple[float, dict[str, str]]:
    """Requests per second of one fresh backend over ``batch``, engines loaded beforehand."""
    backend = open_backend("llamacpp/smollm2-135m", options)
    try:
        workers = int(options.get("workers", 1))
        # one request per engine at once, so every engine is loaded before the clock starts
        warm = [
            r.model_copy(update={"id": f"warm-{i}", "max_tokens": 1}) for i, r in enumerate(batch[:workers])
        ]
        await asyncio.gather(*(backend.generate([r]) for r in warm))
        texts: dict[str, str] = {}

        def keep(results: list[tuple[Request, Any]]) -> None:
            for request, completion in results:
                if not completion.ok:
                    raise RuntimeError(f"request {request.id} failed: {completion.error}")
                texts[request.id] = completion.text

        started = time.perf_counter()
        await run_requests(backend, batch, keep)
        seconds = time.perf_counter() - started
    finally:
        await backend.aclose()
    return len(batch) / seconds, texts


def bare(workers: int, n_threads: int, batch: list[Request]) -> tuple[float, dict[str, str]]:
    """Requests per second of ``workers`` plain llama-cpp-python engines sharing one queue."""
    import llama_cpp

    engines = [
        llama_cpp.Llama(model_path=str(smollm2_path()), n_ctx=2048, n_threads=n_threads, verbose=False)
        for _ in range(workers)
    ]
    for engine in engines:  # warm up, as the pool's engines are
        engine.create_chat_completion(messages=[{"role": "user", "content": "Hi"}], max_tokens=1)
    todo: queue.SimpleQueue[Request] = queue.SimpleQueue()
    for request in batch:
        todo.put(request)
    texts: dict[str, str] = {}

    def drive(engine: Any) -> None:
        while True:
            try:
                request = todo.get_nowait()
            except queue.Empty:
                return
            out = engine.create_chat_completion(
                messages=[{"role": m.role, "content": m.content} for m in request.messages],
                temperature=request.temperature,
                top_p=request.top_p,
                seed=request.seed,
                max_tokens=request.max_tokens,
                stop=list(request.stop),
            )
            texts[request.id] = out["choices"][0]["message"].get("content") or ""

    threads = [threading.Thread(target=drive, args=(engine,)) for engine in engines]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - started
    for engine in engines:
        engine.close()
    return len(batch) / seconds, texts


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    cores = os.cpu_count() or 1
    parser.add_argument("--workers", type=int, default=cores, help="engines in the pool (default: CPU count)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N sample questions")
    parser.add_argument("--max-tokens", type=int, default=24)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if args.workers < 2:
        print("--workers must be at least 2 to compare a pool with one engine")
        return 2

    batch = requests(args.limit, args.max_tokens)
    single_opts = {"workers": 1, "n_threads": cores}
    pool_opts = {"workers": args.workers, "n_threads": max(1, cores // args.workers)}
    print(f"{len(batch)} requests, {cores} cores; single {single_opts}, pool {pool_opts}")
    print(f"load average at start (1/5/15 min): {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    single_rps: list[float] = []
    pool_rps: list[float] = []
    bare_rps: list[float] = []
    same: list[float] = []
    for repeat in range(args.repeats):
        rps_single, text_single = asyncio.run(timed(single_opts, batch))
        rps_pool, text_pool = asyncio.run(timed(pool_opts, batch))
        rps_bare, text_bare = bare(pool_opts["workers"], pool_opts["n_threads"], batch)
        single_rps.append(rps_single)
        pool_rps.append(rps_pool)
        bare_rps.append(rps_bare)
        same.append(
            min(
                sum(text_single[k] == text_pool[k] for k in text_single) / len(text_single),
                sum(text_bare[k] == text_pool[k] for k in text_bare) / len(text_bare),
            )
        )
        print(
            f"repeat {repeat + 1}: single {rps_single:.2f} req/s, pool {rps_pool:.2f} req/s, "
            f"bare pool {rps_bare:.2f} req/s, same text {same[-1]:.3f}",
            flush=True,
        )
    print(f"load average at end (1/5/15 min): {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    single, pool, plain = (statistics.median(x) for x in (single_rps, pool_rps, bare_rps))
    print(
        f"ratio={pool / single:.3f} ratio_vs_bare={pool / plain:.3f} single_rps={single:.2f} "
        f"pool_rps={pool:.2f} bare_rps={plain:.2f} same_text={min(same):.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
