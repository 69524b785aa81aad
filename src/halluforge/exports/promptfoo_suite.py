"""``--format promptfoo``: a forged suite as a ``promptfooconfig.yaml`` of tests with assertions.

promptfoo checks replies with assertions, not with our scorers, so only the entries where a
string assertion says what our metrics say are written: short-answer (``qa``) cases with
expected answers. Each test sends the prompt our plan sends and asserts that the reply
contains one expected answer (``icontains-any``, close to ``hit`` but by substring rather than
whole normalised tokens) and, when the family changed the answer (answer swapping, RECALL's
edits), that it does not contain the original answer (``not-icontains-any``), the sign that
the model answered from memory instead of the context. Choice and generation cases (scored by
option parsing, BLEU, ROUGE) and cases without expected answers (INVITE's false premises,
judged by the premise judge) are left out and counted: use the inspect or lm-eval export.

The provider is left to the user (``promptfoo eval -c promptfooconfig.yaml -r openai:...``);
the file names ``echo``, promptfoo's offline provider that returns the prompt, so that it runs
as written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from halluforge.exports.suite import Suite, SuiteEntry

CONFIG = "promptfooconfig.yaml"
#: the JSON schema promptfoo publishes for its config file (named in the file for editors)
SCHEMA = "https://promptfoo.dev/config-schema.json"


def _contains(haystack: list[str], needle: str) -> bool:
    return any(needle.lower() in h.lower() for h in haystack)


def assertions(entry: SuiteEntry) -> list[dict[str, Any]]:
    """The assertions one entry gets (none when strings cannot express its metrics)."""
    case = entry.case
    if case.format != "qa" or not case.expected:
        return []
    out: list[dict[str, Any]] = [{"type": "icontains-any", "value": list(case.expected), "metric": "hit"}]
    changed = any(e.kind == "answer" for e in case.edits)
    # an original answer inside an expected one (or the reverse) would make the two contradict
    originals = [
        o
        for o in case.original_answers
        if not _contains(list(case.expected), o) and not any(_contains([o], e) for e in case.expected)
    ]
    if changed and originals and entry.setting != "closed_book":
        out.append({"type": "not-icontains-any", "value": originals, "metric": "not_original"})
    return out


def config(suite: Suite) -> tuple[dict[str, Any], int]:
    """The promptfoo config mapping, and how many entries were left out."""
    tests = []
    skipped = 0
    for entry in suite.entries:
        checks = assertions(entry)
        if not checks:
            skipped += 1
            continue
        tests.append(
            {
                "description": f"{entry.task} {entry.case.id}",
                "vars": {"prompt": entry.prompt},
                "assert": checks,
                "metadata": {
                    "family": entry.family,
                    "setting": entry.setting,
                    "test_case_id": entry.case.id,
                },
            }
        )
    body = {
        "description": f"halluforge suite {suite.name}: forged cases with their expected answers",
        "prompts": ["{{prompt}}"],
        "providers": ["echo"],
        "tests": tests,
    }
    return body, skipped


def write_promptfoo(suite: Suite, out: Path) -> dict[str, tuple[Path, int]]:
    """Write ``promptfooconfig.yaml`` under ``out``; its test count (and the entries left out)."""
    out.mkdir(parents=True, exist_ok=True)
    body, skipped = config(suite)
    text = f"# yaml-language-server: $schema={SCHEMA}\n" + yaml.safe_dump(
        body, sort_keys=False, allow_unicode=True, width=100
    )
    path = out / CONFIG
    path.write_text(text, encoding="utf-8")
    written = {"promptfooconfig": (path, len(body["tests"]))}
    if skipped:
        written["left_out"] = (path, skipped)
    return written


__all__ = ["CONFIG", "SCHEMA", "assertions", "config", "write_promptfoo"]
