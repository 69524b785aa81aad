"""Valid-case shares and LLM-vs-fallback split of a counterfactual run (the RECALL acceptance figures).

Reads a run directory's store: for each variant (qa_a, qa_na, textgen) the test cases forged,
how many passed every check, the inputs skipped for that variant (a whole-input skip counts
against every variant), and, per provenance field, how many cases took the LLM path. Repeats
of one choice case (``repeats: N``) are counted once.

    python benchmarks/recall_forge_shares.py runs/<run-id>

Last line: ``valid qa_a=<k>/<n> qa_na=<k>/<n> textgen=<k>/<n> llm_fields=<k>/<n>``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    args = parser.parse_args()
    from halluforge.records import Skip, TestCase
    from halluforge.store import RunStore

    store = RunStore(args.run)
    cases = [
        c for c in store.all(TestCase) if c.family == "counterfactual" and c.metadata.get("repeat", 0) == 0
    ]
    skips = [s for s in store.all(Skip) if s.stage == "forge:counterfactual"]
    store.close()
    whole = [s for s in skips if " not forged (" not in s.reason]
    line = []
    llm = total = 0
    for variant in ("qa_a", "qa_na", "textgen"):
        mine = [c for c in cases if c.variant == variant]
        skipped = [s for s in skips if s.reason.startswith(f"{variant} not forged")]
        n = len(mine) + len(skipped) + len(whole)
        valid = sum(c.valid for c in mine)
        gone = len(skipped) + len(whole)
        print(f"{variant}: forged {len(mine)}, valid {valid}, skipped {gone}, valid share {valid}/{n}")
        paths: Counter[tuple[str, str]] = Counter()
        for case in mine:
            for name, prov in case.provenance.fields.items():
                paths[(name, f"{prov.path}:{prov.method}")] += 1
        for (name, path), count in sorted(paths.items()):
            print(f"  {name:<22} {path:<45} {count}")
            total += count if variant == "qa_a" else 0
            llm += count if variant == "qa_a" and path.startswith("llm") else 0
        line.append(f"{variant}={valid}/{n}")
    for skip in skips:
        print(f"skip {skip.item}: {skip.reason}", file=sys.stderr)
    print("valid " + " ".join(line) + f" llm_fields={llm}/{total}")


if __name__ == "__main__":
    main()
