"""The metric layer: derived metrics over joined (test case, response, score) rows.

Scorers give one value per (test case, response). Some figures need more than one response:
normalized entailment reads the same model's answer to the unperturbed example, ReEval's
both-variants rule needs the two retrieval variants of one seed, INVITE reports rates per
category, AutoDebug's transferability groups by the model that forged a case. Those are
:class:`Metric` classes here. Each declares

- ``requires``: what it cannot be computed without: scores (``score:<metric>``), test cases
  of a family (``family:<name>``) or of the baseline of each family that lists it
  (``baseline``), and ``*`` when it reads every other score (it then runs after the others).
  :meth:`Metric.requirements` applies the metric's options (``score_t`` reads the scorer its
  ``correct_by`` names). A run that misses one is told: preflight refuses a required scorer
  nobody runs (:func:`missing_scorers`), and the report notes a requirement the stored rows do
  not meet (:func:`unmet_notes`), instead of a metric that silently yields nothing;
- ``higher_is_better`` and ``group_by`` (the join fields its figures are broken down by,
  :func:`halluforge.metrics.aggregate.breakdown`);
- :meth:`Metric.derive`, which turns :class:`Joined` rows into new :class:`Score` rows.

Derived rows are stored like scorer rows (:attr:`Score.derived_by` names the metric), so the
report reads stored rows only and never scores. Rows are joined in
:mod:`halluforge.metrics.joined` and aggregated in :mod:`halluforge.metrics.aggregate`.
"""

from __future__ import annotations

import abc
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from halluforge.family import components_of
from halluforge.metrics.joined import DEFAULT_GROUP, Joined
from halluforge.records import Score, stable_id
from halluforge.registry import Registry


class Metric(abc.ABC):
    """A metric computed over joined rows rather than one (case, response) pair."""

    name: ClassVar[str]
    requires: ClassVar[tuple[str, ...]] = ()
    #: install extras this metric cannot be computed without (checked by preflight)
    extras: ClassVar[tuple[str, ...]] = ()
    higher_is_better: ClassVar[bool] = True
    group_by: ClassVar[tuple[str, ...]] = DEFAULT_GROUP
    #: True when its rows carry its own name as metric; False when it writes several
    #: metrics named after others (``em_both``, ``f1_both``...)
    single_output: ClassVar[bool] = True

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.options = dict(options or {})

    @abc.abstractmethod
    def derive(self, joined: Joined, families: Mapping[str, Any]) -> list[Score]:
        """New score rows from the joined rows; ``families`` maps names to family specs."""

    def requirements(self) -> tuple[str, ...]:
        """What this metric, with its options, cannot be computed without (``requires`` by default)."""
        return self.requires

    def unmet(self, joined: Joined, families: Mapping[str, Any]) -> list[str]:
        """Each requirement the joined rows do not meet, as a reason (empty when all are met).

        ``families`` maps the run's families to their specs; ``baseline`` looks at those that
        list this metric.
        """
        metrics = {s.metric for s in joined.scores}
        present = {c.family for c in joined.cases.values()}
        out = []
        for need in self.requirements():
            kind, _, what = need.partition(":")
            if kind == "score" and what not in metrics:
                out.append(f"needs {what} scores, and this run has none")
            elif kind == "family" and what not in present:
                out.append(f"needs {what} test cases, and this run has none")
            elif kind == "baseline":
                for name, spec in sorted(families.items()):
                    base = getattr(spec, "baseline", None)
                    if name in present and self.name in spec.metrics and base and base not in present:
                        out.append(
                            f"needs {base} test cases for {name} (its baseline), and this run has none"
                        )
        return out


