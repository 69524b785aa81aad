"""The ``false_premise`` family: questions that presuppose a fact the knowledge base does not hold.

Method (INVITE, Ramakrishna et al. 2023, §3.1): take a true fact (subject, predicate, object)
from a knowledge base, replace its subject or its object by another entity seen with the same
predicate (of the same type where the predicate has a type check: persons, places), and keep
the new fact only when the KB does not hold it. A per-predicate template turns the new fact
into a question that takes it for granted ("In what year did X marry Y?") and a reference
answer that rejects the premise ("X was never married to Y."). A model that answers the
question as asked goes along with the false premise, i.e. hallucinates.

This is a pure rule family (no generator LLM; provenance path ``rule``). Inputs are
(predicate, k) slots, so the pipeline can forge, store and resume them one at a time.

Scale: the KB is streamed once into a :class:`~halluforge.families.invite.kb_index.KBIndex` (entity names
interned as ints, facts as sorted 64-bit keys). Each question draws random indices into
per-predicate candidate arrays and rejects a draw when the KB holds the new fact (binary
search), with a bounded number of tries: the cost per question does not grow with the
predicate's size. Every slot has its own random stream derived from (seed, predicate, k), so
the output is identical for the same seed whatever order the slots are forged in.

Fit: a random swap often gives itself away by world knowledge (a donor dead a century before
the replaced person's time, a spouse of the other gender, a birthplace in another country).
With ``fit_checks`` on (the default), a draw must also fit the replaced entity wherever the
offline entity table knows both (:mod:`halluforge.families.invite.fit`: era, work_era, gender,
role, place, not_true); what the table does not know passes unchecked and the case says so.
"""

from __future__ import annotations

import hashlib
import random
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from halluforge.errors import ConfigError
from halluforge.families.invite.kb import EntityType, KBFormat
from halluforge.families.invite.kb_index import KBIndex, PredicateFacts, bundled_kb
from halluforge.families.invite.templates import (
    TEMPLATES_NAME,
    PredicateTemplates,
    QATemplate,
    Side,
    load_templates,
)
from halluforge.forge.base import ForgeContext, Generator, GeneratorOptions
from halluforge.records import Edit, FieldProvenance, Provenance, Skip, TestCase, stable_id

if TYPE_CHECKING:
    from halluforge.families.invite.fit import FitChecks
    from halluforge.knowledge.table import EntityTable

_LINKS_KEPT = 20


#: date predicates the fit checks read from the KB itself when ``fit_checks`` is on: life years
#: of people and dates of works the entity table lacks (indexed beside the forged predicates)
FIT_PREDICATES = ("birthYear", "deathYear", "releaseDate", "publicationDate")
#: a year or an ISO date, as a date predicate's literal holds it
_DATE = re.compile(r"(-?\d{1,4})(?:-\d{2}-\d{2})?")


class FalsePremiseOptions(GeneratorOptions):
    """Options of the ``false_premise`` family (``families.false_premise`` in a run config)."""

    kb: str | list[str] | None = Field(
        default=None, description="KB file(s): .nt/.ttl(.gz|.bz2)/.tsv/.csv/.jsonl; default: bundled sample"
    )
    format: KBFormat = Field(default="auto", description="file format; auto = from the extension")
    types: dict[EntityType, str | list[str]] = Field(
        default_factory=dict, description="type list files: {person: persons.txt, place: places.txt}"
    )
    types_from_kb: bool = Field(default=True, description="also read rdf:type Person/Place triples of the KB")
    predicates: list[str] | None = Field(
        default=None,
        description="predicates to use (local names or IRIs); default: every one with a template",
    )
    per_predicate: int = Field(default=20, ge=1, description="questions per predicate")
    swap: Literal["template", "subject", "object", "both"] = Field(
        default="template",
        description="side to replace: the template's choice, always subject/object, or alternate (both)",
    )
    templates: str | None = Field(default=None, description="YAML file whose entries add to / replace ours")
    max_tries: int = Field(default=64, ge=1, description="draws per fact before trying another fact")
    max_facts: int = Field(default=8, ge=1, description="facts tried per question before it is skipped")
    fit_checks: bool = Field(
        default=True,
        description="a donor must fit the replaced entity where the offline entity table knows both "
        "(people: adult lifetimes overlap, a shared role, the same gender for a spouse, adult and alive "
        "in a dated work's year; places: the same country, else region); off: any donor of the side, "
        "and the table is never loaded",
    )


