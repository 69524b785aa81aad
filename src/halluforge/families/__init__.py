"""The built-in families, one package each: spec, generator, rules, scorers, report section, prompts.

Each package's ``__init__`` holds its :class:`~halluforge.family.Family` spec (light: no heavy
imports), registered once in :data:`halluforge.family.FAMILIES`; everything else the family
needs lives beside it. Code that several families use (the donor pool, span replacement,
answer kinds, the plausibility checks) is in :mod:`halluforge.families.shared`. Nothing outside
a family's package names it. See ``docs/design.md`` ("How to add a family").
"""
