"""Every registered scorer and derived metric keeps the metric layer's contracts."""

from __future__ import annotations

import pytest

from halluforge.family import FAMILIES
from halluforge.metrics import SCORERS
from halluforge.metrics.joined import JOIN_FIELDS
from halluforge.metrics.layer import METRICS


def _fields_of_users(name: str) -> set[str]:
    """Join fields, plus the metadata fields of every family that lists ``name``."""
    found = set(JOIN_FIELDS)
    for family in FAMILIES.names():
        spec = FAMILIES.get(family)
        if name in spec.scorers or name in spec.metrics:
            found |= set(spec.metadata.model_fields)
    return found


@pytest.mark.parametrize("name", SCORERS.names())
def test_scorer_groups_by_known_fields(name: str) -> None:
    cls = SCORERS.get(name)
    assert cls.group_by and set(cls.group_by) <= _fields_of_users(name), cls.group_by


@pytest.mark.parametrize("name", METRICS.names())
def test_metric_groups_by_known_fields_and_requires_known_things(name: str) -> None:
    cls = METRICS.get(name)
    assert cls.group_by and set(cls.group_by) <= _fields_of_users(name), cls.group_by
    for need in cls().requirements():
        kind, _, what = need.partition(":")
        known = {"score": what in SCORERS or what in METRICS, "family": what in FAMILIES}.get(kind, False)
        assert need in ("*", "baseline") or known, need
