"""``halluforge judge premise FILE.jsonl``: INVITE's premise judge on existing responses.

Reads INVITE-format JSON lines (``invalid_question``, ``model_response_to_invalid_question``,
optional ``answer_to_invalid_question``, ``valid_question``, ``category``, ``model`` and
``hallucination_label``), writes every row back with ``judge_label``, one ``judge_<mode>``
label per mode and the rule's reason, and prints hallucination rates per model and category.
When human labels are present the LAST line is
``agreement=<float> kappa=<float> rate=<judge rate> human_rate=<float>`` over all rows.
"""

from __future__ import annotations

import argparse
import json
import os
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
    premise.add_argument("--modes", default="rule", help="comma list of rule, nli, llm (default: rule)")
    premise.add_argument("--combine", default="any", help="any (default), majority or all")
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


def read_invite_rows(path: Path) -> list[dict[str, Any]]:
    """Read and check INVITE JSON lines; a bad line raises DataError naming file and line."""
    from halluforge.errors import DataError

    if not path.is_file():
        raise DataError("file not found", path=str(path), hint="give an existing .jsonl file")
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
        row.setdefault("model", path.stem)
        rows.append(row)
    return rows


def _judge_rows(rows: list[dict[str, Any]], args: argparse.Namespace) -> list[dict[str, Any]]:
    import asyncio

    from halluforge.metrics.judge import JudgeOptions, PremiseInput, ajudge_premise, swapped_span

    options = JudgeOptions.from_options({"modes": args.modes, "combine": args.combine}, args.nli_model)
    inputs = []
    for row in rows:
        swapped = row.get("swapped_entity")
        if not swapped and isinstance(row.get("valid_question"), str):
            swapped = swapped_span(row["valid_question"], row["invalid_question"])
        inputs.append(
            PremiseInput(
                question=row["invalid_question"],
                response=row["model_response_to_invalid_question"],
                reference=str(row.get("answer_to_invalid_question") or ""),
                entities=(str(swapped),) if swapped else (),
            )
        )

    async def go() -> list[Any]:
        backend = None
        if "llm" in options.modes and args.judge_model:
            from halluforge.backends import ResponseCache, default_cache_path, open_backend

            backend = open_backend(args.judge_model, cache=ResponseCache(default_cache_path()))
        try:
            return await ajudge_premise(inputs, options, judge=backend)
        finally:
            if backend is not None:
                await backend.aclose()

    judgements = asyncio.run(go())
    out = []
    for row, judgement in zip(rows, judgements, strict=True):
        judged = dict(row)
        judged["judge_label"] = judgement.label
        for mode, label in judgement.per_mode.items():
            judged[f"judge_{mode}"] = label
        judged["judge_notes"] = judgement.notes
        out.append(judged)
    return out


def _write(rows: list[dict[str, Any]], path: Path) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    os.replace(tmp, path)


def _rate(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def _agreement(rows: list[dict[str, Any]]) -> tuple[float, float, float, float] | None:
    """(agreement, kappa, judge rate, human rate) over rows with both labels, or None."""
    from halluforge.metrics.judge import cohen_kappa

    both = [r for r in rows if r.get("hallucination_label") is not None and r["judge_label"] is not None]
    if not both:
        return None
    human = [int(r["hallucination_label"]) for r in both]
    mine = [int(r["judge_label"]) for r in both]
    agree = sum(x == y for x, y in zip(human, mine, strict=True)) / len(both)
    return agree, cohen_kappa(human, mine), _rate(mine), _rate(human)


def _line(prefix: str, rows: list[dict[str, Any]]) -> str:
    judged = [r for r in rows if r["judge_label"] is not None]
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
    from halluforge.records import Score, stable_id
    from halluforge.reports.invite import render_invite_table

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
    if "llm" in args.modes and not args.judge_model:
        raise ConfigError(
            "the llm mode needs a judge model", hint="add --judge-model, e.g. llamacpp/smollm2-135m"
        )
    rows_per_file = [read_invite_rows(path) for path in paths]
    everything: list[dict[str, Any]] = []
    for rows, out in zip(rows_per_file, outs, strict=True):
        judged = _judge_rows(rows, args)
        _write(judged, out)
        print(f"wrote {len(judged)} judgements to {out}")
        everything.extend(judged)
    by_model: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in everything:
        by_model[str(row["model"])].append(row)
    for model, group in sorted(by_model.items()):
        print(_line(f"model={model}", group))
        by_category: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for row in group:
            by_category[str(row.get("category") or "-")].append(row)
        if len(by_category) > 1:
            for category, rows_c in sorted(by_category.items()):
                print("  " + _line(f"category={category}", rows_c))
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if len(modes) > 1:
        for mode in modes:
            single = [dict(r, judge_label=r.get(f"judge_{mode}")) for r in everything]
            print(_line(f"mode={mode}", single))
    if args.text_metrics:
        _print_text_metrics(everything)
    if args.table:
        print(_table(everything), end="")
    figures = _agreement(everything)
    if figures is not None:
        agree, kappa, rate, human_rate = figures
        print(f"agreement={agree:.4f} kappa={kappa:.4f} rate={rate:.4f} human_rate={human_rate:.4f}")
    return 0
