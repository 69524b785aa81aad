"""Restatements of a figure in a second unit: one value written twice, so no shift can keep both.

Part of :func:`.restatements.restatement`: two gold aliases in one sentence that are different
figures ("1,280 metres, or 4,200 feet"), and a conversion the passage writes right after the
answer that no alias lists ("210 km/h (about 130 mph)"). A swapped number would leave the second
figure behind, so the seed case is skipped with the reason these return.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from halluforge.families.shared.numbers import NUMBER, number_value
from halluforge.families.shared.passage import sentence_of


def two_values(evidence: str, spans: Sequence[tuple[int, int]]) -> str | None:
    """Two gold aliases in one sentence that are different figures: one value in two units.

    "A main span of 1,280 metres, or 4,200 feet": one new figure in both places reads "1,500
    metres, or 1,500 metres", and no shift converts one unit into the other.
    """
    by_sentence: dict[tuple[int, int], dict[float, str]] = {}
    for start, end in spans:
        found = NUMBER.search(evidence, start, end)
        value = number_value(found.group()) if found else None
        if value is not None:
            by_sentence.setdefault(sentence_of(evidence, start), {})[value] = evidence[start:end]
    for figures in by_sentence.values():
        if len(figures) > 1:
            first, second = list(figures.values())[:2]
            return f"the passage gives the answer as two figures in one sentence ({first!r}, {second!r})"
    return None


#: a conversion right after the answer: " (about 130 mph)", ", or roughly 4,200 feet", ", about 30
#: billion US dollars," (set 79: 200 billion reais beside it made the real worth 6.7 a dollar)
_CONVERSION = re.compile(
    r"^\s*(?:\(|,\s*or\s+|,\s*(?=(?:about|approximately|roughly|around|nearly|some|almost)\s))"
    r"(?:about|approximately|roughly|around|nearly|some|c\.|almost)?\s*"
    r"[\d][\d,.]*\s*(?:[a-zA-Z/°²³]+)(?:\)|[,.;\s])"
)


def converted(evidence: str, spans: Sequence[tuple[int, int]]) -> str | None:
    """The answer given again in another unit right after it, as no alias lists it.

    "a maximum speed of 210 km/h (about 130 mph)": 220 km/h beside "about 130 mph", which a
    blind reader of set 46 converted back; no shift converts the second figure.
    """
    for start, end in spans:
        match = _CONVERSION.match(evidence[end:])
        if match is not None and evidence[start:end][:1].isdigit():
            return f"the passage gives the answer in another unit too ({match.group().strip(' ,;.')!r})"
    return None


__all__ = ["converted", "two_values"]
