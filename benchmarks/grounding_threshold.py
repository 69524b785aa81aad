"""The grounding validator's recall threshold, set on one half of the ReEval merges, checked on the other.

Data: the ReEval authors' 814 RealtimeQA Category 2 rows (``realtime_cat2_retrieve_by_query.json``
or ``..._by_evidence.json``). Each row has the authors' supporting sentence (``supporting_sen``),
their gpt-3.5 summary of the retrieved passages (``new_retrieval_info``) and their merge
(``condensed_evidence``), the text our merge step makes. The authors' readers judged about 92% of
these merges readable and supportive, so their sentences are the positives: read against their own
sources, a sound validator keeps nearly all of them. The negatives are the same sentences read
against the sources of the *most similar other row* (highest content-word recall): on topic,
but not what those sources say.

Rows with an even index are the tuning half, odd ones the held-out half. On the tuning half the
threshold is chosen by a rule fixed before looking at the held-out half: the highest multiple of
0.05 that keeps at least 90% of the positives by recall. Both halves then report, at that
threshold and at the one shipped (``grounding.MIN_RECALL``): positives kept, negatives dropped,
and, for the full validator (form, numbers, names, recall), what it does to each merge:
**kept** (no sentence dropped), **trimmed** (some dropped, the rest still keeps the answer and
adds to the supporting sentence) or **replaced** (the extractive fallback would be used). Only
rows whose merge contains the gold answer count there (about a quarter of RealtimeQA answers are
paraphrased choices found in no evidence).

    python benchmarks/grounding_threshold.py
    python benchmarks/grounding_threshold.py --data path/to/realtime_cat2_retrieve_by_evidence.json

The last line is ``threshold=<tuned> shipped=<MIN_RECALL> heldout_pos_kept=<..>
heldout_neg_dropped=<..> kept=<..> trimmed=<..> replaced=<..> n=<merges>`` (the last four on
the held-out half).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from halluforge.families.context_enrich import PROMPTS
from halluforge.families.context_enrich.enrich_text import check_merge, has_answer
from halluforge.families.context_enrich.grounding import MIN_RECALL, Sources, ground, instructions_of
from halluforge.prompts import load_template
from halluforge.textkit.markup import strip_html
from halluforge.textkit.sentences import split_sentences

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = Path("/work/shared/data/reeval/realtime_cat2_retrieve_by_query.json")
KEEP_TARGET = 0.90


def unquote(text: str) -> str:
    """The authors' fields without HTML and the wrapping quotes some of them carry."""
    text = strip_html(text)
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1].strip()
    return text


def recalls(rows: list[dict[str, Any]], sources: list[Sources]) -> tuple[list[float], list[float]]:
    """(own-source recall, nearest-other-row recall) for every sentence of every merge."""
    positives: list[float] = []
    negatives: list[float] = []
    for i, row in enumerate(rows):
        for sentence in split_sentences(unquote(row["condensed_evidence"])):
            positives.append(sources[i].support(sentence)[0])
            negatives.append(max(s.support(sentence)[0] for j, s in enumerate(sources) if j != i))
    return positives, negatives


def choose(positives: list[float]) -> float:
    """The highest multiple of 0.05 keeping at least :data:`KEEP_TARGET` of the positives."""
    best = 0.0
    for step in range(1, 20):
        threshold = step / 20
        if sum(p >= threshold for p in positives) / len(positives) >= KEEP_TARGET:
            best = threshold
    return best


def outcomes(rows: list[dict[str, Any]], sources: list[Sources], threshold: float) -> Counter[str]:
    """What the full validator does to each merge that contains the answer."""
    counts: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for row, source in zip(rows, sources, strict=True):
        merged, support = unquote(row["condensed_evidence"]), unquote(row["supporting_sen"])
        summary, answers = unquote(row["new_retrieval_info"]), [unquote(row["answer"])]
        if not has_answer(merged, answers):
            counts["no_answer"] += 1
            continue
        verdict = ground(merged, source, min_recall=threshold)
        reasons.update(verdict.dropped)
        if not verdict.trimmed:
            counts["kept"] += 1
        elif verdict.kept and not check_merge(verdict.text, support, summary, answers):
            counts["trimmed"] += 1
        else:
            counts["replaced"] += 1
        counts["sentences"] += len(verdict.checks)
    counts.update({f"dropped:{k}": v for k, v in reasons.items()})
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    if not args.data.is_file():
        print(f"no data at {args.data}")
        sys.exit(2)
    rows: list[dict[str, Any]] = json.loads(args.data.read_text(encoding="utf-8"))
    instructions = instructions_of(load_template("context_enrich/merge", PROMPTS).text)
    sources = [
        Sources.of([unquote(r["supporting_sen"]), unquote(r["new_retrieval_info"])], instructions)
        for r in rows
    ]
    halves = {"tuning": (rows[0::2], sources[0::2]), "heldout": (rows[1::2], sources[1::2])}
    pos, neg = recalls(*halves["tuning"])
    tuned = choose(pos)
    print(f"{args.data.name}: {len(rows)} rows; tuning half {len(halves['tuning'][0])}, held-out half")
    print(f"tuned threshold (highest 0.05 step keeping >= {KEEP_TARGET:.0%} of tuning positives): {tuned}")
    final: dict[str, float] = {}
    for name, (part_rows, part_sources) in halves.items():
        pos, neg = recalls(part_rows, part_sources)
        for threshold in sorted({tuned, MIN_RECALL}):
            kept = sum(p >= threshold for p in pos) / len(pos)
            dropped = sum(n < threshold for n in neg) / len(neg)
            print(
                f"  {name:7s} t={threshold:.2f}: positives kept {kept:.3f} (n={len(pos)}), "
                f"negatives dropped {dropped:.3f} (n={len(neg)})"
            )
            if name == "heldout" and threshold == MIN_RECALL:
                final.update(pos_kept=kept, neg_dropped=dropped)
        counts = outcomes(part_rows, part_sources, MIN_RECALL)
        merges = counts["kept"] + counts["trimmed"] + counts["replaced"]
        drops = {k.split(":", 1)[1]: v for k, v in counts.items() if k.startswith("dropped:")}
        print(
            f"  {name:7s} full validator at {MIN_RECALL}: {merges} merges with the answer "
            f"({counts['no_answer']} without): kept {counts['kept']}, trimmed {counts['trimmed']}, "
            f"replaced {counts['replaced']}; {sum(drops.values())} of {counts['sentences']} sentences "
            f"dropped {dict(sorted(drops.items()))}"
        )
        if name == "heldout":
            final.update(
                kept=counts["kept"] / merges,
                trimmed=counts["trimmed"] / merges,
                replaced=counts["replaced"] / merges,
                n=merges,
            )
    print(
        f"threshold={tuned:.2f} shipped={MIN_RECALL:.2f} heldout_pos_kept={final['pos_kept']:.3f} "
        f"heldout_neg_dropped={final['neg_dropped']:.3f} kept={final['kept']:.3f} "
        f"trimmed={final['trimmed']:.3f} replaced={final['replaced']:.3f} n={int(final['n'])}"
    )


if __name__ == "__main__":
    main()
