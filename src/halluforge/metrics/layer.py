"""The metric layer: derived metrics over joined (test case, response, score) rows, and one aggregate.

Scorers give one value per (test case, response). Some figures need more than one response:
normalized entailment reads the same model's answer to the unperturbed example, ReEval's
both-variants rule needs the two retrieval variants of one seed, INVITE reports rates per
category, AutoDebug's transferability groups by the model that forged a case. Those are
:class:`Metric` classes here. Each declares

- ``requires``: the scores (``score:<metric>``) or families (``family:<name>``) it reads,
  and ``*`` when it reads every other score (it then runs after the others);
- ``higher_is_better`` and ``group_by`` (the join fields its figures are reported by);
- :meth:`Metric.derive`, which turns :class:`Joined` rows into new :class:`Score` rows.

Derived rows are stored like scorer rows (``details["derived"]`` names the metric), so the
report reads stored rows only and never scores. :func:`aggregate` is the one grouping
function: means with percentile-bootstrap intervals over any join fields.
"""

from __future__ import annotations

import abc
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from halluforge.family import components_of
from halluforge.metrics import SCORERS
from halluforge.metrics.stats import bootstrap_ci, check_options
from halluforge.records import Response, Score, TestCase, stable_id
from halluforge.registry import Registry
from halluforge.reports.summary import SummaryRow

#: the join fields a metric can group by
JOIN_FIELDS = ("family", "model", "setting", "metric", "category", "generator", "variant", "item")
DEFAULT_GROUP = ("family", "model", "setting", "metric")
#: marker in a derived score's details: which metric made it
DERIVED = "derived"
NO_GENERATOR = "(no generator)"


def latest_scores(scores: Iterable[Score]) -> list[Score]:
    """One score per (response, metric, item): the last one given, in first-seen order.

    The store yields scores in insertion order, so after a re-score the newest value wins.
    """
    latest: dict[tuple[str, str, str | None], Score] = {}
    for score in scores:
        latest[(score.response_id, score.metric, score.item)] = score
    return list(latest.values())


def category_of(case: TestCase | None, score: Score) -> str:
    """The category a row is reported under: the case's recorded category or variant, else its family."""
    if case is not None:
        found = case.metadata.get("category") or case.variant
        if found:
            return str(found)
    return str(score.details.get("category") or score.family)


@dataclass
class Joined:
    """Test cases, responses and the latest scores of a run, joined by id."""

    cases: dict[str, TestCase]
    responses: dict[str, Response] = field(default_factory=dict)
    scores: list[Score] = field(default_factory=list)

    @classmethod
    def build(
        cls, cases: Iterable[TestCase], responses: Iterable[Response], scores: Iterable[Score]
    ) -> Joined:
        """Join stored records; only the latest score per (response, metric, item) is kept."""
        return cls({c.id: c for c in cases}, {r.id: r for r in responses}, latest_scores(scores))

    def case(self, score: Score) -> TestCase | None:
        """The test case a score belongs to."""
        return self.cases.get(score.test_case_id)

    def of_metric(self, *metrics: str) -> list[Score]:
        """Scores of the given metrics, in stored order."""
        return [s for s in self.scores if s.metric in metrics]

    def field(self, score: Score, name: str) -> str:
        """One join field of a score row (see :data:`JOIN_FIELDS`)."""
        case = self.case(score)
        if name == "category":
            return category_of(case, score)
        if name == "generator":
            return (case.provenance.generator_model if case else None) or NO_GENERATOR
        if name == "variant":
            return (case.variant if case else None) or ""
        if name == "item":
            return score.item or ""
        return str(getattr(score, name))

    def add(self, derived: Sequence[Score]) -> None:
        """Append derived rows so later metrics can read them."""
        self.scores = latest_scores([*self.scores, *derived])


class Metric(abc.ABC):
    """A metric computed over joined rows rather than one (case, response) pair."""

    name: ClassVar[str]
    requires: ClassVar[tuple[str, ...]] = ()
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


