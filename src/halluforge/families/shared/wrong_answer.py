"""Choosing a plausible wrong answer: the generator model's proposal, checked, then rule fallbacks.

Answer swapping (AutoDebug/ReEval Category 1) and RECALL's counterfactual answers both need a
short, believable, *wrong* answer of the gold answer's kind. :class:`WrongAnswer` holds the
one set of checks every such answer passes, wherever it came from:

- the **form** of a generator model's proposal (:meth:`WrongAnswer.reject_answer`, with
  :func:`.proposals.form_refusal`): an answer, not commentary; the gold answer's coarse type and
  casing; not a gold alias; not already in the evidence;
- its **plausibility** (:meth:`WrongAnswer.implausible`): the gold answer's fine kind
  (:mod:`.kinds`: a writer for a writer, a river for a river), a date or number within a
  believable window and written like the gold answer, no contradiction with the rest of the
  passage (:mod:`.conflicts`);

and the **fallback chain** (:meth:`WrongAnswer.choose`): a shifted date or number, an
invented person (:mod:`.invented`), the same-kind answers of the entity table and of the most
similar questions (MiniLM neighbours, :mod:`.donors`), then the kind pool. :func:`ask_attempt`
and :func:`propose_answer` are the seeded ask-and-check loop every family's generator-model
step uses.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, cast

from halluforge.families.shared.answer_types import (
    AnswerType,
    form_type,
    looks_like_name,
    proper_name,
)
from halluforge.families.shared.calendar_ties import full_date_refusal
from halluforge.families.shared.conflicts import conflict
from halluforge.families.shared.donors import NeighbourIndex, build_donors, draw_kind, draw_ranked
from halluforge.families.shared.eras import date_refusal
from halluforge.families.shared.facts import (
    REFUSED,
    Facts,
    fact_checks,
    read_facts,
    refusal,
    refusal_summary,
    table_donors,
    table_member,
)
from halluforge.families.shared.invented import invented_names
from halluforge.families.shared.kinds import (
    FEMALE,
    GROUP_SUFFIX,
    Kind,
    has_members,
    is_member,
    lexicon_kinds,
    title_only,
)
from halluforge.families.shared.mentions import known_namesake
from halluforge.families.shared.numbers import numbers_close, years_close

# the seeded ask-and-check loop lives in .proposals; kept importable from here
from halluforge.families.shared.proposals import ask_attempt, form_refusal, propose_answer
from halluforge.families.shared.real_donors import RealDonors, fallback_refusal, real_donor_refusal
from halluforge.families.shared.roles import wants_female
from halluforge.families.shared.shifts import shift_answer
from halluforge.families.shared.spans import planned_replacements
from halluforge.families.shared.validate import (
    answer_shape,
    check_differs,
)
from halluforge.forge.base import EMBEDDING_CACHE, ForgeContext
from halluforge.knowledge.table import place_types
from halluforge.prompts import Template
from halluforge.records import Example, FieldProvenance
from halluforge.textkit.answers import contains_answer

if TYPE_CHECKING:
    from halluforge.knowledge.table import EntityTable

#: start of the skip reason when no wrong answer passes the plausibility check
NO_PLAUSIBLE = "no plausible wrong answer"


class WrongAnswer:
    """The checks and fallbacks that pick one plausible wrong answer (see the module docstring).

    ``max_answer_words`` caps an answer's length; ``max_attempts`` is how many proposals the
    generator model makes; ``neighbours`` and ``neighbour_min_examples`` govern the MiniLM
    donors; ``option_prefix`` is the config path named in reasons (``families.answer_swap``).
    """

    def __init__(
        self,
        *,
        max_answer_words: int = 5,
        max_attempts: int = 2,
        neighbours: bool = True,
        neighbour_min_examples: int = 20,
        option_prefix: str = "families",
        knowledge: bool = True,
        invent_people: bool = True,
        real_donors: RealDonors = "unknown",
    ) -> None:
        self.max_answer_words = max_answer_words
        self.max_attempts = max_attempts
        self.neighbours = neighbours
        self.neighbour_min_examples = neighbour_min_examples
        self.option_prefix = option_prefix
        self.knowledge = knowledge
        self.invent_people = invent_people
        self.real_donors = real_donors
        #: what each invented name was read from (country, gender), for the case's metadata
        self._invented: dict[str, dict[str, str]] = {}
        self._facts: dict[tuple[str, tuple[str, ...], str, str], Facts] = {}

    def table(self) -> EntityTable | None:
        """The entity table the fact checks read (None when ``knowledge`` is off)."""
        if not self.knowledge:
            return None
        from halluforge.knowledge.table import entity_table  # lazy: built or read on first use

        return entity_table()

    def facts(self, evidence: str, gold: list[str], question: str, kind: Kind) -> Facts | None:
        """The facts around the gold answer (:func:`.facts.read_facts`), read once per seed case."""
        table = self.table()
        if table is None or not kind.startswith(("person", "place")):
            return None
        cache_key = (evidence, tuple(gold), question, kind)
        found = self._facts.get(cache_key)
        if found is None:
            found = read_facts(evidence, gold, question, kind, table)
            if len(self._facts) > 256:
                self._facts.clear()
            self._facts[cache_key] = found
        return found

    def _in_table(
        self, candidate: str, gold: list[str], kind: Kind, evidence: str, question: str | None
    ) -> bool:
        """Whether the entity table knows ``candidate`` as of ``kind`` (:func:`.facts.table_member`)."""
        facts = self.facts(evidence, gold, question or "", kind)
        table = self.table()
        return facts is not None and table is not None and table_member(candidate, kind, facts, table)

    def fit_checks(
        self, candidate: str, gold: list[str], kind: Kind, evidence: str, question: str
    ) -> dict[str, bool]:
        """The fact checks that ran on ``candidate`` and whether each passed (recorded on the case)."""
        facts = self.facts(evidence, gold, question, kind)
        table = self.table()
        if facts is None or table is None:
            return {}
        invented = self._invented.get(candidate)
        if invented is not None:  # drawn from the gendered names the context asked for
            return {"gender": True} if invented.get("gender") in ("female", "male") else {}
        return fact_checks(candidate, facts, kind, table)

    def reject_answer(
        self,
        candidate: str,
        gold: list[str],
        answer_type: AnswerType,
        question: str,
        evidence: str,
        *,
        kind: Kind | None = None,
        dataset: dict[Kind, list[str]] | None = None,
    ) -> str | None:
        """Why a proposed wrong answer is unusable, or None when it is acceptable.

        With ``kind``, the proposal must also pass :meth:`implausible` (same fine kind, a
        value in a plausible window), as every fallback answer does.
        """
        reason = form_refusal(
            candidate, gold, answer_type, question, evidence, max_words=self.max_answer_words
        )
        if reason is None and kind is not None:
            reason = self.unknown_proposal(candidate, kind, dataset)
        if reason is None and kind is not None:
            reason = self.implausible(candidate, gold, kind, evidence, dataset, question=question)
        return reason

    def unknown_proposal(
        self, candidate: str, kind: Kind, dataset: dict[Kind, list[str]] | None
    ) -> str | None:
        """A generator's name must be a known entity: a person or place of that kind, anything else known.

        A 135M model invents as readily as it recalls ("Aleph 123" for a Chinese lunar mission),
        and an invented name of a thing reads as made up; an invented person is drawn from name
        stocks instead (:mod:`.invented`). A common noun ("mitochondria") is checked by kind in
        :meth:`implausible`, not here.
        """
        table = self.table()
        if table is None or kind in ("date", "number") or is_member(candidate, kind, dataset):
            return None
        if kind.startswith("person"):
            known = table.person(candidate) is not None
        elif kind.startswith("place"):
            known = bool(table.place(candidate, place_types(kind)) or table.country(candidate))
        else:
            known = not proper_name(candidate) or bool(table.lookup(candidate) or lexicon_kinds(candidate))
        if known:
            return None
        noun = kind.partition(":")[0] if kind.startswith(("person", "place")) else "entity"
        return f"proposal {candidate!r} is not a known {noun} (entity table, dataset or lexicon)"

    def implausible(
        self,
        candidate: str,
        gold: list[str],
        kind: Kind,
        evidence: str,
        dataset: dict[Kind, list[str]] | None = None,
        *,
        shaped: bool = False,
        question: str | None = None,
        invented: bool = False,
    ) -> str | None:
        """The plausibility check every wrong answer passes, from the LLM or a fallback.

        Same kind (a known member of the gold answer's fine kind when anything is known of
        that kind; :mod:`halluforge.families.shared.kinds`), a date within a window of years (in
        the year the question names, inside the spans of the entities the passage names:
        :mod:`.eras`) and a number within a factor of the gold one, written like the gold
        answer (proper name for proper name; a date like every place the passage writes it;
        with ``shaped``, a full date for a full date), not a gold alias, and
        not already in the evidence, and not contradicting the rest of the passage (a date that
        keeps its order against the passage's other dates, a noun that agrees with the verb
        after the gold answer; :func:`halluforge.families.shared.conflicts.conflict`). Returns the
        reason it fails, or None. An ``invented`` person (:mod:`.invented`) is of the kind by
        construction: it is not asked to be a known member of it.
        """
        ok, reason = check_differs(candidate, gold)
        if not ok:
            return reason
        if title_only(candidate, person=kind.startswith("person")):
            return f"{candidate!r} is only a title or kind word, not an answer"
        if len(candidate.split()) > self.max_answer_words:
            return f"{candidate!r} is too long"
        if contains_answer(evidence, candidate):
            return f"{candidate!r} already occurs in the evidence"
        form = form_type(candidate)
        if kind in ("date", "number"):
            if form is None or form not in (kind, form_type(gold[0])):  # "476" is written as a number
                return f"{candidate!r} is not a {kind} like the gold answer"
            # a date as the passage writes it: "on 7 November 1917" must not become "on November 1908";
            # where the passage writes the year alone, the replacement is the new year alone
            planned = planned_replacements(evidence, gold, candidate) if kind == "date" else []
            forms = [(evidence[start:end], new) for start, end, new in planned]
            forms = forms or ([(gold[0], candidate)] if shaped else [])
            for written, replacement in forms:
                if answer_shape(replacement) != answer_shape(written):
                    return f"{candidate!r} is not written like {written!r} (the gold answer as written)"
            close = years_close(gold[0], candidate) if kind == "date" else numbers_close(gold[0], candidate)
            if not close:
                return f"{candidate!r} is too far from the gold answer {gold[0]!r} to be believed"
            if kind == "date" and (moved := full_date_refusal(gold[0], candidate)) is not None:
                return moved
            era = (
                date_refusal(question or "", gold, candidate, evidence, self.table())
                if kind == "date"
                else None
            )
            return era or conflict(evidence, gold, kind, candidate)
        if form is not None:
            return f"{candidate!r} is a {form}, the gold answer a {kind}"
        member = (
            invented
            or is_member(candidate, kind, dataset)
            or self._in_table(candidate, gold, kind, evidence, question)
        )
        # a group kind ("thing:cat family") wants a known member even when none is known
        if ":" in kind and (has_members(kind, dataset) or kind.endswith(GROUP_SUFFIX)) and not member:
            return f"{candidate!r} is not a known {kind.partition(':')[2] or kind}"
        if kind.startswith("person") and not member and not looks_like_name(candidate, single=True):
            return f"{candidate!r} does not look like a person's name"
        female = kind.startswith("person") and bool(question) and wants_female(question or "")
        if female and not invented and not is_member(candidate, FEMALE, dataset):
            return f"{candidate!r} is not known to be a woman, as the question asks"
        if proper_name(gold[0]) != proper_name(candidate):
            return (
                f"{candidate!r} is not written like the gold answer {gold[0]!r} (proper name vs common noun)"
            )
        # an invented name has the gender it was drawn for and no life the table knows: no fact to check
        checks = {} if invented else self.fit_checks(candidate, gold, kind, evidence, question or "")
        return conflict(evidence, gold, kind, candidate) or refusal(checks, candidate)

    async def choose(
        self,
        example: Example,
        gold: list[str],
        answer_type: AnswerType,
        kind: Kind,
        evidence: str,
        ctx: ForgeContext,
        rng: random.Random,
        template: Template,
    ) -> tuple[str | None, FieldProvenance]:
        """A wrong answer for ``example``: the model's proposal if it passes, else the rule fallbacks.

        Fallbacks, best first: a date or number shifted a little; for a person, an invented
        name of the gold's nationality and gender; the table's or nearest question's answer of
        the same kind; any answer of the same kind in the dataset, then in the bundled lexicon.
        The real answers (and a proposal of a name) only where ``real_donors`` allows them
        (:meth:`no_real_donor`; under the default ``unknown`` no fallback gives one,
        :meth:`no_fallback_donor`). Returns None with the reasons when nothing passes.
        """
        rejected: list[str] = []
        attempts = 0
        pool, neighbours = self.donors(ctx)
        # a proposal of a name is a real entity (it must be known): no real donor, no proposal
        no_donor = self.no_real_donor(gold, kind)
        if ctx.llm is None:
            rejected.append("no generator model")
        elif no_donor is not None:
            rejected.append("no proposal asked: a proposed name is a real answer (see below)")
        else:
            candidate, attempts, rejected = await propose_answer(
                ctx,
                template,
                self.max_attempts,
                question=example.question,
                gold=gold,
                answer_type=answer_type,
                reject=lambda c: self.reject_answer(
                    c, gold, answer_type, example.question, evidence, kind=kind, dataset=pool
                ),
            )
            if candidate is not None:
                return candidate, FieldProvenance(
                    path="llm", method=template.name, attempts=attempts, rejected=rejected
                )

        def fallback(method: str, answer: str) -> tuple[str, FieldProvenance]:
            return answer, FieldProvenance(
                path="fallback", method=method, attempts=attempts, rejected=rejected
            )

        def accept(answer: str) -> str | None:
            return self.implausible(
                answer, gold, kind, evidence, pool, shaped=True, question=example.question
            )

        # fallbacks, best first (docs/families/answer_swap.md; see the docstring)
        if kind in ("date", "number"):
            shifted, refused = self.shifted(gold, kind, evidence, example.question, rng)
            if shifted is not None:
                return fallback("perturb", shifted)
            rejected.append(refused)
        facts = self.facts(evidence, gold, example.question, kind)
        table = self.table()
        refusals: list[str] = []
        # a person nobody knows before any real one: a real donor clashes with the gold's life
        new = self.invented_person(example.question, gold, kind, evidence, facts, rng, refusals, rejected)
        if new is not None:
            return fallback("invented", new)
        no_donor = no_donor or self.no_fallback_donor(kind)
        if no_donor is not None:  # no entity table, neighbour, dataset or lexicon answer
            rejected.append(no_donor)
            return None, FieldProvenance(path="fallback", method="none", attempts=attempts, rejected=rejected)
        known = facts is not None and (facts.gold or facts.gold_place or facts.gold_country)
        lexicon = self.real_donors == "always"
        from_table = (
            [[name, "entity_table"] for name in table_donors(kind, facts, gold, table)]
            if facts is not None and table is not None
            else []
        )
        # the table's donors first when it knows the gold entity (every fact can be checked)
        for source in ("table", "neighbour") if known else ("neighbour", "table"):
            if source == "neighbour" and neighbours.reason is not None:
                rejected.append(f"no neighbours: {neighbours.reason}")
                continue
            ranked = from_table if source == "table" else neighbours.ranked(example.id)
            if not lexicon:  # a lexicon member is well known by construction: "always" only
                ranked = [row for row in ranked if row[1] != "kind_lexicon"]
            new, path, why = draw_ranked(ranked, accept)
            refusals.extend(why)
            rejected.extend(why[:3])
            if new is not None and path is not None:
                return fallback(path, new)
        if ":" in kind or kind == "person":  # a bare "place" or "other": only a neighbour is trusted
            new, path = draw_kind(kind, pool, rng, accept, lexicon=lexicon, refusals=refusals)
            if new is not None and path is not None:
                return fallback(path, new)
        summary = refusal_summary(refusals)
        if summary:
            rejected.append(f"{REFUSED}s refused donors: {summary}")
        rejected.append(f"no answer of kind {kind} passes the plausibility check")
        return None, FieldProvenance(path="fallback", method="none", attempts=attempts, rejected=rejected)

    def shifted(
        self, gold: list[str], kind: Kind, evidence: str, question: str, rng: random.Random
    ) -> tuple[str | None, str]:
        """A date or number shifted a little that passes :meth:`implausible` (``shift_answer``)."""
        return shift_answer(
            gold,
            kind,
            evidence,
            lambda answer: self.implausible(answer, gold, kind, evidence, shaped=True, question=question),
            rng,
        )

    def no_real_donor(self, gold: list[str], kind: Kind) -> str | None:
        """Why no real answer may replace ``gold`` under ``real_donors``, or None when one may."""
        return real_donor_refusal(
            self.real_donors, gold, kind, self.table, f"{self.option_prefix}.real_donors"
        )

    def namesake(self, evidence: str, gold: list[str], kind: Kind) -> str | None:
        """Why a person's swap would rename someone else ("Percy Bysshe Shelley", a father), or None.

        See :func:`.mentions.known_namesake`; nothing is checked without the entity table.
        """
        table = self.table()
        if table is None or not kind.startswith("person"):
            return None
        found = known_namesake(evidence, gold, table)
        if found is None:
            return None
        return (
            f"the passage names {found!r}, a known person or a relative whose name holds the answer's: "
            "a swap would rename them"
        )

    def no_fallback_donor(self, kind: Kind) -> str | None:
        """Why no rule fallback may give a real answer of ``kind`` (:func:`.real_donors.fallback_refusal`)."""
        return fallback_refusal(self.real_donors, kind, f"{self.option_prefix}.real_donors")

    def invented_person(
        self,
        question: str,
        gold: list[str],
        kind: Kind,
        evidence: str,
        facts: Facts | None,
        rng: random.Random,
        refusals: list[str],
        rejected: list[str],
    ) -> str | None:
        """An invented name for a person answer that passes :meth:`implausible`, or None.

        Off with ``invent_people`` or ``knowledge``; the reason nothing was invented (no
        nationality to read, no names of that country) goes to ``rejected``.
        """
        table = self.table()
        if not self.invent_people or not kind.startswith("person") or facts is None or table is None:
            return None
        gender = "female" if wants_female(question) else None
        names, info = invented_names(facts, evidence, gold, question, table, rng, gender=gender)
        if not names:
            rejected.append(info.get("invented", "no invented name"))
        for name in names:
            reason = self.implausible(
                name, gold, kind, evidence, shaped=True, question=question, invented=True
            )
            if reason is None:
                if len(self._invented) > 256:
                    self._invented.clear()
                self._invented[name] = info
                return name
            refusals.append(reason)
        return None

    def invented_from(self, name: str) -> dict[str, str] | None:
        """What an invented name was read from (country, its source, gender), or None if not invented."""
        return self._invented.get(name)

    def donors_key(self) -> str:
        """The key of the donors in ``ForgeContext.resources`` (it names the options they depend on)."""
        return f"donors:{self.max_answer_words}:{self.neighbours}:{self.neighbour_min_examples}"

    def donors(self, ctx: ForgeContext) -> tuple[dict[Kind, list[str]], NeighbourIndex]:
        """The dataset's answers by fine kind and the neighbour donors, built once per forge context."""
        key = self.donors_key()
        if key not in ctx.resources:
            cache = ctx.resources.get(EMBEDDING_CACHE)
            ctx.resources[key] = build_donors(
                list(ctx.examples) or [s.example for s in ctx.seed_cases],
                max_words=self.max_answer_words,
                neighbours=None
                if self.neighbours
                else f"neighbours are off ({self.option_prefix}.neighbours)",
                min_examples=self.neighbour_min_examples,
                cache_dir=str(cache) if cache else None,
            )
        return cast(tuple[dict[Kind, list[str]], NeighbourIndex], ctx.resources[key])


__all__ = ["NO_PLAUSIBLE", "WrongAnswer", "ask_attempt", "propose_answer"]
