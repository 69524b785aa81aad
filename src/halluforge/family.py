"""The family spec: everything the core needs to know about one family, in one record.

A family is one folder plus one registration. Its :class:`Family` record names the paper, the
generator that forges its test cases (or none, for ready-made cases and ``original``), the
settings it accepts, the scorers every run of it gets, the derived metrics computed over
joined rows, the report sections that show it, a pydantic model of its test cases'
``metadata`` and, when it asks more than one question per case, an answer-plan hook. What the
family adds to the shared registries (its own scorers, derived metrics, report sections,
loaders and CLI commands) is its :class:`Components`: the scorer, metric, section and loader
registries read them from :data:`FAMILIES` (:func:`components_of`), so a family, built in or a
plugin from the ``halluforge.families`` entry-point group, registers once. Stages and reports
read these fields; no code outside the family's own folder names the family.

This module sits low in the tree (it imports only the error tree and the registry), so stages,
metrics and reports import it downward; family packages import it and sit above everything
they use.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Self

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError

from halluforge.errors import ConfigError, DataError, RegistryError
from halluforge.plans import REPLY_SLOT, Plan, Turn
from halluforge.registry import Registry

if TYPE_CHECKING:
    from halluforge.forge.base import Generator
    from halluforge.records import Response, TestCase


def _category(value: Any) -> str | None:
    return str(value) if value else None


def _position(value: Any) -> float | str | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    return value


class CaseMetadata(BaseModel):
    """Base of a family's test-case metadata model: known fields typed, other keys kept.

    Extra keys are allowed because ready-made cases carry whatever their loader found;
    known fields are type-checked when a case is forged or loaded. Code outside forging reads
    a case's metadata through its family's model: ``ClaimsMetadata.of(case).tags`` in the
    family's own code, :func:`metadata_of` in generic code. The base declares the fields generic
    code reads, which any family may fill: ``category`` (what a case is reported under besides
    its family and variant, e.g. INVITE's categories) and ``answer_position`` (where the answer
    sits in the evidence: "first", "middle", "last" or a relative offset; ReEval Table 14).
    """

    model_config = ConfigDict(extra="allow")

    category: Annotated[str | None, BeforeValidator(_category)] = None
    answer_position: Annotated[float | str | None, BeforeValidator(_position)] = None

    @classmethod
    def of(cls, case: TestCase) -> Self:
        """The case's metadata read as this model.

        Reading is lenient (a report must open old or foreign runs): a value of the wrong type
        is kept as stored instead of raising; :meth:`Family.check_metadata` is the strict check
        made when a case is forged or loaded.
        """
        try:
            return cls.model_validate(case.metadata)
        except ValidationError:
            return cls.model_construct(**case.metadata)


@dataclass(frozen=True)
class LoaderSpec:
    """A loader a family brings: where it lives, the ``options`` keys it reads, what it yields.

    ``ready_made``: its examples are this family's test cases as they are (answered and scored
    without forging), unless the data source says ``options: {mode: examples}``.
    """

    target: str
    options: tuple[str, ...] = ()
    ready_made: bool = False


@dataclass(frozen=True)
class Components:
    """What a family adds to the shared registries, each by name -> ``"module:attr"`` (lazy).

    ``scorers`` (:class:`~halluforge.metrics.base.Scorer` classes), ``metrics`` (derived
    :class:`~halluforge.metrics.layer.Metric` classes), ``sections``
    (:class:`~halluforge.reports.sections.SectionKind` objects), ``loaders``
    (:class:`LoaderSpec`) and ``commands`` (modules with ``add_parser(subparsers)``, added to
    the ``halluforge`` CLI); and what it needs installed: ``extras`` (install extras) and
    ``needs`` (a hook naming packages its options need), checked before any run starts.
    """

    scorers: Mapping[str, str] = field(default_factory=dict)
    metrics: Mapping[str, str] = field(default_factory=dict)
    sections: Mapping[str, str] = field(default_factory=dict)
    loaders: Mapping[str, LoaderSpec] = field(default_factory=dict)
    commands: tuple[str, ...] = ()
    #: install extras the family cannot forge or score without (preflight checks them before a run)
    extras: tuple[str, ...] = ()
    #: ``"module:attr"`` of ``(options) -> list[Package]``: packages its options need beyond
    #: the extras (:class:`halluforge.requirements.Package`), e.g. a corpus package for an index
    needs: str | None = None


#: a family's answer-plan hook: (test case, setting name, first turn) -> the whole plan
PlanHook = Callable[["TestCase", str, "Turn"], "Plan"]
#: a family's hook for a later turn's prompt: (test case, turn, the response it follows) -> prompt
FollowHook = Callable[["TestCase", "Turn", "Response"], str]


@dataclass(frozen=True)
class Family:
    """One registered family.

    ``correct_means`` states in a sentence what a correct answer is for this family (for
    example "follows the edited context" for answer swapping, "keeps the true answer" for
    RECALL): reports and docs print it, because the same edited context can have opposite
    expected answers in two families.
    """

    name: str
    paper: str
    title: str
    correct_means: str
    generator: str | None = None
    settings: tuple[str, ...] | None = None
    scorers: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ()
    sections: tuple[str, ...] = ("table",)
    metadata: type[CaseMetadata] = CaseMetadata
    #: the answer-plan hook, or its ``"module:attr"`` path (imported on first use, so the spec stays light)
    plan: PlanHook | str | None = None
    #: builds a later turn's prompt from the reply it follows (default: quote it at ``{reply}``), or its path
    follow: FollowHook | str | None = None
    #: the family whose figures this one is compared with (``original`` for perturbed families)
    baseline: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    #: what the family adds to the scorer, metric, section and loader registries and the CLI
    brings: Components = field(default_factory=Components)

    def accepts(self, setting: str) -> bool:
        """Whether this family's cases are put to models under ``setting``."""
        return self.settings is None or setting in self.settings

    def generator_class(self) -> type[Generator] | None:
        """The generator class (imported on first use), or None for families that forge nothing."""
        if self.generator is None:
            return None
        cls: type[Generator] = _import(self.generator)
        return cls

    def build_generator(self, options: Mapping[str, Any] | None) -> Generator | None:
        """The generator configured with ``families.<name>`` options; unknown keys are errors."""
        cls = self.generator_class()
        if cls is None:
            if options:
                raise ConfigError(
                    f"families.{self.name}: this family forges nothing and takes no options",
                    hint=f"remove the options under families.{self.name}",
                )
            return None
        try:
            return cls.from_config(dict(options or {}))
        except ValidationError as exc:
            error = exc.errors()[0]
            key = ".".join(str(p) for p in error["loc"])
            raise ConfigError(
                f"families.{self.name}.{key}: {error['msg']}",
                hint=f"see docs/families/{self.name}.md for the options",
            ) from None

    def answer_plan(self, case: TestCase, setting: str, first: Turn) -> Plan:
        """The turns a target answers for one case under one setting (one turn by default)."""
        if self.plan is None:
            return (first,)
        hook: PlanHook = _import(self.plan) if isinstance(self.plan, str) else self.plan
        return hook(case, setting, first)

    def follow_prompt(self, case: TestCase, turn: Turn, parent: Response) -> str:
        """A later turn's prompt from the response it follows (by default the reply quoted at ``{reply}``)."""
        if self.follow is not None:
            hook: FollowHook = _import(self.follow) if isinstance(self.follow, str) else self.follow
            return hook(case, turn, parent)
        return turn.prompt.replace(REPLY_SLOT, parent.text)

    def check_metadata(self, case: TestCase) -> CaseMetadata:
        """The case's metadata as this family's typed model; a wrong type is a data error."""
        try:
            return self.metadata.model_validate(case.metadata)
        except ValidationError as exc:
            error = exc.errors()[0]
            key = ".".join(str(p) for p in error["loc"])
            raise DataError(
                f"test case {case.id} of {self.name}: metadata.{key}: {error['msg']}",
                field=f"metadata.{key}",
                hint=f"the {self.name} generator or loader must write this field as documented",
            ) from None


