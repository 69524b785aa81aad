"""Generators, one module per family, that turn seed cases (or KB facts) into test cases.

:data:`GENERATORS` maps family names to generator classes, lazily imported.
"""

from __future__ import annotations

from halluforge.forge.base import ForgeContext, Generator
from halluforge.registry import Registry

GENERATORS: Registry[type[Generator]] = Registry(
    "generators",
    {
        "answer_swap": "halluforge.forge.answer_swap:AnswerSwap",
        "context_enrich": "halluforge.forge.context_enrich:ContextEnrich",
        "false_premise": "halluforge.forge.false_premise:FalsePremise",
        "invalid_date": "halluforge.forge.invalid_date:InvalidDate",
    },
)

__all__ = ["GENERATORS", "ForgeContext", "Generator"]
