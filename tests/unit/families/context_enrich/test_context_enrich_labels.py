"""Human labels of the bundled sample's context_enrich cases stay aligned with what the code forges.

The labels (``tests/data/forge_labels.jsonl``, lines with ``family: context_enrich``) were made
by reading every forged context of ``examples/context_enrich.yaml`` run with the embedded
SmolLM2-135M and the BM25 index over wiki-offline (``docs/families/context_enrich.md`` says how).
A case id hashes the seed case, the variant, the generator model, the prompt templates and the
family options, so a change to any of them makes these ids stale and this test says so: forge
again, read the new contexts and relabel. Other families' lines are checked by their own tests.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from halluforge.config import load_config
from halluforge.data import LOADERS
from halluforge.families.context_enrich.enrich_text import has_answer
from halluforge.families.context_enrich.generator import ContextEnrich
from halluforge.seed_cases import seed_case_id

FAMILY = "context_enrich"
LABELS = ("readable_faithful", "unfaithful", "broken")
FIELDS = {"test_case_id", "family", "question", "original", "new", "label", "note"}
EXAMPLE = Path(__file__).resolve().parents[4] / "examples" / "context_enrich.yaml"
#: the index option of the labelled run (a relative path, so the ids do not depend on a checkout)
INDEX = "indexes/wiki-bm25"
LABEL_FILE = Path(__file__).resolve().parents[3] / "data" / "forge_labels.jsonl"


def labels() -> list[dict[str, Any]]:
    path = LABEL_FILE
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [row for row in rows if row.get("family") == FAMILY]


def test_labels_are_well_formed_and_contiguous() -> None:
    path = LABEL_FILE
    families = [json.loads(line)["family"] for line in path.read_text(encoding="utf-8").splitlines() if line]
    mine = [i for i, family in enumerate(families) if family == FAMILY]
    assert mine and mine == list(range(mine[0], mine[-1] + 1)), "context_enrich lines form one block"
    rows = labels()
    for row in rows:
        assert set(row) == FIELDS, row
        assert row["label"] in LABELS, row
        assert row["note"].strip() or row["label"] == "readable_faithful", row
    assert len({row["test_case_id"] for row in rows}) == len(rows)


def test_labels_name_cases_the_current_code_forges() -> None:
    config = load_config(EXAMPLE, overrides={f"families.{FAMILY}.index": INDEX, "select.limit": 40})
    generator = ContextEnrich.from_config(config.families[FAMILY])
    model = config.models.generator
    assert model is not None
    examples = {e.question: e for source in config.data for e in LOADERS.get(source.loader)(source)}
    for row in labels():
        example = examples.get(row["question"])
        assert example is not None, f"no bundled example asks {row['question']!r}"
        seed = seed_case_id(example, model, config.select)
        ids = {generator.case_id(seed, variant, model) for variant in ("question", "evidence")}
        assert row["test_case_id"] in ids, (
            f"{row['test_case_id']} is not a case the current code forges for {row['question']!r}: "
            "templates or options changed; forge again and relabel"
        )
        assert row["original"] == example.evidence
        assert has_answer(row["new"], example.answers), "the answer is still in every forged context"
