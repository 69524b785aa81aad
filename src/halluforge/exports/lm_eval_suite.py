"""``--format lm-eval``: a forged suite as an lm-evaluation-harness task folder.

Writes into the output folder: ``suite.json`` (metric options, seed, temperature), one
``<task>.jsonl`` and one ``<task>.yaml`` per family, setting and format, ``halluforge_lm_eval.py``
(the functions the YAML names by ``!function``, a thin index of
:mod:`halluforge.exports.lm_eval_runtime`) and ``_halluforge.yaml``, a group of every task.
``lm_eval --include_path DIR --tasks halluforge_<run> --model ...`` runs the group (or one task
by its name, ``halluforge_answer_swap__open_book``).

Every task is ``generate_until``: the model writes a reply to the prompt our plan sends and
``process_results`` scores it with halluforge's own scorers, one metric each, averaged over the
values computed (:func:`~halluforge.exports.lm_eval_runtime.mean_of_computed`). A ``choice``
task gets a ``multiple_choice`` twin (``..._mc``): the lettered options are scored by
log-likelihood, ``acc`` the share whose most likely letter is the correct option.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

from halluforge.exports.suite import Suite, SuiteEntry, write_rows

HELPER = "halluforge_lm_eval"
HELPER_TEXT = '''"""What the halluforge task YAML files name by !function (written by halluforge export)."""

from pathlib import Path

from halluforge.exports import lm_eval_runtime

HERE = str(Path(__file__).resolve().parent)
mean_of_computed = lm_eval_runtime.mean_of_computed


def load(**kwargs):
    return lm_eval_runtime.load(folder=HERE, **kwargs)


def process_results(doc, results):
    return lm_eval_runtime.process_results(doc, results, HERE)
'''


class _Function(str):
    """A ``!function`` reference in the written YAML."""


def _function(dumper: yaml.SafeDumper, value: _Function) -> yaml.ScalarNode:
    return dumper.represent_scalar("!function", str(value))


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_Function, _function)


def prefix(suite: Suite) -> str:
    """The task-name prefix (and group name) of a suite: ``halluforge_<run>``."""
    return "halluforge_" + re.sub(r"[^a-z0-9_]", "_", suite.name.lower())


def _common(name: str, data_file: str) -> dict[str, Any]:
    return {
        "task": name,
        "custom_dataset": _Function(f"{HELPER}.load"),
        "dataset_kwargs": {"data_file": data_file},
        "test_split": "test",
        "doc_to_text": "input",
        "metadata": {"version": 1.0},
    }


def generate_task(name: str, data_file: str, entries: list[SuiteEntry], temperature: float) -> dict[str, Any]:
    """The YAML mapping of one ``generate_until`` task scored by halluforge's verdicts."""
    metrics = list(dict.fromkeys(m for s in entries for m in s.metrics))
    higher = {m: _higher_is_better(m) for m in metrics}
    return {
        **_common(name, data_file),
        "output_type": "generate_until",
        "doc_to_target": "{{target[0] if target else ''}}",
        "process_results": _Function(f"{HELPER}.process_results"),
        "generation_kwargs": {
            "until": [],
            "max_gen_toks": max(s.max_tokens for s in entries),
            "do_sample": temperature > 0,
            "temperature": temperature,
        },
        "metric_list": [
            {
                "metric": m,
                "aggregation": _Function(f"{HELPER}.mean_of_computed"),
                "higher_is_better": higher[m],
            }
            for m in metrics
        ],
    }


def choice_task(name: str, data_file: str) -> dict[str, Any]:
    """The YAML mapping of a ``multiple_choice`` twin: options by letter, target the correct one."""
    return {
        **_common(name, data_file),
        "output_type": "multiple_choice",
        "doc_to_choice": "letters",
        "doc_to_target": "answer_index",
        "target_delimiter": " ",
        "metric_list": [{"metric": "acc", "aggregation": "mean", "higher_is_better": True}],
    }


def _higher_is_better(metric: str) -> bool:
    from halluforge.metrics import SCORERS

    return bool(SCORERS.get(metric).higher_is_better)


def _dump(data: dict[str, Any]) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True)


def write_lm_eval(suite: Suite, out: Path) -> dict[str, tuple[Path, int]]:
    """Write the suite's lm-eval task folder under ``out``; each YAML with its entry count."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "suite.json").write_text(json.dumps(suite.header(), indent=2) + "\n", encoding="utf-8")
    (out / f"{HELPER}.py").write_text(HELPER_TEXT, encoding="utf-8")
    head = prefix(suite)
    written: dict[str, tuple[Path, int]] = {}
    for task, entries in suite.tasks().items():
        data_file = f"{task}.jsonl"
        write_rows(out / data_file, entries)
        name = f"{head}_{task}"
        (out / f"{task}.yaml").write_text(
            _dump(generate_task(name, data_file, entries, suite.temperature)), encoding="utf-8"
        )
        written[name] = (out / f"{task}.yaml", len(entries))
        chosen = [s for s in entries if s.correct_index() is not None]
        if chosen:
            mc_file = f"{task}__mc.jsonl"
            write_rows(out / mc_file, chosen)
            (out / f"{task}__mc.yaml").write_text(
                _dump(choice_task(f"{name}__mc", mc_file)), encoding="utf-8"
            )
            written[f"{name}__mc"] = (out / f"{task}__mc.yaml", len(chosen))
    group = {"group": head, "task": list(written), "metadata": {"version": 1.0}}
    (out / "_halluforge.yaml").write_text(_dump(group), encoding="utf-8")
    written["tasks"] = (out / "_halluforge.yaml", len(written))
    return written


__all__ = ["HELPER", "choice_task", "generate_task", "prefix", "write_lm_eval"]