def derived_score(
    by: str,
    metric: str,
    source: Score,
    value: float | None,
    details: dict[str, Any],
    *,
    inputs: Sequence[str],
    reason: str | None = None,
) -> Score:
    """A row of ``metric`` made by the derived metric ``by``, tied to ``source``'s response.

    ``reason`` says why ``value`` is None. Its id hashes the rows it was computed from, so
    re-deriving from the same rows adds nothing.
    """
    return Score(
        id=stable_id("derived", metric, source.response_id, source.item, list(inputs)),
        response_id=source.response_id,
        test_case_id=source.test_case_id,
        model=source.model,
        setting=source.setting,
        family=source.family,
        metric=metric,
        item=source.item,
        value=value,
        details=Score.details_with(details, reason=reason, derived_by=by),
    )


class NormalizedEntailment(Metric):
    """``norm_entail``: entailment over the cases the same target got right before perturbation.

    "Right before" is the target's entailment on the unperturbed example (the family's
    ``baseline``, ``original``) under the same setting, or its hit when entailment was not
    computed. Cases answered wrongly before, or never answered, get ``None`` with the reason,
    so the mean over values is the normalized figure (AutoDebug §3.1).
    """

    name: ClassVar[str] = "norm_entail"
    # hit on the baseline is read only where its entailment is missing, so it is no requirement
    requires: ClassVar[tuple[str, ...]] = ("score:entail", "baseline")

    def before(self, joined: Joined, baselines: set[str]) -> dict[tuple[str, str, str], bool]:
        """(parent example, model, setting) -> correct on the unperturbed example."""
        by_metric: dict[str, dict[tuple[str, str, str], bool]] = {"entail": {}, "hit": {}}
        for score in joined.of_metric("entail", "hit"):
            case = joined.case(score)
            if case is None or case.family not in baselines or score.value is None:
                continue
            by_metric[score.metric][(case.parent_example or "", score.model, score.setting)] = (
                score.value >= 0.5
            )
        return {**by_metric["hit"], **by_metric["entail"]}

    def derive(self, joined: Joined, families: Mapping[str, Any]) -> list[Score]:
        baselines = {spec.baseline for spec in families.values() if getattr(spec, "baseline", None)}
        before = self.before(joined, baselines)
        out = []
        for score in joined.of_metric("entail"):
            case = joined.case(score)
            spec = families.get(score.family)
            if case is None or spec is None or spec.baseline is None or self.name not in spec.metrics:
                continue
            if not case.expected or case.parent_example is None:
                continue
            response = joined.responses.get(score.response_id)
            correct = before.get((case.parent_example, score.model, score.setting))
            details: dict[str, Any] = {}
            value: float | None = None
            reason: str | None = None
            if response is not None and response.error is not None:
                reason = "response failed"
            elif correct is None:
                reason = "no response to the original example"
            elif not correct:
                reason = "not correct before perturbation"
            else:
                value, reason = score.value, score.reason
                details = dict(score.details)
            out.append(
                derived_score(
                    self.name,
                    self.name,
                    score,
                    value,
                    details,
                    inputs=[score.id, str(correct)],
                    reason=reason,
                )
            )
        return out


