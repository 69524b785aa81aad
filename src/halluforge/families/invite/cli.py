"""``halluforge judge premise FILE.jsonl``: INVITE's premise judge on existing responses.

Reads INVITE-format JSON lines (``invalid_question``, ``model_response_to_invalid_question``,
optional ``answer_to_invalid_question``, ``valid_question``, ``answers_to_valid_question``,
``category``, ``model`` and ``hallucination_label``), writes every row back with ``judge_label``,
one ``judge_<mode>`` label per mode and the rule's reason, and prints hallucination rates per
model and category.
When human labels are present the LAST line is
``agreement=<float> kappa=<float> rate=<judge rate> human_rate=<float>`` over all rows.

``--evaluate`` adds bootstrap intervals on every rate and says how each figure was measured:
the learned mode without ``--learned-model`` is fitted leave-one-model-out over the given files
(every model's rows judged by a judge that never saw that model); with ``--learned-model``,
rows that judge was trained on are counted and named in-sample. ``halluforge judge train``
fits a learned judge and saves it with its manifest and its cross-validated figures.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REQUIRED = ("invalid_question", "model_response_to_invalid_question")


def add_parser(subparsers: Any) -> None:
    """Register ``judge premise``."""
    judge = subparsers.add_parser("judge", help="judge existing responses (INVITE premise judge)")
    judge_sub = judge.add_subparsers(dest="judge_command", metavar="SUBCOMMAND")
    judge.set_defaults(handler=lambda args: judge.print_help() or 0)
    premise = judge_sub.add_parser(
        "premise",
        help="label responses to false-premise questions: 1 went along, 0 rejected/declined/degenerate",
        description="Judge INVITE-format JSON lines. With human labels (hallucination_label) the last "
        "line reports agreement, Cohen's kappa, the judge's rate and the human rate.",
    )
    premise.add_argument("files", nargs="+", metavar="FILE.jsonl", help="INVITE-format JSON lines")
    premise.add_argument(
        "--modes", default="rule", help="comma list of rule, nli, llm, learned (default: rule)"
    )
    premise.add_argument(
        "--combine", default="any", help="any (default), majority, all or learned-with-rule-veto"
    )
    premise.add_argument(
        "--learned-model",
        help="folder of a judge from `halluforge judge train` (learned mode; with --evaluate and "
        "without it, the learned judge is fitted leave-one-model-out over FILES)",
    )
    premise.add_argument(
        "--evaluate",
        action="store_true",
        help="agreement with the human labels per model and category, rates with bootstrap intervals",
    )
    premise.add_argument("--nli-model", help="NLI model: local folder or hub id (nli mode)")
    premise.add_argument("--judge-model", help="judge model address, e.g. llamacpp/smollm2-135m (llm mode)")
    premise.add_argument("--out", help="output JSON lines (default: FILE.judged.jsonl next to each input)")
    premise.add_argument(
        "--text-metrics",
        action="store_true",
        help="also print mean BLEU, METEOR and ROUGE-L against the reference and disengagement answers",
    )
    premise.add_argument(
        "--table", action="store_true", help="print INVITE Table 2 (rates with CIs) as Markdown"
    )
    premise.set_defaults(handler=handle_premise)
    train = judge_sub.add_parser(
        "train",
        help="fit the learned premise judge on labelled JSON lines and save it with its manifest",
        description="Fit a logistic regression over the rule features and the MiniLM cosine of "
        "the question and the reply's answer head on "
        "INVITE-format rows with hallucination_label; prints and saves 5-fold cross-validated and "
        "leave-one-model-out figures (the only figures to quote for a learned judge).",
    )
    train.add_argument("files", nargs="+", metavar="FILE.jsonl", help="labelled INVITE-format JSON lines")
    train.add_argument("--out", required=True, help="folder to write model.json and manifest.json into")
    train.add_argument("--encoder", default="all-MiniLM-L6-v2", help="sentence-transformers encoder")
    train.set_defaults(handler=handle_train)


def read_invite_rows(path: Path) -> list[dict[str, Any]]:
    """Read and check INVITE JSON lines; a bad line raises DataError naming file and line."""
    from halluforge.errors import DataError
    from halluforge.limits import regular_file

    if not path.exists():
        raise DataError("file not found", path=str(path), hint="give an existing .jsonl file")
    regular_file(path)  # not a folder, FIFO or device
    from halluforge.data.tabular import iter_json_lines

    rows: list[dict[str, Any]] = []
    for number, row in iter_json_lines(path):
        for name in REQUIRED:
            if not isinstance(row.get(name), str):
                raise DataError(
                    "missing or not a string", path=str(path), line=number, field=name,
                    hint=f"every line needs {', '.join(REQUIRED)}",
                )  # fmt: skip
        label = row.get("hallucination_label")
        if label is not None and str(label).strip() not in ("0", "1"):
            raise DataError(
                f"must be 0 or 1, got {label!r}", path=str(path), line=number,
                field="hallucination_label", hint="use \"1\" (went along) or \"0\" (rejected)",
            )  # fmt: skip
        answers = row.get("answers_to_valid_question")
        listed = isinstance(answers, list) and all(isinstance(a, str) for a in answers)
        if answers is not None and not (isinstance(answers, str) or listed):
            raise DataError(
                f"must be a string or a list of strings, got {answers!r}", path=str(path), line=number,
                field="answers_to_valid_question", hint='e.g. ["Neil Armstrong", "Armstrong"] or drop it',
            )  # fmt: skip
        row.setdefault("model", path.stem)
        rows.append(row)
    if not rows:
        raise DataError(
            "no rows to judge", path=str(path), hint="the file is empty; give INVITE-format JSON lines"
        )
    return rows


def premise_inputs(rows: list[dict[str, Any]]) -> list[Any]:
    """Judge inputs of INVITE rows (swapped entity from the row, else from the valid question)."""
    from halluforge.families.invite.judge import PremiseInput, swapped_span

    inputs = []
    for row in rows:
        swapped = row.get("swapped_entity")
        if not swapped and isinstance(row.get("valid_question"), str):
            swapped = swapped_span(row["valid_question"], row["invalid_question"])
        answers = row.get("answers_to_valid_question") or ()
        inputs.append(
            PremiseInput(
                question=row["invalid_question"],
                response=row["model_response_to_invalid_question"],
                reference=str(row.get("answer_to_invalid_question") or ""),
                entities=(str(swapped),) if swapped else (),
                valid_answers=(answers,) if isinstance(answers, str) else tuple(answers),
            )
        )
    return inputs


def _judge_rows(rows: list[dict[str, Any]], args: argparse.Namespace) -> list[dict[str, Any]]:
    import asyncio

    from halluforge.families.invite.judge import JudgeOptions, ajudge_premise, combine
    from halluforge.families.invite.judge.core import VETO_STEPS

    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    lomo = "learned" in modes and not args.learned_model
    options = JudgeOptions.from_options(
        {
            "modes": ([m for m in modes if m != "learned"] or ["rule"]) if lomo else modes,
            "combine": args.combine,
            "learned_model": args.learned_model,
        },
        args.nli_model,
    )
    inputs = premise_inputs(rows)

    async def go() -> list[Any]:
        backend = None
        if "llm" in options.modes and args.judge_model:
            from halluforge.backends import ResponseCache, default_cache_path, open_backend
            from halluforge.families.invite.judge.llm import SMALL_JUDGE_WARNING, is_small_judge

            backend = open_backend(args.judge_model, cache=ResponseCache(default_cache_path()))
            if is_small_judge(backend.name):
                print(f"warning: {SMALL_JUDGE_WARNING}", file=sys.stderr)
        try:
            return await ajudge_premise(inputs, options, judge=backend)
        finally:
            if backend is not None:
                await backend.aclose()

    judgements = asyncio.run(go())
    learned = _lomo_learned(rows, inputs) if lomo else None
    out = []
    for i, (row, judgement) in enumerate(zip(rows, judgements, strict=True)):
        judged = dict(row)
        per_mode, notes, label = dict(judgement.per_mode), dict(judgement.notes), judgement.label
        if learned is not None:
            if "rule" not in modes:
                per_mode.pop("rule", None)
            per_mode["learned"], notes["learned_probability"] = learned[i][0], round(learned[i][1], 4)
            notes["learned"] = "leave-one-model-out: fitted without this row's model"
            rule_label = judgement.per_mode.get("rule")
            veto = rule_label == 0 and notes.get("rule_step") in VETO_STEPS
            label = combine(per_mode, args.combine, rule_veto=veto)
        judged["judge_label"] = label
        for mode, mode_label in per_mode.items():
            judged[f"judge_{mode}"] = mode_label
        judged["judge_notes"] = notes
        out.append(judged)
    return out


def _lomo_learned(rows: list[dict[str, Any]], inputs: list[Any]) -> list[tuple[int, float]]:
    from halluforge.errors import ConfigError
    from halluforge.families.invite.judge.learned import lomo_predictions

    if any(r.get("hallucination_label") is None for r in rows):
        raise ConfigError(
            "the learned mode without --learned-model is fitted leave-one-model-out and needs "
            "hallucination_label on every row",
            hint="label every row, or train a judge with `halluforge judge train` and pass --learned-model",
        )
    labels = [int(r["hallucination_label"]) for r in rows]
    models = [str(r["model"]) for r in rows]
    if len(set(models)) < 2:
        raise ConfigError(
            "the learned mode without --learned-model is fitted leave-one-model-out and needs the "
            f"labelled responses of at least two models (got {sorted(set(models))})",
            hint="add another model's labelled file (the model is the row's 'model' field or the file name)",
        )
    return lomo_predictions(inputs, labels, models)


def _write(rows: list[dict[str, Any]], path: Path) -> None:
    tmp = path.with_name(path.name + ".tmp")
    try:
        with tmp.open("w", encoding="utf-8") as handle:
            for row in rows:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)  # a failed write leaves nothing behind
        raise


def _rate(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def _agreement(rows: list[dict[str, Any]]) -> tuple[float, float, float, float] | None:
    """(agreement, kappa, judge rate, human rate) over rows with both labels, or None."""
    from halluforge.families.invite.judge.evaluate import agreement_rate, kappa

    both = [r for r in rows if r.get("hallucination_label") is not None and r["judge_label"] is not None]
    if not both:
        return None
    human = [int(r["hallucination_label"]) for r in both]
    mine = [int(r["judge_label"]) for r in both]
    return agreement_rate(human, mine), kappa(human, mine), _rate(mine), _rate(human)


def _line(prefix: str, rows: list[dict[str, Any]], evaluate: bool = False) -> str:
    judged = [r for r in rows if r["judge_label"] is not None]
    labelled = [r for r in judged if r.get("hallucination_label") is not None]
    if evaluate and labelled:
        from halluforge.families.invite.judge.evaluate import agreement, format_agreement

        human = [int(r["hallucination_label"]) for r in labelled]
        text = format_agreement(prefix, agreement(human, [int(r["judge_label"]) for r in labelled]))
        if len(labelled) < len(rows):
            text += f" not_judged_or_unlabelled={len(rows) - len(labelled)}"
        return text
    text = f"{prefix} n={len(rows)} rate={_rate([r['judge_label'] for r in judged]):.3f}"
    figures = _agreement(rows)
    if figures is not None:
        agree, kappa, _, human_rate = figures
        text += f" human_rate={human_rate:.3f} agreement={agree:.3f} kappa={kappa:.3f}"
    if len(judged) < len(rows):
        text += f" not_judged={len(rows) - len(judged)}"
    return text


def _print_text_metrics(rows: list[dict[str, Any]]) -> None:
    from halluforge.metrics.text import DISENGAGE_ANSWERS, bleu, meteor, rouge_l

    by_model: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_model[str(row["model"])].append(row)
    for model, group in sorted(by_model.items()):
        parts = []
        for name, fn in (("bleu", bleu), ("meteor", meteor), ("rouge_l", rouge_l)):
            ref = [fn(r["model_response_to_invalid_question"], str(r.get("answer_to_invalid_question") or ""))
                   for r in group]  # fmt: skip
            dis = [max((fn(r["model_response_to_invalid_question"], d) or 0.0) for d in DISENGAGE_ANSWERS)
                   for r in group]  # fmt: skip
            if any(v is None for v in ref):
                parts.append(f"{name}=not_computed")
                continue
            parts.append(f"{name}={_rate([v or 0.0 for v in ref]):.3f} {name}_disengage={_rate(dis):.3f}")
        print(f"text model={model} " + " ".join(parts))


def _table(rows: list[dict[str, Any]]) -> str:
    from halluforge.families.invite.report import render_invite_table
    from halluforge.records import Score, stable_id

    scores = []
    for row in rows:
        label = row["judge_label"]
        text = row["model_response_to_invalid_question"]
        rid = stable_id("judge-cli", row["model"], row["invalid_question"], text)
        scores.append(
            Score(
                id=rid,
                response_id=rid,
                test_case_id=str(row.get("id") or rid),
                model=str(row["model"]),
                setting="-",
                family="false_premise",
                metric="premise_judge",
                value=None if label is None else float(label),
                details={"category": row["category"]} if row.get("category") else {},
            )
        )
    return render_invite_table(scores)


def _protocol_notes(rows: list[dict[str, Any]], modes: list[str], args: argparse.Namespace) -> list[str]:
    """How the figures below were measured, so no in-sample figure passes for a held-out one."""
    notes = []
    if "rule" in modes:
        notes.append(
            "rule mode is hand-written, not fitted: its figures are per model as they stand; they are "
            "in-sample on rows its author read while writing it (the INVITE dev labels, see docs/judge.md)"
        )
    if "learned" in modes and not args.learned_model:
        notes.append("learned mode: leave-one-model-out (each model judged by a judge fitted on the others)")
    elif "learned" in modes:
        from halluforge.families.invite.judge.learned import load_learned, row_hash

        trained = set(load_learned(args.learned_model).manifest.get("row_hashes", []))
        seen = sum(1 for item in premise_inputs(rows) if row_hash(item) in trained)
        notes.append(
            f"learned mode: {seen} of {len(rows)} rows were in the judge's training data: "
            + ("figures on them are in-sample" if seen else "all figures are held out")
        )
    return notes


def handle_train(args: argparse.Namespace) -> int:
    """Fit the learned judge, measure it by cross-validation and leave-one-model-out, save it."""
    import hashlib
    from datetime import UTC, datetime

    from halluforge import __version__
    from halluforge.errors import DataError
    from halluforge.families.invite.judge.evaluate import (
        agreement,
        cross_validate,
        format_agreement,
        leave_one_model_out,
    )
    from halluforge.families.invite.judge.learned import featurize, fit_classifier, train

    rows: list[dict[str, Any]] = []
    files = []
    for name in args.files:
        path = Path(name)
        part = read_invite_rows(path)
        unlabelled = [i + 1 for i, r in enumerate(part) if r.get("hallucination_label") is None]
        if unlabelled:
            raise DataError(
                "rows without hallucination_label", path=str(path), line=unlabelled[0],
                field="hallucination_label", hint="training needs a 0/1 label on every row",
            )  # fmt: skip
        files.append(
            {"path": str(path), "sha256": hashlib.sha256(path.read_bytes()).hexdigest(), "rows": len(part)}
        )
        rows.extend(part)
    inputs = premise_inputs(rows)
    labels = [int(r["hallucination_label"]) for r in rows]
    models = [str(r["model"]) for r in rows]
    matrix = featurize(inputs, args.encoder)

    def fit(features: Any, train_labels: Any) -> Any:
        return fit_classifier(features, train_labels).predict

    figures: dict[str, Any] = {}
    cv = agreement(labels, cross_validate(matrix, labels, fit))
    figures["cross_validated_5fold"] = cv.__dict__
    print(format_agreement("cv5 all", cv))
    if len(set(models)) > 1:
        held = leave_one_model_out(matrix, labels, models, fit)
        for name, predicted in sorted(held.items()):
            fold = agreement([y for y, m in zip(labels, models, strict=True) if m == name], predicted)
            figures[f"lomo:{name}"] = fold.__dict__
            print(format_agreement(f"lomo model={name}", fold))
    per_model = {
        m: {
            "rows": models.count(m),
            "positives": sum(y for y, n in zip(labels, models, strict=True) if n == m),
        }
        for m in sorted(set(models))
    }
    manifest = {
        "created": datetime.now(UTC).isoformat(timespec="seconds"), "halluforge": __version__,
        "files": files, "models": per_model, "figures": figures,
        "note": "quote only the cross-validated and leave-one-model-out figures; training rows are in-sample",
    }  # fmt: skip
    judge = train(inputs, labels, encoder=args.encoder, manifest=manifest, features=matrix)
    folder = judge.save(args.out)
    print(f"wrote learned judge ({len(rows)} rows, {len(per_model)} models) to {folder}")
    return 0


def handle_premise(args: argparse.Namespace) -> int:
    """Judge every file, write the judgements, print rates (and agreement when labelled)."""
    from halluforge.errors import ConfigError

    paths = [Path(f) for f in args.files]
    if args.out and len(paths) > 1:
        raise ConfigError(
            "--out takes one input file", hint="drop --out to write FILE.judged.jsonl per input"
        )
    outs = [Path(args.out) if args.out else path.with_name(path.stem + ".judged.jsonl") for path in paths]
    for out in outs:  # refuse before judging anything, so a bad path costs nothing
        if not out.parent.is_dir():
            raise ConfigError(
                f"cannot write {out}: the folder {out.parent} does not exist", hint="create it first"
            )
        if out.is_dir():
            raise ConfigError(
                f"cannot write {out}: it is a folder", hint="give a file, e.g. --out judged.jsonl"
            )
    if "llm" in args.modes and not args.judge_model:
        raise ConfigError(
            "the llm mode needs a judge model", hint="add --judge-model, e.g. llamacpp/smollm2-135m"
        )
    per_file = [read_invite_rows(path) for path in paths]
    # judged together: leave-one-model-out fits across files, and models load once
    everything = _judge_rows([row for rows in per_file for row in rows], args)
    start = 0
    for rows, out in zip(per_file, outs, strict=True):
        judged = everything[start : start + len(rows)]
        start += len(rows)
        _write(judged, out)
        print(f"wrote {len(judged)} judgements to {out}")
    by_model: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in everything:
        by_model[str(row["model"])].append(row)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if args.evaluate:
        for note in _protocol_notes(everything, modes, args):
            print(f"note: {note}")
    for model, group in sorted(by_model.items()):
        print(_line(f"model={model}", group, args.evaluate))
        by_category: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for row in group:
            by_category[str(row.get("category") or "-")].append(row)
        if len(by_category) > 1:
            for category, rows_c in sorted(by_category.items()):
                print("  " + _line(f"category={category}", rows_c, args.evaluate))
    if len(modes) > 1:
        for mode in modes:
            single = [dict(r, judge_label=r.get(f"judge_{mode}")) for r in everything]
            print(_line(f"mode={mode}", single, args.evaluate))
    if args.text_metrics:
        _print_text_metrics(everything)
    if args.table:
        print(_table(everything), end="")
    figures = _agreement(everything)
    if figures is not None:
        agree, kappa, rate, human_rate = figures
        print(f"agreement={agree:.4f} kappa={kappa:.4f} rate={rate:.4f} human_rate={human_rate:.4f}")
    return 0
