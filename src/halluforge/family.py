"""The family spec: everything the core needs to know about one family, in one record.

A family is one folder plus one registration. Its :class:`Family` record names the paper, the
generator that forges its test cases (or none, for ready-made cases and ``original``), the
settings it accepts, the scorers every run of it gets, the derived metrics computed over
joined rows, the report sections that show it, a pydantic model of its test cases'
``metadata`` and, when it asks more than one question per case, an answer-plan hook. Stages and
reports read these fields; no code outside the family's own folder names the family.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, ValidationError

from halluforge.errors import ConfigError, DataError
from halluforge.registry import Registry

if TYPE_CHECKING:
    from halluforge.forge.base import Generator
    from halluforge.records import Response, TestCase
    from halluforge.settings import Plan, Turn


class CaseMetadata(BaseModel):
    """Base of a family's test-case metadata model: known fields typed, other keys kept.

    Extra keys are allowed because ready-made cases carry whatever their loader found;
    known fields are type-checked when a case is forged or loaded.
    """

    model_config = ConfigDict(extra="allow")


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
    plan: PlanHook | None = None
    #: builds a later turn's prompt from the reply it follows (default: quote it at ``{reply}``)
    follow: FollowHook | None = None
    #: the family whose figures this one is compared with (``original`` for perturbed families)
    baseline: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)

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
        return self.plan(case, setting, first) if self.plan is not None else (first,)

    def follow_prompt(self, case: TestCase, turn: Turn, parent: Response) -> str:
        """A later turn's prompt from the response it follows (by default the reply quoted at ``{reply}``)."""
        if self.follow is not None:
            return self.follow(case, turn, parent)
        from halluforge.settings import REPLY_SLOT

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


FAMILIES: Registry[Family] = Registry(
    "families",
    {
        "original": "halluforge.families.original:FAMILY",
        "answer_swap": "halluforge.families.answer_swap:FAMILY",
        "context_enrich": "halluforge.families.context_enrich:FAMILY",
        "false_premise": "halluforge.families.invite:FALSE_PREMISE",
        "invalid_date": "halluforge.families.invite:INVALID_DATE",
        "claims": "halluforge.families.claims:FAMILY",
        "counterfactual": "halluforge.families.counterfactual:FAMILY",
    },
)


def family(name: str) -> Family:
    """The registered family called ``name`` (unknown names get a "did you mean")."""
    return FAMILIES.get(name)


def known_family(name: str) -> Family | None:
    """The family called ``name``, or None when none is registered (old or foreign runs)."""
    return FAMILIES.get(name) if name in FAMILIES else None


__all__ = ["FAMILIES", "CaseMetadata", "Family", "FollowHook", "PlanHook", "family", "known_family"]
