"""The generator contract every family's forger implements (:mod:`.base`).

Which generator forges which family is said by the family's spec
(:attr:`halluforge.family.Family.generator`); the generators themselves live in their family's
package (``halluforge.families.<name>.generator``), and what several share in
:mod:`halluforge.families.shared`.
"""

from __future__ import annotations

from halluforge.forge.base import ForgeContext, Generator

__all__ = ["ForgeContext", "Generator"]
