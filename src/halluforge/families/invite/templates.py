"""The ``false_premise`` family's question templates: one entry per KB predicate.

Each entry gives the side the family swaps by default (``subject`` or ``object``), the entity
type each side must have (persons, places), and one or more question/answer pairs whose
``{subject}``/``{object}`` slots take the swapped fact ("In what year did {subject} marry
{object}?" / "{subject} was never married to {object}."). Ours ship in
``prompts/templates.yaml``; a user's file adds to or replaces them (:func:`load_templates`).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import yaml

from halluforge.errors import ConfigError
from halluforge.families.invite import PROMPTS
from halluforge.families.invite.kb import EntityType
from halluforge.limits import load_yaml

Side = Literal["subject", "object"]
TEMPLATES_NAME = "false_premise/templates.yaml"


@dataclass(frozen=True)
class QATemplate:
    """One question wording and its reference answer."""

    question: str
    answer: str


@dataclass(frozen=True)
class PredicateTemplates:
    """The templates of one predicate, its default swap side and its type checks."""

    predicate: str
    swap: Side
    types: dict[Side, EntityType]
    templates: tuple[QATemplate, ...]


def _parse_templates(text: str, source: str) -> dict[str, PredicateTemplates]:
    try:
        data = load_yaml(text) or {}  # bounded: no aliases, no deep nesting
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        raise ConfigError(f"{source}{line}: not valid YAML", hint="fix the syntax at that line") from exc
    if not isinstance(data, dict):
        raise ConfigError(
            f"{source}: expected a mapping of predicate -> entry", hint="see our templates.yaml"
        )
    parsed: dict[str, PredicateTemplates] = {}
    for predicate, entry in data.items():
        where = f"{source}: predicate {predicate!r}"
        if not isinstance(entry, dict):
            raise ConfigError(f"{where}: expected a mapping", hint="give swap, types and templates")
        swap = entry.get("swap", "subject")
        if swap not in ("subject", "object"):
            raise ConfigError(f"{where}: field 'swap' must be subject or object, not {swap!r}")
        types = entry.get("types") or {}
        if not isinstance(types, dict) or any(
            side not in ("subject", "object") or kind not in ("person", "place")
            for side, kind in types.items()
        ):
            raise ConfigError(f"{where}: field 'types' must map subject/object to person/place")
        items = entry.get("templates")
        if not isinstance(items, list) or not items:
            raise ConfigError(f"{where}: field 'templates' needs at least one {{question, answer}} pair")
        pairs = []
        for number, item in enumerate(items, start=1):
            if not isinstance(item, dict) or not item.get("question") or not item.get("answer"):
                raise ConfigError(f"{where}: template {number} needs a 'question' and an 'answer'")
            for field_name in ("question", "answer"):
                if "{subject}" not in item[field_name] and "{object}" not in item[field_name]:
                    raise ConfigError(
                        f"{where}: template {number} field {field_name!r} "
                        "names neither {subject} nor {object}"
                    )
            pairs.append(QATemplate(str(item["question"]), str(item["answer"])))
        parsed[str(predicate)] = PredicateTemplates(str(predicate), swap, dict(types), tuple(pairs))
    return parsed


def load_templates(path: str | None = None) -> tuple[dict[str, PredicateTemplates], str]:
    """Our templates, overridden by ``$HALLUFORGE_PROMPTS_DIR/false_premise/templates.yaml`` and ``path``.

    Returns the merged templates and a short hash of every text that went into them.
    """
    texts = [((Path(PROMPTS) / "templates.yaml").read_text("utf-8"), "bundled")]
    override_dir = os.environ.get("HALLUFORGE_PROMPTS_DIR")
    if override_dir and (Path(override_dir) / TEMPLATES_NAME).is_file():
        file = Path(override_dir) / TEMPLATES_NAME
        texts.append((file.read_text("utf-8"), str(file)))
    if path is not None:
        file = Path(path)
        if not file.is_file():
            raise ConfigError(
                f"templates file {file} does not exist", hint="check families.false_premise.templates"
            )
        texts.append((file.read_text("utf-8"), str(file)))
    merged: dict[str, PredicateTemplates] = {}
    digest = hashlib.sha256()
    for text, source in texts:
        merged.update(_parse_templates(text, source))
        digest.update(text.encode("utf-8"))
    return merged, digest.hexdigest()[:12]


__all__ = ["TEMPLATES_NAME", "PredicateTemplates", "QATemplate", "Side", "load_templates"]
