"""Leave-one-model-out figures of the premise judge over every labelled model (issue 27).

Each labelled model is a fold. The rule judge is not fitted, so its figure on a fold is its
figure on that model; which folds its rules were written on is said in docs/judge.md. The
learned judge (calibrated logistic regression over the rule features and the MiniLM cosine
between the question and the reply's answer head) is refitted per fold on the *other*
models' rows only. Printed per fold and mode: n, agreement, Cohen's kappa, the judge's rate
and the human rate, then the rule judge's confusion by decision step, the learned judge's
reliability table (pooled held-out probabilities), the figures per half of the team-labelled
folds (dev halves read while writing rules, test halves never), and last the summary line: the worst
fold's agreement and rate gap per mode and the mode those figures choose.

    PYTHONPATH=src python benchmarks/premise_judge_lomo.py            # the five default files
    PYTHONPATH=src python benchmarks/premise_judge_lomo.py --no-learned FILE.jsonl ...

Needs scikit-learn (``halluforge[judge]``); the learned judge also ``halluforge[retrieval]``.
The INVITE files are read from ``../shared/data/invite_labels_dev/`` (CC-BY-NC, not shipped);
missing ones are skipped with a note.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data" / "invite_labels_dev"
DEFAULT_FILES = [
    SHARED / "GPT3.5Turbo.json",
    SHARED / "GPTJ6B.json",
    SHARED / "GPTNeo2.7B.json",
    ROOT / "tests" / "data" / "judge" / "smollm2_invite_labels.jsonl",
    ROOT / "tests" / "data" / "judge" / "smollm2_t08_invite_labels.jsonl",
]
#: SmolLM2 asked through other chat formats or with new seeds, each labelled blind
#: (tests/data/judge/README.md): reply styles outside the folds, judged by the rule judge and by a
#: learned judge fitted on all five folds
STYLE_FILES = [
    ROOT / "tests" / "data" / "judge" / f"smollm2_{style}_invite_labels.jsonl"
    for style in (
        *("alpaca", "vicuna", "zephyr", "llama2", "gemma", "openchat"),
        *(
            "llama3",
            "redpajamaincite",
            "intel",
            "phind",
            "mistralinstruct",
            "oasstllama",
            "openorca",
            "saiga",
        ),
        *("seed8", "t08_seed9", "t08_seed10", "seed11", "t08_seed12", "seed13", "t08_seed14", "seed15"),
        *("seed16", "t08_seed17", "seed18", "t08_seed19", "seed20", "t08_seed21", "seed22", "t08_seed23"),
        *("t08_seed24", "t08_seed25", "t08_seed26", "t08_seed27"),
        *("t08_seed28", "t08_seed29", "t08_seed30", "t08_seed31"),
        *("t08_seed40", "t08_seed41", "t08_seed42", "t08_seed43"),
    )
]
#: replies written by a capable assistant (a helper session) under the closed-book prompt and in
#: plain chat, labelled blind (tests/data/judge/README.md): the style of a strong chat model
STYLE_FILES += [
    ROOT / "tests" / "data" / "judge" / f"assistant_{style}_invite_labels.jsonl"
    for style in ("short", "short2", "short3", "chat", "chat2")
]
#: the acceptance of issue 27, per fold, for the default mode
MIN_AGREEMENT = 0.90
MAX_RATE_GAP = 0.05


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="labelled INVITE-format JSON lines")
    parser.add_argument("--no-learned", action="store_true", help="rule judge only (no encoder needed)")
    args = parser.parse_args()
    from halluforge.families.invite.cli import premise_inputs, read_invite_rows
    from halluforge.families.invite.judge.evaluate import agreement, confusion_by_step

    rows: list[dict[str, Any]] = []
    for path in args.files or DEFAULT_FILES:
        if not path.is_file():
            print(f"note: skipped {path} (not present)")
            continue
        part = read_invite_rows(path)
        for row in part:
            row["model"] = str(row.get("model") or path.stem)
        rows.extend(part)
    inputs = premise_inputs(rows)
    human = [int(r["hallucination_label"]) for r in rows]
    models = [str(r["model"]) for r in rows]
    started = time.perf_counter()
    verdicts = _rule_verdicts(inputs)
    rule_seconds = time.perf_counter() - started
    labels: dict[str, list[int]] = {"rule": [v.label for v in verdicts]}
    probabilities: list[float] = []
    if not args.no_learned:
        from halluforge.families.invite.judge.core import VETO_STEPS
        from halluforge.families.invite.judge.learned import lomo_predictions

        learned = lomo_predictions(inputs, human, models)
        probabilities = [p for _, p in learned]
        labels["learned"] = [label for label, _ in learned]
        labels["learned-with-rule-veto"] = [
            0 if v.label == 0 and v.step in VETO_STEPS else label
            for v, (label, _) in zip(verdicts, learned, strict=True)
        ]
    folds = sorted(set(models), key=models.index)
    worst: dict[str, tuple[float, float]] = {}
    mean: dict[str, float] = {}
    print("| fold | mode | n | agreement | kappa | judge rate | human rate | gap |")
    print("|---|---|---|---|---|---|---|---|")
    for mode, judged in labels.items():
        low_agreement, high_gap, total = 1.0, 0.0, 0.0
        for fold in folds:
            idx = [i for i, m in enumerate(models) if m == fold]
            figures = agreement([human[i] for i in idx], [judged[i] for i in idx], n_boot=200)
            low_agreement = min(low_agreement, figures.agreement)
            total += figures.agreement
            high_gap = max(high_gap, abs(figures.rate_gap))
            print(
                f"| {fold} | {mode} | {figures.n} | {figures.agreement:.3f} | {figures.kappa:.3f} |"
                f" {figures.rate:.3f} | {figures.human_rate:.3f} | {figures.rate_gap:+.3f} |"
            )
        worst[mode] = (low_agreement, high_gap)
        mean[mode] = total / len(folds)
    _print_halves(rows, labels, human)
    _print_confusion(confusion_by_step([(v.step, v.reason) for v in verdicts], human, labels["rule"]))
    _print_splits(verdicts, human, labels["rule"])
    if probabilities:
        _print_reliability(probabilities, human)
    if not args.files:
        _print_styles(rows, human, learned=not args.no_learned)
        _print_second_readers()
    print(f"rule judge: {len(rows)} replies in {rule_seconds:.2f} s")
    meets = [m for m, (a, g) in worst.items() if a >= MIN_AGREEMENT and g <= MAX_RATE_GAP + 1e-9]
    # ties on the worst fold and the largest gap go to the higher mean agreement over the folds
    chosen = max(worst, key=lambda m: (m in meets, worst[m][0], -worst[m][1], mean[m]))
    print(
        "summary: "
        + " ".join(f"{m}: min_agreement={a:.3f} max_gap={g:.3f};" for m, (a, g) in worst.items())
        + f" meets_acceptance={','.join(meets) or 'none'} chosen={chosen}"
    )
    return 0


def _print_styles(fold_rows: list[dict[str, Any]], fold_human: list[int], *, learned: bool) -> None:
    """The reply-style files: agreement over the whole file and per half, rule and learned judge.

    The learned judge here is fitted once on every row of the five folds, none of which is a
    style file's. Which halves were read while writing rules is said in tests/data/judge/README.md.
    """
    from halluforge.families.invite.cli import premise_inputs, read_invite_rows
    from halluforge.families.invite.judge.evaluate import agreement

    judge = None
    if learned:
        from halluforge.families.invite.judge.learned import featurize, fit_calibrated

        judge = fit_calibrated(featurize(premise_inputs(fold_rows)), fold_human)
    print("\n| reply style (outside the folds) | mode | n | agreement | kappa | judge rate | human rate |"
          " dev half | test half |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    for path in STYLE_FILES:
        if not path.is_file():
            continue
        rows = read_invite_rows(path)
        inputs = premise_inputs(rows)
        human = [int(r["hallucination_label"]) for r in rows]
        modes = {"rule": [v.label for v in _rule_verdicts(inputs)]}
        if judge is not None:
            modes["learned"] = [int(p >= 0.5) for p in judge.predict_proba_1(featurize(inputs))]
        style = path.stem.removeprefix("smollm2_").removesuffix("_invite_labels")
        for mode, judged in modes.items():
            figures = agreement(human, judged, n_boot=200)
            cells = []
            for half in ("dev", "test"):
                idx = [i for i, r in enumerate(rows) if _half(r) == half]
                agree = sum(judged[i] == human[i] for i in idx)
                cells.append(f"{agree}/{len(idx)} = {agree / len(idx):.3f}")
            print(
                f"| {style} | {mode} | {figures.n} | {figures.agreement:.3f} | {figures.kappa:.3f} |"
                f" {figures.rate:.3f} | {figures.human_rate:.3f} | {cells[0]} | {cells[1]} |"
            )


def _print_second_readers() -> None:
    """Files labelled twice, blind (``*_reader2.jsonl``): how far two readers agree, and the judge.

    The judge's agreement on the rows both readers label alike is its figure where the label is
    not in doubt; the readers' agreement is the ceiling a judge can be held to.
    """
    from sklearn.metrics import cohen_kappa_score

    from halluforge.families.invite.cli import premise_inputs, read_invite_rows

    print("\n| labelled twice | n | readers agree | readers' kappa | judge ~ first | judge ~ second |"
          " judge ~ rows both agree on |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for path in STYLE_FILES:
        second_path = path.with_name(path.stem + "_reader2.jsonl")
        if not (path.is_file() and second_path.is_file()):
            continue
        rows = read_invite_rows(path)
        lines = second_path.read_text(encoding="utf-8").splitlines()
        second = {r["id"]: int(r["hallucination_label"]) for r in map(json.loads, lines)}
        first = [int(r["hallucination_label"]) for r in rows]
        other = [second[r["id"]] for r in rows]
        judged = [v.label for v in _rule_verdicts(premise_inputs(rows))]
        both = [j for a, b, j in zip(first, other, judged, strict=True) if a == b]
        alike = [a for a, b in zip(first, other, strict=True) if a == b]
        n = len(rows)

        def share(x: list[int], y: list[int]) -> str:
            return f"{sum(a == b for a, b in zip(x, y, strict=True)) / len(x):.3f}"

        style = path.stem.removeprefix("smollm2_").removesuffix("_invite_labels")
        print(
            f"| {style} | {n} | {share(first, other)} | {cohen_kappa_score(first, other):.3f} |"
            f" {share(judged, first)} | {share(judged, other)} | {share(both, alike)} ({len(alike)}) |"
        )


def _rule_verdicts(inputs: list[Any]) -> list[Any]:
    """The rule judge's verdict on each premise input, read as ``halluforge judge`` reads it."""
    from halluforge.families.invite.judge.steps import rule_judge

    return [
        rule_judge(
            i.question, i.response, entities=i.entities, invalid=i.invalid, valid_answers=i.valid_answers
        )
        for i in inputs
    ]


