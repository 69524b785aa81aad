"""Throughput and memory of the false_premise generator on synthetic DBpedia-style KBs.

Builds, in a temporary folder, N-Triples files in DBpedia's shape (resource IRIs, dbo:
predicates, xsd:gYear literals for years) plus person/place type lists:

- ``kb_40k.nt``: one predicate (dbo:director) with 40,000 triples;
- ``kb_1m.nt``: INVITE's 25 predicates with 40,000 triples each (1,000,000 in all).

Each measurement runs in a fresh Python process (so ``ru_maxrss`` is that run's peak) and times
the whole job: streaming and indexing the KB, then generating 5,000 questions per predicate.
The official INVITE script needs 76 s on this machine for 5,000 questions from one 40k-triple
predicate, because each question copies and shuffles the predicate's whole candidate list.

Usage: ``python benchmarks/invite_generation.py [--repeats 3] [--questions 5000]``. The last
line is ``seconds_40k=<float> seconds_1m=<float> peak_mb=<float>`` (medians; peak over runs).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

R = "http://dbpedia.org/resource/"
DBO = "http://dbpedia.org/ontology/"
GYEAR = "http://www.w3.org/2001/XMLSchema#gYear"
PER_PREDICATE = 40_000


def _predicates() -> list[tuple[str, str | None, str | None]]:
    """(predicate, subject type, object type) for INVITE's 25 predicates, from our templates."""
    from halluforge.families.invite.templates import load_templates

    templates, _ = load_templates()
    names = [line.rsplit("/", 1)[-1] for line in _invite_predicates()]
    out = []
    for name in names:
        spec = templates[name]
        out.append((name, spec.types.get("subject"), spec.types.get("object")))
    return out


def _invite_predicates() -> list[str]:
    shared = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "invite_predicates.txt"
    if shared.is_file():
        return [line.strip() for line in shared.read_text().splitlines() if line.strip()]
    from halluforge.families.invite.templates import load_templates

    return [DBO + name for name in sorted(load_templates()[0])][:25]


def write_kb(path: Path, predicates: list[tuple[str, str | None, str | None]], seed: int = 7) -> None:
    """Write PER_PREDICATE triples per predicate; persons/places/things drawn from fixed pools."""
    rng = random.Random(seed)
    pools = {"person": ("Person", 200_000), "place": ("Place", 50_000), None: ("Thing", 200_000)}
    with path.open("w", encoding="utf-8") as out:
        for name, s_type, o_type in predicates:
            s_prefix, s_size = pools[s_type]
            o_prefix, o_size = pools[o_type]
            lines = []
            for _ in range(PER_PREDICATE):
                subject = f"<{R}{s_prefix}_{rng.randrange(s_size)}>"
                if name in ("birthYear", "foundingYear"):
                    obj = f'"{rng.randrange(1500, 2020)}"^^<{GYEAR}>'
                else:
                    obj = f"<{R}{o_prefix}_{rng.randrange(o_size)}>"
                lines.append(f"{subject} <{DBO}{name}> {obj} .\n")
            out.writelines(lines)
    folder = path.parent
    (folder / "persons.txt").write_text("\n".join(f"Person_{i}" for i in range(200_000)) + "\n")
    (folder / "places.txt").write_text("\n".join(f"Place_{i}" for i in range(50_000)) + "\n")


def worker(kb: str, questions: int) -> None:
    """One measured run in this process: index the KB and generate; print JSON figures."""
    from halluforge.families.invite.false_premise import FalsePremise
    from halluforge.records import TestCase

    folder = Path(kb).parent
    started = time.perf_counter()
    generator = FalsePremise.from_config(
        {
            "kb": kb,
            "types": {"person": str(folder / "persons.txt"), "place": str(folder / "places.txt")},
            "per_predicate": questions,
        }
    )
    made = skipped = 0
    for item in generator.generate(seed=0):
        if isinstance(item, TestCase):
            made += 1
        else:
            skipped += 1
    seconds = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    index = generator.index()
    print(
        json.dumps(
            {
                "seconds": seconds,
                "peak_mb": peak_mb,
                "made": made,
                "skipped": skipped,
                "predicates": len(index.facts),
                "facts": sum(len(f) for f in index.facts.values()),
                "entities": len(index.names),
            }
        )
    )


def measure(kb: Path, questions: int) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, __file__, "--worker", str(kb), "--questions", str(questions)],
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--questions", type=int, default=5000)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.questions)
        return
    predicates = _predicates()
    with tempfile.TemporaryDirectory() as tmp:
        small = Path(tmp) / "40k" / "kb_40k.nt"
        small.parent.mkdir()
        write_kb(small, [p for p in predicates if p[0] == "director"])
        big = Path(tmp) / "1m" / "kb_1m.nt"
        big.parent.mkdir()
        write_kb(big, predicates)
        runs_40k = [measure(small, args.questions) for _ in range(args.repeats)]
        runs_1m = [measure(big, args.questions) for _ in range(max(1, args.repeats - 1))]
    for label, runs in (("40k", runs_40k), ("1m", runs_1m)):
        for run in runs:
            print(
                f"{label}: {run['seconds']:.2f} s, peak {run['peak_mb']:.0f} MB, "
                f"{run['made']:.0f} test cases, {run['skipped']:.0f} skips, "
                f"{run['predicates']:.0f} predicates, {run['facts']:.0f} facts, "
                f"{run['entities']:.0f} entities"
            )
    seconds_40k = statistics.median(r["seconds"] for r in runs_40k)
    seconds_1m = statistics.median(r["seconds"] for r in runs_1m)
    peak_mb = max(r["peak_mb"] for r in runs_40k + runs_1m)
    print("official INVITE script (reported): 76 s for 5,000 questions from one 40k predicate")
    print(f"seconds_40k={seconds_40k:.3f} seconds_1m={seconds_1m:.3f} peak_mb={peak_mb:.1f}")


if __name__ == "__main__":
    main()
