"""What the answer swap's plausible-donor preparation adds to a run.

``AnswerSwap.prepare`` builds, once per run, the kind pool (rules only) and, when
sentence-transformers is installed, the MiniLM neighbour donors (questions, dataset answers and
the lexicon members of the kinds present, embedded and ranked). Everything else the main job
does is unchanged in count (the same generator-model calls per seed case), so this is the cost
the plausibility work adds to its wall time. Measured on the bundled sample (115 examples).

Prints the median of ``--repeats`` timings of each part, the one-off encoder load, and as its
last line ``ratio=<(encoder load + neighbours + kind pool) / main job seconds>`` against
``--main-job-seconds`` (the main job's own wall time on the same machine; 600 s is its idle
figure in the README). Target: ratio <= 0.10.

    python benchmarks/answer_swap_donors.py --repeats 3 --main-job-seconds 600
"""

from __future__ import annotations

import argparse
import statistics
import time

from halluforge.config import DataSource, FilterConfig
from halluforge.data.bundled import load_bundled
from halluforge.data.filters import apply_filters
from halluforge.families.shared.donors import build_kind_pool, build_neighbours, minilm_encoder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--main-job-seconds", type=float, default=600.0)
    args = parser.parse_args()
    examples, _ = apply_filters(load_bundled(DataSource()), FilterConfig())

    start = time.perf_counter()
    encoder = minilm_encoder()
    encoder(["warm up"])
    load_s = time.perf_counter() - start

    pool_times, neighbour_times = [], []
    for _ in range(args.repeats):
        start = time.perf_counter()
        pool = build_kind_pool(examples)
        pool_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        index = build_neighbours(examples, pool=pool, encoder=encoder)
        neighbour_times.append(time.perf_counter() - start)
        assert index.reason is None, index.reason
    pool_s, neighbour_s = statistics.median(pool_times), statistics.median(neighbour_times)
    print(f"examples={len(examples)} kinds={len(pool)} repeats={args.repeats}")
    print(f"kind_pool_s={pool_s:.3f} neighbours_s={neighbour_s:.3f} encoder_load_s={load_s:.2f}")
    total = load_s + neighbour_s + pool_s
    print(
        f"ratio={total / args.main_job_seconds:.4f} (donor preparation {total:.1f} s "
        f"/ main job {args.main_job_seconds:.0f} s; target <= 0.10)"
    )


if __name__ == "__main__":
    main()