def _import(path: str) -> Any:
    import importlib

    module_name, _, attr = path.partition(":")
    return getattr(importlib.import_module(module_name), attr)


#: every family, by name: the built-in ones are entry points of this package
#: (``[project.entry-points."halluforge.families"]`` in pyproject.toml), a plugin's are its own,
#: and a test may :meth:`~halluforge.registry.Registry.register` one at run time
FAMILIES: Registry[Family] = Registry("families")


def all_families() -> list[Family]:
    """Every registered family spec (built in and plugins), in name order."""
    return [FAMILIES.get(name) for name in FAMILIES.names()]


def components_of(kind: str) -> dict[str, Any]:
    """What every registered family brings of one kind, by name.

    ``kind`` is ``scorers``, ``metrics``, ``sections`` or ``loaders``; two families bringing the
    same name for different objects is a registry error.
    """
    found: dict[str, Any] = {}
    owner: dict[str, str] = {}
    for spec in all_families():
        for name, target in getattr(spec.brings, kind).items():
            if name in found and found[name] != target:
                raise RegistryError(
                    f"{kind[:-1]} {name!r} is brought by both {owner[name]!r} and {spec.name!r}",
                    hint="rename one of them in its family spec",
                )
            found[name], owner[name] = target, spec.name
    return found


def family(name: str) -> Family:
    """The registered family called ``name`` (unknown names get a "did you mean")."""
    return FAMILIES.get(name)


def known_family(name: str) -> Family | None:
    """The family called ``name``, or None when none is registered (old or foreign runs)."""
    return FAMILIES.get(name) if name in FAMILIES else None


def metadata_of(case: TestCase) -> CaseMetadata:
    """A case's metadata as its family's typed model (:class:`CaseMetadata` for an unknown family)."""
    spec = known_family(case.family)
    return (spec.metadata if spec is not None else CaseMetadata).of(case)


__all__ = [
    "FAMILIES",
    "CaseMetadata",
    "Components",
    "Family",
    "FollowHook",
    "LoaderSpec",
    "PlanHook",
    "all_families",
    "components_of",
    "family",
    "known_family",
    "metadata_of",
]