def _half(row: dict[str, Any]) -> str:
    """A team-labelled row's half: dev (sha256(id) % 2 == 0, read while writing rules) or test."""
    digest = hashlib.sha256(str(row["id"]).encode("utf-8")).hexdigest()
    return "test" if int(digest, 16) % 2 else "dev"


def _print_halves(rows: list[dict[str, Any]], labels: dict[str, list[int]], human: list[int]) -> None:
    """Agreement per half of each team-labelled fold (the test halves' replies are never read)."""
    halves: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        if row.get("label_source") == "halluforge-team" and row.get("id") is not None:
            halves[(str(row["model"]), _half(row))].append(i)
    if not halves:
        return
    print("\n| fold half | mode | n | agreement | judge rate | human rate |")
    print("|---|---|---|---|---|---|")
    for (fold, half), idx in sorted(halves.items()):
        for mode, judged in labels.items():
            agree = sum(judged[i] == human[i] for i in idx)
            rate = sum(judged[i] for i in idx) / len(idx)
            human_rate = sum(human[i] for i in idx) / len(idx)
            print(
                f"| {fold} {half} | {mode} | {len(idx)} | {agree}/{len(idx)} = {agree / len(idx):.3f} |"
                f" {rate:.3f} | {human_rate:.3f} |"
            )


