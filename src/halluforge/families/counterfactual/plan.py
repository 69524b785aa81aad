"""The ``counterfactual`` family's answer plan: choice cases as the setting asks, text generation its own way.

A choice case (QA-A, QA-NA) is put to the target with the setting's own prompt. A
text-generation case is asked with the family's writing instruction (a passage, a record or a
definition written from the edited source), never without a context, and with the
trust-yourself note under ``self_trust``. The spec names :func:`plan` by path.
"""

from __future__ import annotations

from halluforge.families.counterfactual import GENERATION_TOKENS, PROMPTS, CounterfactualMetadata
from halluforge.plans import Plan, Turn
from halluforge.prompts import load_template
from halluforge.records import TestCase
from halluforge.settings import setting


def plan(case: TestCase, setting_name: str, first: Turn) -> Plan:
    """Choice cases: the setting's own prompt. Text generation: our writing prompt, no closed book."""
    if case.format != "generation":
        return (first,)
    how = setting(setting_name)
    context = how.context_of(case) if how.needs_context else None
    if not context:
        return ()
    meta = CounterfactualMetadata.of(case)
    name = {"record": "write_record", "term": "write_definition"}.get(str(meta.domain), "write_passage")
    prompt = load_template(f"counterfactual/{name}", PROMPTS).render(
        context=context, term=meta.title or "the term"
    )
    if setting_name == "self_trust":
        note = load_template("counterfactual/trust_note", PROMPTS).render()
        head, _, last = prompt.rpartition("\n")
        prompt = f"{head}\n{note}\n{last}"
    return (Turn(prompt=prompt, max_tokens=GENERATION_TOKENS),)


__all__ = ["plan"]
