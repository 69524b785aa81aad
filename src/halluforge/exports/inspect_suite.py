"""``--format inspect``: a forged suite as inspect_ai tasks that ``inspect eval`` runs as they are.

Writes into the output folder: ``suite.json`` (the run's metric options, seed, temperature),
one ``<family>__<setting>.jsonl`` dataset per task and ``tasks.py``, one ``@task`` function per
family and setting. ``inspect eval tasks.py --model ...`` runs them all (``tasks.py@name`` one);
the tasks and their scorer live in :mod:`halluforge.exports.inspect_runtime`, so the file stays
a short index and a fix to a scorer reaches exported suites without exporting again.
"""

from __future__ import annotations

import json
from pathlib import Path

from halluforge.exports.suite import Suite, write_rows

TASK_FILE = "tasks.py"


def task_module(suite: Suite) -> str:
    """The text of ``tasks.py``: one ``@task`` per task of the suite."""
    lines = [
        f'"""inspect_ai tasks of the halluforge suite {suite.name!r}: `inspect eval tasks.py --model ...`.',
        "",
        "Written by `halluforge export --format inspect`; needs halluforge[harness]. Each task sends the",
        "prompts halluforge's answer plans send and scores replies with halluforge's own scorers.",
        '"""',
        "",
        "from pathlib import Path",
        "",
        "from inspect_ai import Task, task",
        "",
        "from halluforge.exports.inspect_runtime import suite_task",
        "",
        "HERE = Path(__file__).resolve().parent",
    ]
    for name, entries in suite.tasks().items():
        lines += [
            "",
            "",
            "@task",
            f"def {name}() -> Task:",
            f'    """{entries[0].family} under {entries[0].setting} ({len(entries)} entries)."""',
            f'    return suite_task(HERE / "{name}.jsonl")',
        ]
    return "\n".join(lines) + "\n"


def write_inspect(suite: Suite, out: Path) -> dict[str, tuple[Path, int]]:
    """Write the suite's inspect tasks under ``out``; each file with its entry count."""
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, tuple[Path, int]] = {}
    (out / "suite.json").write_text(json.dumps(suite.header(), indent=2) + "\n", encoding="utf-8")
    for name, entries in suite.tasks().items():
        write_rows(out / f"{name}.jsonl", entries)
        written[name] = (out / f"{name}.jsonl", len(entries))
    (out / TASK_FILE).write_text(task_module(suite), encoding="utf-8")
    written["tasks"] = (out / TASK_FILE, len(suite.tasks()))
    return written


__all__ = ["TASK_FILE", "task_module", "write_inspect"]
