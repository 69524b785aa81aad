"""The entity table's cost: build time, size on disk, load time from the cache, lookup time.

The table (``halluforge.knowledge.table``) is built from the installed source packages on first
use and kept as JSON in the user cache. Prints the build time (median of ``--repeats`` builds),
the cache file's size, the load time from the cache (median), the number of entities, and the
time of one lookup (median over every title looked up once, exact-title and a miss), the time to
read Faker's name stocks for invented people (``halluforge.knowledge.names``, once per process)
and to invent one name, and as its last line ``ratio=<(cache load + name stocks) / main job
seconds>`` against ``--main-job-seconds`` (the main job's wall time on the same machine).

    python benchmarks/entity_table.py --repeats 3 --main-job-seconds 83
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
    parser.add_argument("--main-job-seconds", type=float, default=83.0)
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
        from halluforge.knowledge.names import invent_person, name_stocks, stocks_of_country

        stock_times = []
        for _ in range(args.repeats):
            name_stocks.cache_clear()
            start = time.perf_counter()
            stocks = name_stocks()
            stock_times.append(time.perf_counter() - start)
        import random

        rng = random.Random(0)
        countries = sorted(table.countries)
        start = time.perf_counter()
        for country in countries:
            invent_person(stocks_of_country(country, table), None, rng)
        invent_us = (time.perf_counter() - start) / len(countries) * 1e6
    build_s, load_s = statistics.median(builds), statistics.median(loads)
    stocks_s = statistics.median(stock_times)
    print(f"sources={source_versions()}")
    print(f"entities={len(table.entities)} people={len(table.people())} countries={len(table.countries)}")
    print(f"first_names={len(table.first_names)} size_on_disk_mb={size / 1e6:.1f}")
    print(f"build_s={build_s:.2f} cache_load_s={load_s:.2f} lookup_us={lookup_us:.2f} repeats={args.repeats}")
    print(f"name_stocks={len(stocks)} name_stocks_s={stocks_s:.2f} invent_us={invent_us:.1f}")
    print(
        f"ratio={(load_s + stocks_s) / args.main_job_seconds:.4f} (table load from cache {load_s:.2f} s "
        f"+ name stocks {stocks_s:.2f} s / main job {args.main_job_seconds:.0f} s; first run builds "
        f"the table once: {build_s:.1f} s)"
    )


if __name__ == "__main__":
    main()