def _print_confusion(table: dict[tuple[str, str], dict[str, int]]) -> None:
    print("\n| step | reason | n | agree | judge 1, human 0 | judge 0, human 1 |")
    print("|---|---|---|---|---|---|")
    order = {"engagement": 0, "stance": 1, "assertion": 2}
    for (step, reason), cell in sorted(table.items(), key=lambda kv: (order.get(kv[0][0], 3), -kv[1]["n"])):
        print(
            f"| {step} | {reason} | {cell['n']} | {cell['agree']} | {cell['false_1']} | {cell['false_0']} |"
        )


def _print_splits(verdicts: list[Any], human: list[int], judged: list[int]) -> None:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for verdict, h, j in zip(verdicts, human, judged, strict=True):
        counts[verdict.split or "(whole reply)"][0] += 1
        counts[verdict.split or "(whole reply)"][1] += int(h == j)
    print("\n| answer ended by | n | agree |")
    print("|---|---|---|")
    for split, (n, agree) in sorted(counts.items(), key=lambda kv: -kv[1][0]):
        print(f"| {split} | {n} | {agree} |")


def _print_reliability(probabilities: list[float], human: list[int]) -> None:
    from halluforge.families.invite.judge.evaluate import expected_calibration_error, reliability

    bins = reliability(probabilities, human, bins=5)
    print("\n| learned P(1) | n | mean P(1) | observed rate of 1 |")
    print("|---|---|---|---|")
    for b in bins:
        print(f"| {b.low:.1f}-{b.high:.1f} | {b.n} | {b.mean_probability:.3f} | {b.observed_rate:.3f} |")
    brier = sum((p - y) ** 2 for p, y in zip(probabilities, human, strict=True)) / len(human)
    print(f"learned calibration: ECE={expected_calibration_error(bins):.3f} Brier={brier:.3f}")


if __name__ == "__main__":
    raise SystemExit(main())