def derived_score(
    by: str,
    metric: str,
    source: Score,
    value: float | None,
    details: dict[str, Any],
    *,
    inputs: Sequence[str],
) -> Score:
    """A row of ``metric`` made by the derived metric ``by``, tied to ``source``'s response.

    Its id hashes the rows it was computed from, so re-deriving from the same rows adds nothing.
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
        details={**details, DERIVED: by},
    )


class NormalizedEntailment(Metric):
    """``norm_entail``: entailment over the cases the same target got right before perturbation.

    "Right before" is the target's entailment on the unperturbed example (the family's
    ``baseline``, ``original``) under the same setting, or its hit when entailment was not
    computed. Cases answered wrongly before, or never answered, get ``None`` with the reason,
    so the mean over values is the normalized figure (AutoDebug §3.1).
    """

    name: ClassVar[str] = "norm_entail"
    requires: ClassVar[tuple[str, ...]] = ("score:entail", "score:hit", "family:original")

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
            if response is not None and response.error is not None:
                details["reason"] = "response failed"
            elif correct is None:
                details["reason"] = "no response to the original example"
            elif not correct:
                details["reason"] = "not correct before perturbation"
            else:
                value = score.value
                details = dict(score.details)
            out.append(
                derived_score(self.name, self.name, score, value, details, inputs=[score.id, str(correct)])
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
            if score.details.get(DERIVED) == self.name or not case.parent_seed or not case.variant:
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
            if missing:
                details["reason"] = f"no score for variant(s) {missing}"
            elif any(s.value is None for s in ordered):
                details["reason"] = "a variant has no value"
            else:
                value = min(float(s.value) for s in ordered if s.value is not None)
            first = ordered[0].model_copy(update={"family": family, "model": model, "setting": setting})
            merged.append(
                derived_score(
                    self.name, f"{metric}{self.SUFFIX}", first, value, details, inputs=[s.id for s in ordered]
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


def derive_order(names: Iterable[str]) -> list[str]:
    """Derived metrics in dependency order: those that read every score (``*``) last."""
    unique = list(dict.fromkeys(names))
    return [n for n in unique if "*" not in METRICS.get(n).requires] + [
        n for n in unique if "*" in METRICS.get(n).requires
    ]


@dataclass(frozen=True)
class Aggregate:
    """Mean of one group's values with its bootstrap interval, and what had no value."""

    key: tuple[Hashable, ...]
    n: int
    mean: float | None
    ci_low: float | None
    ci_high: float | None
    n_missing: int
    missing_reasons: dict[str, int]


def aggregate(
    rows: Iterable[Score],
    key: Callable[[Score], tuple[Hashable, ...]],
    *,
    n_boot: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    namespace: str = "bootstrap",
    seed_key: Callable[[tuple[Hashable, ...]], object] | None = None,
) -> list[Aggregate]:
    """Group rows by ``key`` and give each group's mean and percentile-bootstrap interval.

    ``n_boot=0`` skips the bootstrap (no interval). Each group's resampling is seeded with a
    hash of (``namespace``, ``seed``, the group key or ``seed_key(key)``), and its values are
    resampled in the order of their response ids, not the order they were stored in (which
    follows when each answer came back), so the same rows always give the same interval. Rows
    whose value is None are counted with their reason.
    """
    if n_boot != 0:
        check_options(n_boot, confidence)
    values: dict[tuple[Hashable, ...], list[tuple[str, str, float]]] = defaultdict(list)
    missing: dict[tuple[Hashable, ...], Counter[str]] = defaultdict(Counter)
    for score in rows:
        group = key(score)
        if score.value is None:
            missing[group][str(score.details.get("reason", "not computed"))] += 1
        else:
            values[group].append((score.response_id, score.item or "", float(score.value)))
    out = []
    for group in sorted(set(values) | set(missing), key=lambda k: tuple(map(str, k))):
        found = [value for _, _, value in sorted(values.get(group, []))]
        reasons = missing.get(group, Counter())
        mean = low = high = None
        if found:
            if n_boot:
                label = seed_key(group) if seed_key is not None else group
                group_seed = int(stable_id(namespace, seed, label, length=8), 16)
                mean, low, high = bootstrap_ci(found, n_boot=n_boot, confidence=confidence, seed=group_seed)
            else:
                mean = math.fsum(found) / len(found)
        out.append(
            Aggregate(group, len(found), mean, low, high, sum(reasons.values()), dict(reasons.most_common()))
        )
    return out


def direction(metric: str) -> bool | None:
    """Whether a higher value of ``metric`` is better, as its scorer or derived metric declares."""
    base = metric.removesuffix(BothVariants.SUFFIX)
    if base in SCORERS:
        return SCORERS.get(base).higher_is_better
    if base in METRICS:
        return METRICS.get(base).higher_is_better
    return None


def summarize(
    scores: Iterable[Score], *, n_boot: int = 1000, confidence: float = 0.95, seed: int = 0
) -> list[SummaryRow]:
    """Summary rows grouped by (family, model, setting, metric) over the latest scores, sorted by that key.

    Per-item scores (``item`` set, e.g. one per claim) are pooled into their metric's row.
    """
    groups = aggregate(
        latest_scores(scores),
        lambda s: (s.family, s.model, s.setting, s.metric),
        n_boot=n_boot,
        confidence=confidence,
        seed=seed,
    )
    return [
        SummaryRow(
            family=str(g.key[0]),
            model=str(g.key[1]),
            setting=str(g.key[2]),
            metric=str(g.key[3]),
            n=g.n,
            mean=g.mean,
            ci_low=g.ci_low,
            ci_high=g.ci_high,
            n_missing=g.n_missing,
            missing_reasons=g.missing_reasons,
            higher_is_better=direction(str(g.key[3])),
        )
        for g in groups
    ]


__all__ = [
    "DEFAULT_GROUP",
    "DERIVED",
    "JOIN_FIELDS",
    "METRICS",
    "NO_GENERATOR",
    "Aggregate",
    "BothVariants",
    "Joined",
    "Metric",
    "NormalizedEntailment",
    "aggregate",
    "category_of",
    "derive_order",
    "derived_score",
    "direction",
    "latest_scores",
    "summarize",
]
