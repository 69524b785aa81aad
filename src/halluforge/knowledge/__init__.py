"""World knowledge for forging: an offline entity table built from registry-shipped data.

:mod:`.table` builds and caches the table (people, places, countries, first names) and looks
entities up by exact title or alias; :mod:`.describe` reads lifespans, nationalities,
occupations, place types and countries out of Wikipedia short descriptions. The checks that
compare a donor answer with the facts of the swapped sentence live beside the donors, in
:mod:`halluforge.families.shared.facts`.
"""
