"""Viewer and HTML report on a large synthetic run: time to the first page of cases, report size.

Builds a run store of N_CASES test cases (answer_swap with a swapped-answer edit, and their
originals) x 2 models x 5 settings = 100,000 responses with 3 scores each, written through
RunStore as a real run writes them. Then:

- starts ``halluforge view`` on it in a subprocess (real uvicorn on 127.0.0.1) and measures
  the time until it answers, the first page of cases (cold, then the median of repeats), a
  filtered page (model + metric outcome) and a full-text search, all over HTTP;
- builds report.html the way the report stage does (summary, report model, plots, case
  browser with the default cap of embedded cases) and measures time and size.

Last line: ``first_page_ms=<cold first page> report_mb=<size of report.html>``.
Usage: python benchmarks/viewer.py [--cases 10000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

import httpx

from halluforge.family import FAMILIES
from halluforge.metrics.aggregate import summarize
from halluforge.metrics.joined import Joined
from halluforge.metrics.summary import Summary
from halluforge.records import (
    Edit,
    FieldProvenance,
    Message,
    Provenance,
    Response,
    Score,
    TestCase,
    stable_id,
)
from halluforge.reports.build import build_report
from halluforge.reports.cases import MAX_CASES, report_cases
from halluforge.reports.html import render_html
from halluforge.reports.plots import run_plots
from halluforge.reports.sections import ReportInputs
from halluforge.store import RunStore
from halluforge.viewer.runs import RunIndex

MODELS = ("llamacpp/smollm2-135m", "openai/gpt-4o-mini")
SETTINGS = ("closed_book", "open_book", "few_shot", "opinion", "few_shot_adversarial")
METRICS = ("em", "f1", "hit")
WORDS = ("the", "river", "city", "bridge", "old", "tower", "was", "built", "by", "a", "famous", "engineer")


def _text(i: int, n: int) -> str:
    return " ".join(WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(n))


def build_store(run_dir: Path, n_seeds: int) -> tuple[int, int]:
    """Write n_seeds answer_swap cases and their originals, with responses and scores."""
    store = RunStore(run_dir)
    n_responses = 0
    for start in range(0, n_seeds, 500):
        cases: list[TestCase] = []
        responses: list[Response] = []
        scores: list[Score] = []
        for i in range(start, min(n_seeds, start + 500)):
            gold, new = f"Ada Lovelace {i}", f"Grace Hopper {i}"
            original = f"{_text(i, 40)}. The bridge {i} was built by {gold}. {_text(i + 1, 50)}."
            context = original.replace(gold, new)
            swap = TestCase(
                id=stable_id("bench-swap", i),
                family="answer_swap",
                question=f"who built the bridge number {i} over the old river",
                context=context,
                original_context=original,
                expected=[new],
                original_answers=[gold],
                edits=[Edit.locate("context", "answer", gold, new, context)],
                provenance=Provenance(
                    generator_model=MODELS[0],
                    fields={
                        "expected": FieldProvenance(
                            path="llm" if i % 3 else "fallback",
                            method="pool",
                            attempts=2,
                            rejected=["proposal too long (8 words > 5)"],
                        ),
                        "context": FieldProvenance(path="fallback", method="span_replace", attempts=1),
                    },
                ),
                checks={"differs_from_gold": True, "new_answer_present": True, "gold_absent": i % 17 != 0},
                metadata={"answer_position": (i % 10) / 10},
            )
            plain = TestCase(
                id=stable_id("bench-original", i),
                family="original",
                question=swap.question,
                context=original,
                expected=[gold],
                provenance=Provenance(fields={"context": FieldProvenance(path="source")}),
                checks={"from_source": True},
            )
            cases += [swap, plain]
            for case in (swap, plain):
                for model in MODELS:
                    for setting in SETTINGS:
                        reply = case.expected[0] if (i + len(setting)) % 3 else "Paris"
                        response = Response(
                            id=stable_id("bench-r", case.id, model, setting),
                            test_case_id=case.id,
                            model=model,
                            setting=setting,
                            messages=[
                                Message(
                                    role="user", content=f"Context: {case.context}\nQuestion: {case.question}"
                                ),
                                Message(role="assistant", content=reply),
                            ],
                            text=reply,
                            latency_s=0.2,
                        )
                        responses.append(response)
                        for metric in METRICS:
                            value = float(reply == case.expected[0])
                            scores.append(
                                Score(
                                    id=stable_id("bench-s", response.id, metric),
                                    response_id=response.id,
                                    test_case_id=case.id,
                                    model=model,
                                    setting=setting,
                                    family=case.family,
                                    metric=metric,
                                    value=value,
                                )
                            )
        store.put(cases)
        store.put(responses)
        store.put(scores)
        n_responses += len(responses)
    n_cases = store.count(TestCase)
    store.close()
    return n_cases, n_responses


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def time_get(client: httpx.Client, url: str, **params: str) -> tuple[float, dict[str, object]]:
    started = time.perf_counter()
    reply = client.get(url, params=params)
    reply.raise_for_status()
    return (time.perf_counter() - started) * 1000, reply.json()


def viewer_figures(runs: Path) -> dict[str, float]:
    port = free_port()
    started = time.perf_counter()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
    process = subprocess.Popen(
        [sys.executable, "-m", "halluforge.cli.main", "view", str(runs), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=60) as client:
            while True:
                try:
                    client.get("/api/runs").raise_for_status()
                    break
                except httpx.TransportError:
                    if time.perf_counter() - started > 120:
                        raise
                    time.sleep(0.05)
            open_ms = (time.perf_counter() - started) * 1000
            first_ms, first = time_get(client, "/api/runs/bench/cases")
            assert first["total"], first
            repeats = [time_get(client, "/api/runs/bench/cases", page=str(p))[0] for p in range(1, 8)]
            facets_ms, _ = time_get(client, "/api/runs/bench/facets")
            filtered_ms, filtered = time_get(
                client,
                "/api/runs/bench/cases",
                model=MODELS[1],
                setting="open_book",
                metric="em",
                outcome="fail",
            )
            search_ms, _ = time_get(client, "/api/runs/bench/cases", q="bridge number 4242")
            rows = first["rows"]
            assert isinstance(rows, list)
            case_ms, _ = time_get(client, f"/api/runs/bench/cases/{rows[0]['id']}")
    finally:
        process.terminate()
        process.wait(timeout=10)
    print(f"viewer: open (process start to first answer) {open_ms:.0f} ms")
    print(f"viewer: first page of cases (cold) {first_ms:.1f} ms; next pages median {median(repeats):.1f} ms")
    print(f"viewer: facets {facets_ms:.1f} ms; one case {case_ms:.1f} ms; search {search_ms:.1f} ms")
    matched = filtered["total"]
    print(f"viewer: filtered page (model+setting+metric outcome: {matched} cases) {filtered_ms:.1f} ms")
    return {"first_page_ms": first_ms, "open_ms": open_ms}


def report_figures(run_dir: Path) -> float:
    started = time.perf_counter()
    store = RunStore(run_dir)
    joined = Joined.build(store.all(TestCase), store.all(Response), store.all(Score))
    store.close()
    loaded = time.perf_counter()
    summary = Summary(rows=summarize(joined.scores, n_boot=1000, confidence=0.95, seed=0), confidence=0.95)
    families = {name: FAMILIES.get(name) for name in FAMILIES.names()}
    report = build_report(ReportInputs(summary, joined, 1000, 0), families)
    analyses = next((s.data for s in report.sections if s.data), {})
    plots = run_plots(summary, joined, families, analyses)
    cases = report_cases(list(joined.cases.values()), joined.responses.values(), joined.scores)
    page = render_html(report, plots=plots, cases=cases)
    path = run_dir / "report.html"
    path.write_text(page, encoding="utf-8")
    done = time.perf_counter()
    size_mb = path.stat().st_size / 1e6
    print(
        f"report: load and join {loaded - started:.1f} s; summary, plots, cases, HTML {done - loaded:.1f} s"
    )
    shown = f"{cases['shown']} of {cases['total']} test cases embedded (cap {MAX_CASES})"
    print(f"report: {size_mb:.2f} MB with {len(plots)} plots and {shown}")
    return size_mb


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=5000, help="answer_swap seeds (each adds an original)")
    parser.add_argument("--keep", help="build the run here and keep it")
    args = parser.parse_args()
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="halluforge-viewer-bench-"))
    run_dir = root / "runs" / "bench"
    try:
        if not (run_dir / "store.sqlite").is_file():
            started = time.perf_counter()
            n_cases, n_responses = build_store(run_dir, args.cases)
            took = time.perf_counter() - started
            print(f"store: {n_cases} test cases, {n_responses} responses, {3 * n_responses} scores")
            print(f"store: written in {took:.1f} s")
            started = time.perf_counter()
            RunIndex("bench", run_dir).close()
            print(f"viewer: first open of this run adds its indexes in {time.perf_counter() - started:.1f} s")
        viewer = viewer_figures(root / "runs")
        size_mb = report_figures(run_dir)
        print(f"first_page_ms={viewer['first_page_ms']:.1f} report_mb={size_mb:.2f}")
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
