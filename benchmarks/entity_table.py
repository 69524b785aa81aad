"""The entity table's cost: build time, size on disk, load time from the cache, lookup time.

The table (``halluforge.knowledge.table``) is built from the installed source packages on first
use and kept as JSON in the user cache. Prints the build time (median of ``--repeats`` builds),
the cache file's size, the load time from the cache (median), the number of entities, and the
time of one lookup (median over every title looked up once, exact-title and a miss), and as its
last line ``ratio=<(cache load) / main job seconds>`` against ``--main-job-seconds`` (the main
job's wall time on the same machine; 600 s is its idle figure in the README).

    python benchmarks/entity_table.py --repeats 3 --main-job-seconds 600
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--main-job-seconds", type=float, default=600.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["HALLUFORGE_CACHE_DIR"] = folder  # never the user's cache
        from halluforge.knowledge.table import build_table, cache_path, load_table, source_versions

        builds = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            build_table()
            builds.append(time.perf_counter() - start)
        load_table()  # writes the cache file
        size = cache_path().stat().st_size
        loads = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            table = load_table()
            loads.append(time.perf_counter() - start)
        titles = [e.title for e in table.entities]
        start = time.perf_counter()
        for title in titles:
            table.lookup(title)
            table.lookup(title + " (missing)")
        lookup_us = (time.perf_counter() - start) / (2 * len(titles)) * 1e6
    build_s, load_s = statistics.median(builds), statistics.median(loads)
    print(f"sources={source_versions()}")
    print(f"entities={len(table.entities)} people={len(table.people())} countries={len(table.countries)}")
    print(f"first_names={len(table.first_names)} size_on_disk_mb={size / 1e6:.1f}")
    print(f"build_s={build_s:.2f} cache_load_s={load_s:.2f} lookup_us={lookup_us:.2f} repeats={args.repeats}")
    print(
        f"ratio={load_s / args.main_job_seconds:.4f} (table load from cache {load_s:.2f} s "
        f"/ main job {args.main_job_seconds:.0f} s; first run builds it once: {build_s:.1f} s)"
    )


if __name__ == "__main__":
    main()