@dataclass(frozen=True)
class Slot:
    """One input of the generator: question number ``k`` of ``predicate``.

    ``shortfall`` > 0 marks the single extra input that records how many questions a predicate
    could not have (fewer usable facts than ``per_predicate``).
    """

    predicate: str
    k: int
    shortfall: int = 0

    @property
    def id(self) -> str:
        return f"{self.predicate}:{'shortfall' if self.shortfall else self.k}"


# -- per-predicate sampling plan ---------------------------------------------------------------


class _Plan:
    """What one predicate's questions draw from: usable facts, candidate arrays and the fact order."""

    def __init__(self, index: KBIndex, facts: PredicateFacts, spec: PredicateTemplates, size: int, seed: int):
        import numpy as np

        self.facts = facts
        self.spec = spec
        keys = np.frombuffer(facts.by_subject, dtype=np.uint64)
        subjects = (keys >> np.uint64(32)).astype(np.uint32)
        objects = (keys & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        ok = np.ones(len(keys), dtype=bool)
        self.checked: dict[Side, bool] = {}
        self.pools: dict[Side, Any] = {}
        sides: tuple[tuple[Side, Any], ...] = (("subject", subjects), ("object", objects))
        for side, ids in sides:
            kind = spec.types.get(side)
            pool = np.unique(ids)
            self.checked[side] = kind is not None and index.has_type_info(kind)
            if kind is not None and self.checked[side]:
                typed = np.fromiter(index.type_ids(kind), dtype=np.uint32)
                ok &= np.isin(ids, typed)
                pool = pool[np.isin(pool, typed)]
            self.pools[side] = _as_array(pool)
        eligible = np.flatnonzero(ok)
        self.n_eligible = len(eligible)
        rng = np.random.default_rng(_seed_int(seed, spec.predicate))
        take = min(size, self.n_eligible)
        picked = eligible[rng.choice(self.n_eligible, size=take, replace=False)] if take else eligible[:0]
        self.order = _as_array(picked, "Q")
        self.eligible = _as_array(eligible, "Q")
        self.untyped = sorted(k for s, k in spec.types.items() if not self.checked[s])


def _as_array(values: Any, code: str = "I") -> Any:
    from array import array

    out = array(code)
    out.frombytes(values.astype("uint32" if code == "I" else "uint64").tobytes())
    return out


def _seed_int(seed: int, *parts: object) -> int:
    blob = "|".join(str(p) for p in (seed, *parts)).encode("utf-8")
    return int.from_bytes(hashlib.sha256(blob).digest()[:8], "big")


class FalsePremise(Generator):
    """Forge false-premise questions from KB triples (INVITE's main categories)."""

    family = "false_premise"
    Options = FalsePremiseOptions
    uses_seed_cases = False

    @property
    def needs_examples(self) -> bool:
        """False: questions come from the knowledge base, not from loaded examples."""
        return False

    def __init__(self, options: GeneratorOptions | None = None) -> None:
        super().__init__(options)
        self.opts: FalsePremiseOptions = self.options  # type: ignore[assignment]
        self._templates, self._templates_hash = load_templates(self.opts.templates)
        self._index: KBIndex | None = None
        self._plans: dict[tuple[str, int], _Plan] = {}
        self._fit: FitChecks | None = None
        self._lock = threading.Lock()

    # -- resources -----------------------------------------------------------------------

    def template_hashes(self) -> dict[str, str]:
        return {TEMPLATES_NAME: self._templates_hash}

    def wanted_predicates(self) -> list[str]:
        """The predicates to forge from, each with a template (unknown ones are a ConfigError)."""
        if self.opts.predicates is None:
            return sorted(self._templates)
        from halluforge.families.invite.kb import local_name

        chosen = []
        for predicate in self.opts.predicates:
            name = local_name(predicate)
            if name not in self._templates:
                raise ConfigError(
                    f"families.false_premise.predicates: no template for {name!r}",
                    hint="add an entry for it to a templates file and pass it as `templates`",
                )
            chosen.append(name)
        return chosen

    def kb_paths(self) -> tuple[list[Path], dict[EntityType, list[Path]]]:
        """KB files and type lists from the options; the bundled sample when no KB is given."""
        types: dict[EntityType, list[Path]] = {
            kind: [Path(p) for p in ([value] if isinstance(value, str) else value)]
            for kind, value in self.opts.types.items()
        }
        if self.opts.kb is None:
            kb_file, lists = bundled_kb()
            for kind, path in lists.items():
                types.setdefault(kind, [path])
            return [kb_file], types
        paths = [self.opts.kb] if isinstance(self.opts.kb, str) else self.opts.kb
        return [Path(p) for p in paths], types

    def index(self) -> KBIndex:
        """The KB index, built on first use by streaming the KB files once."""
        with self._lock:
            if self._index is None:
                paths, types = self.kb_paths()
                predicates = self.wanted_predicates()
                if self.opts.fit_checks:  # the KB's own dates feed the fit checks
                    predicates = list(dict.fromkeys([*predicates, *FIT_PREDICATES]))
                self._index = KBIndex.build(
                    paths,
                    self.opts.format,
                    predicates=predicates,
                    type_lists=types,
                    types_from_kb=self.opts.types_from_kb,
                )
            return self._index

    def table(self) -> EntityTable | None:
        """The entity table the fit checks read (None when ``fit_checks`` is off), loaded on first use."""
        if not self.opts.fit_checks:
            return None
        from halluforge.knowledge.table import entity_table  # lazy: built or read on first use

        return entity_table()

    def fit(self) -> FitChecks | None:
        """The fit checks over this KB's entities (None when ``fit_checks`` is off)."""
        if not self.opts.fit_checks:
            return None
        index = self.index()
        with self._lock:
            if self._fit is None:
                from halluforge.families.invite.fit import FitChecks  # lazy, like the table

                table = self.table()
                assert table is not None
                dated = _years(index, "publicationDate") | _years(index, "releaseDate")
                self._fit = FitChecks(
                    table, index.names, born=_years(index, "birthYear"), died=_years(index, "deathYear"),
                    dated=dated,
                )  # fmt: skip
            return self._fit

    def plan(self, predicate: str, seed: int) -> _Plan | None:
        """The sampling plan of ``predicate`` (None when the KB has no fact of it)."""
        index = self.index()
        facts = index.facts.get(predicate)
        if facts is None:
            return None
        with self._lock:
            key = (predicate, seed)
            if key not in self._plans:
                spec = self._templates[predicate]
                self._plans[key] = _Plan(index, facts, spec, self.opts.per_predicate, seed)
            return self._plans[key]

    # -- the pipeline contract -----------------------------------------------------------

    def inputs(self, ctx: ForgeContext) -> list[Any]:
        """One slot per wanted question, plus one shortfall slot per predicate that lacks facts."""
        return list(self.slots(ctx.seed))

    def slots(self, seed: int = 0) -> Iterator[Slot]:
        """The slots in a fixed order: predicates sorted as given, k = 0..n-1."""
        for predicate in self.wanted_predicates():
            plan = self.plan(predicate, seed)
            available = 0 if plan is None else len(plan.order)
            for k in range(available):
                yield Slot(predicate, k)
            if available < self.opts.per_predicate and (self.opts.predicates is not None or available):
                yield Slot(predicate, available, shortfall=self.opts.per_predicate - available)

    def input_id(self, item: Any) -> str:
        return str(item.id)

    async def forge_one(self, item: Any, ctx: ForgeContext) -> list[TestCase | Skip]:
        return [self.forge_slot(item, ctx.seed)]

    def generate(self, seed: int = 0) -> Iterator[TestCase | Skip]:
        """Every test case (or skip) of this configuration, in slot order; same seed, same output."""
        for slot in self.slots(seed):
            yield self.forge_slot(slot, seed)

    # -- one question ----------------------------------------------------------------------

    def forge_slot(self, slot: Slot, seed: int = 0) -> TestCase | Skip:
        """Build the ``k``-th question of a predicate, or a Skip saying why there is none."""
        plan = self.plan(slot.predicate, seed)
        if slot.shortfall:
            have = 0 if plan is None else plan.n_eligible
            return self.skip(
                slot,
                f"predicate {slot.predicate!r} has {have} usable facts; {slot.shortfall} of "
                f"{self.opts.per_predicate} questions cannot be made",
            )
        if plan is None:  # pragma: no cover - slots() never yields this
            return self.skip(slot, f"predicate {slot.predicate!r} has no facts in the KB")
        rng = random.Random(_seed_int(seed, slot.predicate, slot.k))
        side = self._side(plan.spec, slot.k)
        fact_index = plan.order[slot.k]
        refusals: list[str] = []
        for attempt in range(self.opts.max_facts):
            if attempt:
                fact_index = plan.eligible[rng.randrange(plan.n_eligible)]
            subject, obj = plan.facts.fact(fact_index)
            drawn = self._draw(plan, side, subject, obj, rng, refusals)
            if drawn is not None:
                new, fit = drawn
                return self._test_case(plan, slot, side, subject, obj, new, rng, attempt, fit)
        summary = ""
        if refusals:
            from halluforge.families.shared.facts import refusal_summary

            summary = refusal_summary(refusals)
        return self.skip(
            slot,
            f"no {side} of {slot.predicate!r} makes a fact the KB lacks"
            + (" and fits the replaced entity" if summary else "")
            + f" after {self.opts.max_facts} facts x {self.opts.max_tries} draws"
            + (f"; fit checks refused by {summary}" if summary else ""),
        )

    def _side(self, spec: PredicateTemplates, k: int) -> Side:
        if self.opts.swap == "template":
            return spec.swap
        if self.opts.swap == "both":
            return "subject" if k % 2 == 0 else "object"
        return self.opts.swap

    def _draw(
        self, plan: _Plan, side: Side, subject: int, obj: int, rng: random.Random, refusals: list[str]
    ) -> tuple[int, dict[str, bool]] | None:
        """Rejection sampling: a random candidate of the side that is new, makes an absent fact and fits.

        Returns the candidate and the fit checks it passed; each refusal by a fit check is added
        to ``refusals``. When the table knows the replaced entity, a candidate whose checks ran
        and passed is preferred to one the table cannot check (the first such one is kept as a
        fallback), so refusing a misfit does not just move the draw to a name nothing is known
        of. Each draw is O(1) (an index into the side's candidate array) plus one binary search
        and, with fit checks on, a few cached dict lookups; at most ``max_tries`` draws.
        """
        pool = plan.pools[side]
        if len(pool) < 2:
            return None
        has = plan.facts.has
        fit = self.fit()
        replaced, other = (subject, obj) if side == "subject" else (obj, subject)
        prefer_checked = fit is not None and fit.known(replaced).known
        unchecked: tuple[int, dict[str, bool]] | None = None
        for _ in range(self.opts.max_tries):
            candidate: int = pool[rng.randrange(len(pool))]
            if candidate in (subject, obj):  # no change, or a self-referencing fact
                continue
            if has(candidate, obj) if side == "subject" else has(subject, candidate):
                continue
            if fit is None:
                return candidate, {}
            checks = fit.check(plan.spec.predicate, replaced, candidate, other)
            if not all(checks.values()):
                refusals.append(fit.refusal(checks, candidate))
            elif fit.checked(candidate, checks) or not prefer_checked:
                return candidate, checks
            elif unchecked is None:
                unchecked = candidate, checks
        return unchecked

    def _test_case(
        self,
        plan: _Plan,
        slot: Slot,
        side: Side,
        subject: int,
        obj: int,
        new: int,
        rng: random.Random,
        attempt: int,
        fit: dict[str, bool],
    ) -> TestCase:
        names = self.index().names
        spec = plan.spec
        choice = rng.randrange(len(spec.templates))
        template = spec.templates[choice]
        s_name, o_name, new_name = names[subject], names[obj], names[new]
        valid = {"subject": s_name, "object": o_name}
        invalid = {**valid, side: new_name}
        question = template.question.format(**invalid)
        answer = template.answer.format(**invalid)
        if side == "subject":
            links, count = plan.facts.objects_of(new, _LINKS_KEPT), plan.facts.count_objects_of(new)
            new_s, new_o = new, obj
        else:
            links, count = plan.facts.subjects_of(new, _LINKS_KEPT), plan.facts.count_subjects_of(new)
            new_s, new_o = subject, new
        checks = {
            "fact_absent": not plan.facts.has(new_s, new_o),
            "entity_changed": new not in (subject, obj),
        }
        if plan.checked[side]:
            kind = spec.types[side]
            checks["same_type"] = new in self.index().type_ids(kind)
        method = f"swap_{side}"
        return TestCase(
            id=stable_id(self.family, spec.predicate, s_name, o_name, side, new_name, choice),
            family=self.family,
            question=question,
            reference=answer,
            expected=[],
            variant=spec.predicate,
            edits=[Edit.locate("question", "entity", valid[side], new_name, question)],
            provenance=Provenance(
                template_hashes=self.template_hashes(),
                fields={
                    "question": FieldProvenance(path="rule", method=method, attempts=attempt + 1),
                    "reference": FieldProvenance(path="rule", method="answer_template"),
                },
            ),
            checks=checks,
            metadata={
                "predicate": spec.predicate,
                "slot": slot.k,
                "valid_question": template.question.format(**valid),
                "invalid_question": question,
                "original_subject": s_name,
                "original_object": o_name,
                "swapped_side": side,
                "swapped_entity": new_name,
                "replaced_entity": valid[side],
                "new_entity_links": [names[i] for i in links],
                "new_entity_link_count": count,
                "template": choice,
                "type_checked": [s for s, done in plan.checked.items() if done],
                "type_check_missing": plan.untyped,
                "fit_checks": fit,
                "fit_unknown": self._unknown(subject if side == "subject" else obj, new),
            },
        )

    def _unknown(self, replaced: int, new: int) -> list[str] | None:
        """The replaced and new entities the table does not know (they passed unchecked); None: off."""
        fit = self.fit()
        return None if fit is None else fit.unknown(replaced, new)


def _years(index: KBIndex, predicate: str) -> dict[int, int]:
    """The years of one date predicate's facts (``birthYear``, ``releaseDate``), by subject id.

    A year ("1946") or a date ("1939-08-25"); the first fact of a subject wins. The fit checks
    read these for entities the entity table lacks (:class:`~halluforge.families.invite.fit.FitChecks`).
    """
    facts = index.facts.get(predicate)
    years: dict[int, int] = {}
    if facts is None:
        return years
    for i in range(len(facts)):
        subject, obj = facts.fact(i)
        found = _DATE.fullmatch(index.names[obj].strip())
        if found is not None:
            years.setdefault(subject, int(found.group(1)))
    return years


__all__ = [
    "FalsePremise",
    "FalsePremiseOptions",
    "PredicateTemplates",
    "QATemplate",
    "Slot",
    "load_templates",
]
