"""A warm re-run: every request of a 10,000-response run served from the response cache.

A user who re-runs a finished config with ``--new`` (a fresh run directory, same prompts) should
wait about as long as it takes to read the cached completions and store the responses, not for
engines to load or for the event loop to idle. This benchmark builds a run of ready-made test
cases (``--cases`` cases x 2 settings = 10,000 responses by default, answered by ``mock/const``
so the first, cache-filling run is quick), runs it once to fill a fresh cache, then times
``run_pipeline`` on a new run directory with every request cached (the whole run: load,
answer, score, report) and, inside it, the answer stage.

The bare side does the least any tool must do for the same work: one plain SQLite read of the
same cached rows by key, and one transaction inserting the same number of response rows
(their JSON) into a fresh table.

Last line: ``ratio=<bare/ours answer-stage seconds, i.e. ours/bare throughput> seconds=<whole
warm run> ...`` (medians over repeats; targets: seconds <= 5, ratio >= 0.5).

    python benchmarks/cached_rerun.py --cases 5000 --repeats 3
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

SETTINGS = ["closed_book", "open_book"]


def write_cases(path: Path, n: int) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for i in range(n):
            row = {
                "id": f"c{i}",
                "question": f"Which river runs through the town of Belcamp {i}?",
                "answers": ["Ostra"],
                "evidence": f"The river Ostra runs through the town of Belcamp {i}, east of the hills.",
            }
            handle.write(json.dumps(row) + "\n")


def config(data: Path, out: Path, cache: Path, run_id: str) -> Any:
    from halluforge.config import load_config

    return load_config(
        None,
        {
            "run_id": run_id,
            "output_dir": str(out),
            "data": [{"loader": "jsonl", "path": str(data), "test_cases": "answer_swap"}],
            "families": {},
            "models.targets": ["mock/const:Ostra"],
            "answer.settings": SETTINGS,
            "cache.path": str(cache),
            "score.bootstrap": 1000,
        },
        environ={},
    )


class StageTimer:
    """A progress sink that records when each stage starts and finishes."""

    def __init__(self) -> None:
        self.started: dict[str, float] = {}
        self.seconds: dict[str, float] = {}

    def start(self, stage: str, total: int) -> None:
        self.started[stage] = time.perf_counter()

    def update(self, stage: str, done: int, cached: int = 0, failed: int = 0) -> None:
        pass

    def finish(self, stage: str) -> None:
        self.seconds[stage] = time.perf_counter() - self.started[stage]


def bare(cache: Path, n: int) -> float:
    """Read ``n`` cached completions by key and insert ``n`` response rows: the floor."""
    source = sqlite3.connect(cache)
    keys = [k for (k,) in source.execute("SELECT key FROM completions LIMIT ?", (n,))]
    with tempfile.TemporaryDirectory() as tmp:
        target = sqlite3.connect(Path(tmp) / "bare.sqlite")
        target.execute("PRAGMA journal_mode=WAL")
        target.execute("CREATE TABLE responses (id TEXT PRIMARY KEY, data TEXT NOT NULL)")
        started = time.perf_counter()
        rows = []
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows.extend(source.execute(f"SELECT key, data FROM completions WHERE key IN ({marks})", chunk))
        with target:
            target.executemany("INSERT INTO responses VALUES (?, ?)", rows)
        seconds = time.perf_counter() - started
        target.close()
    source.close()
    if len(rows) != n:
        raise RuntimeError(f"the cache holds {len(rows)} rows, expected {n}")
    return seconds


def main() -> None:
    from halluforge.pipeline import run_pipeline

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=5000, help="ready-made test cases (x2 settings)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    n = args.cases * len(SETTINGS)
    whole: list[float] = []
    answer: list[float] = []
    floor: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        data, cache = root / "cases.jsonl", root / "cache.sqlite"
        write_cases(data, args.cases)
        first = run_pipeline(config(data, root / "runs", cache, "fill"))
        if first.counts.get("responses") != n:
            raise RuntimeError(f"the cache-filling run stored {first.counts.get('responses')} responses")
        for repeat in range(args.repeats):
            timer = StageTimer()
            started = time.perf_counter()
            result = run_pipeline(config(data, root / "runs", cache, f"warm-{repeat}"), progress=timer)
            whole.append(time.perf_counter() - started)
            answer_stages = [s for s in timer.seconds if s.startswith("answer:")]
            answer.append(sum(timer.seconds[s] for s in answer_stages))
            cached = result.counts.get("responses_cached", 0)
            floor.append(bare(cache, n))
            print(
                f"repeat {repeat}: whole {whole[-1]:.2f} s, answer {answer[-1]:.2f} s "
                f"({cached} of {result.counts.get('responses')} cached), bare {floor[-1]:.2f} s"
            )
            if cached != n:
                raise RuntimeError(f"only {cached} of {n} responses came from the cache")
    ours_s, bare_s, whole_s = statistics.median(answer), statistics.median(floor), statistics.median(whole)
    print(
        f"ratio={bare_s / ours_s:.3f} seconds={whole_s:.2f} answer_seconds={ours_s:.2f} "
        f"bare_seconds={bare_s:.2f} responses={n}"
    )


if __name__ == "__main__":
    main()
