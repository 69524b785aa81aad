"""Generators, one module per family, that turn seed cases (or KB facts) into test cases.

Which generator forges which family is said by the family's spec
(:attr:`halluforge.families.Family.generator`); this package holds the generators and the
helpers they share.
"""

from __future__ import annotations

from halluforge.forge.base import ForgeContext, Generator

__all__ = ["ForgeContext", "Generator"]
