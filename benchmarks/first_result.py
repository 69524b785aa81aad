"""Seconds from ``halluforge run`` to its summary: the quick main job, fresh cache, fresh run folder.

Each repeat runs the command a new user runs first (``halluforge run``, no config: the quick
main job on the embedded SmolLM2) in a new temporary folder with a new response cache
(``HALLUFORGE_CACHE_DIR``), so nothing is served from an earlier run, and times it until the
process has printed its summary and exited. Prints every repeat, the median, the budget (5
minutes, issue 25) and, last, the ratio median / budget (below 1 is within budget).

    python benchmarks/first_result.py [--repeats 3] [--nice 5] [-- extra halluforge run args]

Run it on the machine you care about, with its usual load (the figure in the README was taken
on 2 cores shared with other jobs).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BUDGET_S = 300.0


def one_run(extra: list[str], nice: int) -> tuple[float, str]:
    """Seconds for one fresh ``halluforge run`` and the last line it printed."""
    with tempfile.TemporaryDirectory(prefix="hf-first-") as tmp:
        env = dict(os.environ, HALLUFORGE_CACHE_DIR=str(Path(tmp) / "cache"), COLUMNS="120")
        command = [
            sys.executable,
            "-m",
            "halluforge.cli.main",
            "run",
            "--output-dir",
            str(Path(tmp) / "runs"),
        ]
        if nice:
            command = ["nice", "-n", str(nice), *command]
        started = time.perf_counter()
        done = subprocess.run([*command, *extra], env=env, capture_output=True, text=True, check=False)
        seconds = time.perf_counter() - started
        if done.returncode != 0:
            raise SystemExit(f"halluforge run failed ({done.returncode}):\n{done.stderr[-2000:]}")
        if "run directory:" not in done.stdout:
            raise SystemExit(f"no summary printed:\n{done.stdout[-2000:]}")
        last = done.stdout.strip().splitlines()[-1]
        return seconds, last


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--nice", type=int, default=5)
    parser.add_argument("extra", nargs="*", help="more arguments for halluforge run (after --)")
    args = parser.parse_args()
    times = []
    for i in range(args.repeats):
        seconds, _ = one_run(args.extra, args.nice)
        times.append(seconds)
        print(f"run {i + 1}: {seconds:.1f} s", flush=True)
    median = statistics.median(times)
    print(f"load average now: {' '.join(f'{x:.1f}' for x in os.getloadavg())}; cores: {os.cpu_count()}")
    print(f"median seconds to the summary: {median:.1f} (of {len(times)} runs)")
    print(f"budget: {BUDGET_S:.0f} s")
    print(f"ratio median/budget: {median / BUDGET_S:.2f}")


if __name__ == "__main__":
    main()
