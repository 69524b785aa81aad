"""Families: one registered :class:`Family` spec per kind of forged test case.

:data:`FAMILIES` maps names to specs (lazily imported; third-party packages add theirs through
the ``halluforge.families`` entry-point group). Each built-in family has its own module here;
see ``docs/design.md`` ("How to add a family").
"""

from __future__ import annotations

from halluforge.families.spec import (
    FAMILIES,
    CaseMetadata,
    Family,
    FollowHook,
    PlanHook,
    family,
    known_family,
)

__all__ = ["FAMILIES", "CaseMetadata", "Family", "FollowHook", "PlanHook", "family", "known_family"]
