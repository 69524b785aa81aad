"""Finer answer kinds: a writer for a writer, a river for a river, a currency for a currency.

:func:`~halluforge.families.shared.answer_types.classify_answer` says whether an answer is a date, a
number, a person, a place or "other". That is too coarse for a wrong answer a reader would
believe: *Romeo and Juliet* by George Washington is a person for a person, the Sahara as the
capital of Canada a place for a place, and "other" lets the yen become ``femur``. ReEval asks
for "a plausible wrong answer of the same type"; this module names the type finely enough.

A **kind** is a string ``"<coarse>:<fine>"`` (``"person:writer"``, ``"place:river"``,
``"thing:currency"``) or a coarse type alone when nothing finer is known (``"person"``,
``"other"``, ``"date"``, ``"number"``). Rules, strongest first:

1. dates and numbers keep their coarse type; how close a wrong value must be is
   :func:`numbers_close` / :func:`years_close` (a plausible window, not a kind);
2. people get a **role** from the question's verb or noun, tried in a fixed priority order
   (astronaut, explorer, scientist, inventor, composer, painter, sculptor, director, writer,
   leader, ...): "who wrote ..." is a writer, "who was the first person to walk on the moon"
   an astronaut, "who led the first expedition to the south pole" an explorer (the role cues
   live in :mod:`~halluforge.families.shared.roles`);
3. places and things get the **noun the question asks about**: of the cue words found in the
   question's last sentence, the one that comes first ("in which *country* is the city of
   Timbuktu" is a country, "which *element* has the chemical symbol Fe" an element);
4. with no cue in the question, an answer that is a known member of one kind (the bundled
   lexicon, ``data/bundled/kind_lexicon.json``) takes that kind ("New York City": a city).

Members of a kind (:func:`lexicon`) are well-known names and terms compiled by the project;
the answer-swap fallback draws from them when the dataset itself has no other answer of the
kind, and a generator model's proposal must be a known member (of the lexicon or of the
dataset's answers of that kind) when its kind has members. English only; a heuristic, checked
on held-out questions in ``tests/unit/forge/test_kinds.py`` and ``docs/families/answer_swap.md``.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping, Sequence
from importlib import resources

from halluforge.families.shared.answer_types import AnswerType, classify_answer, form_type, looks_like_name
from halluforge.families.shared.roles import (
    ROLES,
    TITLE_WORDS,
    asks_person,
    first_span,
    last_sentence,
    passage_role,
    question_role,
    team_answer,
)
from halluforge.textkit.answers import normalize_answer

Kind = str


#: place and thing kinds by the noun a question asks about (the earliest cue in the question wins)
_NOUN_CUES: tuple[tuple[str, str], ...] = (
    ("place:capital", r"capital(?: city)?"),
    ("place:range", r"mountain range|range"),
    ("place:city", r"city|cities|town"),
    ("place:country", r"country|countries"),
    ("place:region", r"state|province|region|county|territory"),
    ("place:river", r"river"),
    ("place:volcano", r"volcano|volcanoes"),
    ("place:mountain", r"mountain|peak"),
    ("place:ocean", r"ocean"),
    ("place:sea", r"sea"),
    ("place:lake", r"lake"),
    ("place:desert", r"desert"),
    ("place:strait", r"strait|straits|channel"),
    ("place:island", r"island"),
    ("place:continent", r"continent"),
    ("thing:chemical symbol", r"chemical symbol|symbol"),
    ("thing:element", r"element|metal"),
    ("thing:gas", r"gas|gases"),
    ("thing:material", r"material|mineral|substance"),
    ("thing:planet", r"planet"),
    ("thing:galaxy", r"galaxy"),
    ("thing:currency", r"currency"),
    ("thing:organ", r"organ"),
    ("thing:bone", r"bone"),
    ("thing:organelle", r"part of the cell|organelle"),
    ("thing:language", r"language"),
    ("thing:ship", r"ship|vessel|boat"),
    ("thing:spacecraft", r"satellite|spacecraft|lunar module|rocket|space probe"),
    ("thing:book of the bible", r"book of the bible"),
    ("thing:sport", r"sport"),
    ("thing:ingredient", r"ingredient"),
    ("thing:company", r"company|companies|firm|brand|manufacturer|carmaker|airline"),
    ("thing:organisation", r"agency|organi[sz]ation|institution"),
    ("thing:animal", r"animal|species|mammal|bird"),
    ("thing:instrument", r"instrument"),
    ("thing:colour", r"colou?r"),
)
_NOUN_RE = re.compile("|".join(rf"(?P<k{i}>\b(?:{cue})s?\b)" for i, (_, cue) in enumerate(_NOUN_CUES)), re.I)
#: kinds whose members may also answer for another kind: any capital is a city, any volcano a mountain
_ALSO: Mapping[Kind, tuple[Kind, ...]] = {
    "place:city": ("place:capital",),
    "place:mountain": ("place:volcano",),  # a volcano is a mountain, not the other way round
}
#: answer forms that show a kind on their own
_FORM_KINDS: tuple[tuple[Kind, re.Pattern[str]], ...] = (
    ("place:river", re.compile(r"\briver\b", re.I)),
    ("place:lake", re.compile(r"^lake\b", re.I)),
    ("place:mountain", re.compile(r"^(?:mount|mt\.?)\s", re.I)),
    ("place:ocean", re.compile(r"\bocean\b", re.I)),
    ("place:desert", re.compile(r"\bdesert\b", re.I)),
    ("place:strait", re.compile(r"\bstraits? of\b", re.I)),
)


@functools.lru_cache(maxsize=1)
def lexicon() -> dict[Kind, tuple[str, ...]]:
    """The bundled members of each kind (``data/bundled/kind_lexicon.json``), read once."""
    resource = resources.files("halluforge.data").joinpath("bundled", "kind_lexicon.json")
    raw = json.loads(resource.read_text(encoding="utf-8"))
    return {kind: tuple(members) for kind, members in raw.items() if not kind.startswith("_")}


@functools.lru_cache(maxsize=1)
def _member_kinds() -> dict[str, tuple[Kind, ...]]:
    """Normalised member → the lexicon kinds it belongs to."""
    found: dict[str, list[Kind]] = {}
    for kind, members in lexicon().items():
        for member in members:
            found.setdefault(normalize_answer(member), []).append(kind)
    return {key: tuple(kinds) for key, kinds in found.items()}


def lexicon_kinds(answer: str) -> tuple[Kind, ...]:
    """The lexicon kinds ``answer`` is a member of (empty when unknown)."""
    return _member_kinds().get(normalize_answer(answer), ())


@functools.lru_cache(maxsize=1)
def kind_words() -> frozenset[str]:
    """Words that name a kind or a role, not one thing: "desert", "river", "symbol", "president".

    Such a word next to a name ("Gobi Desert", "the largest desert") says what the thing is,
    not which one; the restatement checks do not read it as part of the answer's name. The
    head noun of each lexicon kind ("book" of "book of the bible", "minister" of "prime
    minister") and each person role, with their plurals.
    """
    heads = {kind.partition(":")[2].split(" of ")[0].split()[-1] for kind in lexicon()}
    found = heads | {role.split()[-1] for role in ROLES}
    plurals = {w[:-1] + "ies" if w.endswith("y") else w + "s" for w in found if not w.endswith("s")}
    return frozenset(found | plurals)


def title_only(answer: str, *, person: bool = False) -> bool:
    """Whether ``answer`` is only titles ("Dr", "Sir", "the President"), no name.

    With ``person``, kind and role words count too ("the astronomer", "Writer"): for a person
    they say what someone is, never who.
    """
    words = [w.strip(".,'’").lower() for w in answer.split()]
    allowed = TITLE_WORDS | kind_words() if person else TITLE_WORDS
    return bool(words) and all(w in allowed for w in words)


#: the lexicon list of known women (a constraint, not a kind)
FEMALE = "trait:female"


_WH = re.compile(r"\b(?:which|what|where|who|whose|whom)\b", re.I)
_NAME_OF = re.compile(r"\b(?:the\s+)?(?:name|kind|type|sort)\s+of\s+(?:the\s+)?", re.I)
#: how many words after the wh-word the noun asked about may come ("what is the largest hot desert")
_CUE_WINDOW = 6


def question_noun_kind(question: str) -> Kind | None:
    """The place or thing kind of the noun a question asks about, or None.

    The noun is the first cue word within a few words after the question's wh-word ("in which
    *country* is the city of Timbuktu", "what is the largest hot *desert*"); "the name of" and
    "which kind of" are skipped. A cue elsewhere in the question ("The European Space *Agency*
    wants to give which celestial body ...") names the topic, not the answer, and is ignored;
    a question without a wh-word is searched whole.
    """
    q = _NAME_OF.sub("", last_sentence(question))
    wh = _WH.search(q)
    window = len(q)
    if wh is not None:
        if wh.group().lower() == "where":  # "where was the ship heading?" asks for a place, not a ship
            return None
        q = " ".join(q[wh.end() :].split())
        window = len(" ".join(q.split()[:_CUE_WINDOW]))
    match = _NOUN_RE.search(q)
    if match is None or match.lastgroup is None or match.start() >= window:
        return None
    return _NOUN_CUES[int(match.lastgroup[1:])][0]


def classify_kind(
    answer: str,
    question: str | None = None,
    *,
    answer_type: AnswerType | None = None,
    evidence: str | None = None,
    aliases: Sequence[str] = (),
    roles: frozenset[str] = frozenset(),
) -> Kind:
    """The fine kind of ``answer`` to ``question`` (see the module notes); coarse when unknown.

    With ``evidence``, a person the question gives no role takes the role the passage gives
    in apposition before the name or one of its ``aliases`` (:func:`passage_role`), and a
    "who" answer the passage shows to be a team is "other" (:func:`team_answer`); ``roles``
    are occupations that make "which <occupation> ..." ask for a person (:func:`asks_person`).
    """
    coarse = answer_type or classify_answer(answer, question)
    if coarse in ("date", "number"):
        if form_type(answer) is not None or any(ch.isdigit() for ch in answer):
            return coarse
        # "who was on the throne when the colonies declared independence?" -> "King George III"
        coarse = "person" if re.search(r"\bwho\b", question or "", re.I) else "other"
    members = tuple(k for k in lexicon_kinds(answer) if not k.startswith("trait:"))
    if coarse == "other" and asks_person(question or "", roles) and looks_like_name(answer, single=True):
        coarse = "person"  # "which architect designed ...": a person, though not asked with "who"
    if coarse == "person" and evidence and team_answer(question or "", evidence, [answer, *aliases]):
        return "other"  # "who won Super Bowl LV": a team, which no person's name stands in for
    if coarse == "person":
        role = question_role(question or "")
        if role is None and evidence:
            role = passage_role(evidence, [answer, *aliases])
        people = [k for k in members if k.startswith("person:")]
        if role is not None and (not people or f"person:{role}" in people):
            return f"person:{role}"
        if people:  # "who wrote On the Origin of Species": Darwin is known as a scientist
            return people[0]
        return "person"
    kind = _thing_kind(answer, question or "", coarse, members)
    return passage_kind(kind, evidence, [answer, *aliases], question or "") if evidence else kind


def _thing_kind(answer: str, question: str, coarse: AnswerType, members: Sequence[Kind]) -> Kind:
    """The kind of a place or thing from the question's noun, the answer's form or the lexicon."""
    noun = question_noun_kind(question)
    if noun is not None:
        return noun
    for kind, form in _FORM_KINDS:
        if form.search(answer):
            return kind
    if members:
        same = [k for k in members if k.startswith(f"{coarse}:")] or list(members)
        return same[0]
    return "other" if coarse == "other" else coarse


#: what the passage calls the answer right after it: "Vesuvius is a volcano", "The tiger is the largest ..."
_IS_A = re.compile(
    r"^\s+(?:is|was|are|were)\s+(?:one\s+of\s+)?(?:a|an|the)\s+((?:[\w'’-]+\s+){0,3}[\w'’-]+)", re.I
)
#: a group the answer belongs to: "of the cat family", "a species of bear"
_GROUP = re.compile(r"\bof\s+the\s+([a-z]+)\s+family\b|\bspecies\s+of\s+(?:the\s+)?([a-z]+)\b", re.I)
#: words after "species of" that name no group a donor could be checked against
_NO_GROUP = frozenset(("animal", "animals", "life", "organism", "organisms", "plant", "plants", "living"))
#: group kinds end so: a donor must be a known member, and with none known the seed is skipped
GROUP_SUFFIX = " family"


def passage_kind(kind: Kind, evidence: str, names: Sequence[str], question: str = "") -> Kind:
    """A place or thing kind made finer by what the passage calls the answer, else ``kind``.

    Two rules, each reading the sentence of the answer's first occurrence:

    - the passage's own kind noun right after the answer ("Mount Vesuvius *is a volcano* on the
      Bay of Naples"): when it names a kind that can stand in for ``kind`` (a volcano for a
      mountain) or ``kind`` is coarse, that kind wins, so Mount Everest cannot be the volcano;
    - a group the question or the sentence names ("the largest living species *of the cat
      family*", "a species of bear"): an animal or bare answer becomes ``thing:<group> family``,
      whose members the lexicon may know; a group it does not know has no members, so no
      donor passes and the seed case is skipped with the reason (a giraffe is no cat).
    """
    first = first_span(evidence, names)
    if first is None or kind.startswith(("person", "date", "number")):
        return kind
    start, end = first
    said = _IS_A.match(evidence[end:])
    if said is not None:
        match = _NOUN_RE.search(said.group(1))
        found = _NOUN_CUES[int(match.lastgroup[1:])][0] if match and match.lastgroup else None
        if found is not None and found != kind and (":" not in kind or kinds_match(kind, found)):
            kind = found
    if kind not in ("thing:animal", "other"):
        return kind
    sentence_start = max(evidence.rfind(". ", 0, start) + 1, 0)
    sentence_end = evidence.find(". ", end)
    sentence = evidence[sentence_start : sentence_end if sentence_end >= 0 else len(evidence)]
    for text in (last_sentence(question), sentence):
        for match in _GROUP.finditer(text):
            group = (match.group(1) or match.group(2)).lower()
            if group not in _NO_GROUP:
                return f"thing:{group.removesuffix('s')}{GROUP_SUFFIX}"
    return kind


def kinds_match(wanted: Kind, found: Kind) -> bool:
    """Whether an answer of kind ``found`` can stand in for one of kind ``wanted``."""
    return found == wanted or found in _ALSO.get(wanted, ())


def is_member(answer: str, kind: Kind, dataset: Mapping[Kind, list[str]] | None = None) -> bool:
    """Whether ``answer`` is a known member of ``kind``: in the lexicon or the dataset's answers."""
    if any(kinds_match(kind, k) for k in lexicon_kinds(answer)):
        return True
    key = normalize_answer(answer)
    for k in (kind, *_ALSO.get(kind, ())):
        if any(normalize_answer(a) == key for a in (dataset or {}).get(k, ())):
            return True
    return False


def has_members(kind: Kind, dataset: Mapping[Kind, list[str]] | None = None) -> bool:
    """Whether anything is known to be of ``kind`` (so a proposal can be checked against it)."""
    return bool(lexicon().get(kind)) or bool((dataset or {}).get(kind))


def kind_members(kind: Kind) -> list[str]:
    """The lexicon members that can stand in for ``kind`` (its own and compatible kinds)."""
    table = lexicon()
    out: list[str] = []
    for k in (kind, *_ALSO.get(kind, ())):
        out.extend(table.get(k, ()))
    return out


__all__ = [
    "FEMALE",
    "GROUP_SUFFIX",
    "Kind",
    "classify_kind",
    "has_members",
    "is_member",
    "kind_members",
    "kind_words",
    "kinds_match",
    "lexicon",
    "lexicon_kinds",
    "passage_kind",
    "question_noun_kind",
    "title_only",
]