class BothVariants(Metric):
    """``<metric>_both``: correct only when every variant of a seed is (ReEval §4.2).

    Applies to the families that list it; their spec's ``options["variants"]`` names the
    variants in report order. A group (seed, model, setting, metric) takes the minimum over
    its variants: for 0/1 metrics, correct only when all are; for graded ones (F1) the weaker
    variant counts. A group missing a variant, or holding a ``None``, gets ``None`` with the
    reason. The merged row points at the first variant's test case and response.
    """

    name: ClassVar[str] = "both_variants"
    requires: ClassVar[tuple[str, ...]] = ("*",)
    single_output: ClassVar[bool] = False
    SUFFIX: ClassVar[str] = "_both"

    def derive(self, joined: Joined, families: Mapping[str, Any]) -> list[Score]:
        groups: dict[tuple[str, str, str, str, str], dict[str, Score]] = defaultdict(dict)
        order: dict[str, tuple[str, ...]] = {}
        for score in joined.scores:
            case = joined.case(score)
            spec = families.get(score.family)
            if case is None or spec is None or self.name not in spec.metrics:
                continue
            if score.derived_by == self.name or not case.parent_seed or not case.variant:
                continue
            order[score.family] = tuple(spec.options.get("variants", ()))
            key = (score.family, case.parent_seed, score.model, score.setting, score.metric)
            groups[key][case.variant] = score
        merged = []
        for (family, seed, model, setting, metric), by_variant in sorted(groups.items()):
            wanted = order[family]
            ranked = sorted(by_variant, key=lambda v: (wanted.index(v) if v in wanted else len(wanted), v))
            ordered = [by_variant[v] for v in ranked]
            details: dict[str, Any] = {
                "parent_seed": seed,
                "variants": {v: by_variant[v].value for v in ranked},
                "test_case_ids": [s.test_case_id for s in ordered],
                "response_ids": [s.response_id for s in ordered],
            }
            missing = sorted(set(wanted) - set(by_variant))
            value: float | None = None
            reason: str | None = None
            if missing:
                reason = f"no score for variant(s) {missing}"
            elif any(s.value is None for s in ordered):
                reason = "a variant has no value"
            else:
                value = min(float(s.value) for s in ordered if s.value is not None)
            first = ordered[0].model_copy(update={"family": family, "model": model, "setting": setting})
            merged.append(
                derived_score(
                    self.name,
                    f"{metric}{self.SUFFIX}",
                    first,
                    value,
                    details,
                    inputs=[s.id for s in ordered],
                    reason=reason,
                )
            )
        return merged


METRICS: Registry[type[Metric]] = Registry(
    "metrics",
    {
        "norm_entail": "halluforge.metrics.layer:NormalizedEntailment",
        "both_variants": "halluforge.metrics.layer:BothVariants",
    },
    source=lambda: components_of("metrics"),
)


def derived_for(configured: Sequence[str], families: Mapping[str, Any]) -> list[str]:
    """Derived metrics configured (``score.metrics``) or declared by ``families``, in dependency order."""
    names = [n for n in configured if n in METRICS]
    for name in sorted(families):
        names.extend(families[name].metrics)
    return derive_order(names)


def _present(joined: Joined, families: Mapping[str, Any]) -> dict[str, Any]:
    found = {c.family for c in joined.cases.values()}
    return {name: spec for name, spec in families.items() if name in found}


def unmet_notes(
    joined: Joined,
    families: Mapping[str, Any],
    configured: Sequence[str] = (),
    options: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[str]:
    """One note per requirement of a derived metric the run computes that its rows do not meet."""
    present = _present(joined, families)
    notes = []
    for name in derived_for(configured, present):
        metric = METRICS.get(name)((options or {}).get(name, {}))
        notes += [f"{name}: not derived - {reason}" for reason in metric.unmet(joined, present)]
    return notes


def missing_scorers(
    scorers: Iterable[str],
    derived: Iterable[str],
    options: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[tuple[str, str]]:
    """(derived metric, scorer) for each ``score:`` requirement no scorer in ``scorers`` meets."""
    running = set(scorers) | set(derived)
    out = []
    for name in dict.fromkeys(derived):
        metric = METRICS.get(name)((options or {}).get(name, {}))
        for need in metric.requirements():
            kind, _, what = need.partition(":")
            if kind == "score" and what not in running:
                out.append((name, what))
    return out


def derive_order(names: Iterable[str]) -> list[str]:
    """Derived metrics in dependency order: those that read every score (``*``) last."""
    unique = list(dict.fromkeys(names))
    return [n for n in unique if "*" not in METRICS.get(n).requires] + [
        n for n in unique if "*" in METRICS.get(n).requires
    ]


__all__ = [
    "METRICS",
    "BothVariants",
    "Metric",
    "NormalizedEntailment",
    "derive_order",
    "derived_for",
    "derived_score",
    "missing_scorers",
    "unmet_notes",
]
