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
   an astronaut, "who led the first expedition to the south pole" an explorer;
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
from halluforge.textkit.answers import find_answer_spans, normalize_answer
from halluforge.textkit.sentences import split_sentences

Kind = str

#: person roles, in priority order: the first whose cue occurs in the question wins
_ROLE_CUES: tuple[tuple[str, str], ...] = (
    ("writer", r"\bnobel prize (?:in|for) literature\b"),  # before the scientist's "nobel"
    (
        "astronaut",
        r"\b(?:astronauts?|cosmonauts?|into space|in space|on the moon|to the moon|orbit(?:ed)?)\b",
    ),
    ("explorer", r"\b(?:expeditions?|explor(?:er|ed|ers)|(?:north|south) pole|circumnavigat\w*|sailed)\b"),
    (
        "scientist",
        r"\b(?:discover(?:ed|y)?|theory|theories|theori[sz]\w*|proposed\s+that|hypothes\w*|formulat\w*|"
        r"laws? of|physicist|chemist|biologist|astronomer|scientist|nobel|periodic table|evolution|"
        r"radioactivity|\w+ologists?|physicians?|mathematicians?|geneticists?|naturalists?)\b",
    ),
    ("inventor", r"\b(?:invent(?:ed|ing|or|ion)?|patent(?:ed)?)\b"),
    ("composer", r"\b(?:compos(?:ed|er)|symphon\w*|operas?|concertos?|sonatas?)\b"),
    ("painter", r"\b(?:paint(?:ed|er|ing)?)\b"),
    ("sculptor", r"\b(?:sculpt(?:ed|or|ure)?|statue)\b"),
    ("director", r"\b(?:directed|director|filmmaker)\b"),
    ("architect", r"\b(?:architects?|architecture|designed|designers?)\b"),
    ("thinker", r"\b(?:philosoph\w*|manifesto|economist|thinker|treatise)\b"),
    (
        "writer",
        r"\b(?:wrote|write|written|writer|authou?r(?:ed)?|novel(?:ist)?|poet|poem|playwright|penned)\b",
    ),
    ("prime minister", r"\b(?:prime minister|premier|chancellor)\b"),
    ("president", r"\bpresident(?:ial)?\b"),
    ("monarch", r"\b(?:emperor|empress|king|queen|pharaoh|tsar|czar|sultan|monarch|reigned)\b"),
    (
        "activist",
        r"\b(?:led|leader of) the (?:\w+ ){0,2}(?:march|movement|protest|campaign|boycott|strike|struggle)\b|"
        r"\b(?:activist|civil rights|independence movement)\b",
    ),
    ("leader", r"\b(?:dictator|led|leader|ruler|ruled|governor|mayor|senator|elected|elections?|minister)\b"),
    ("athlete", r"\b(?:won the|champion\w*|player|athlete|scored|coach|tournament|medal)\b"),
    ("business", r"\b(?:ceo|chief executive|founder|founded|billionaire|businessman|businesswoman)\b"),
    ("entertainer", r"\b(?:actor|actress|singer|rapper|starred|album|band|comedian|host)\b"),
)

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
_ROLE_RES = tuple((role, re.compile(cue, re.I)) for role, cue in _ROLE_CUES)
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
    found = heads | {role.split()[-1] for role, _ in _ROLE_CUES}
    plurals = {w[:-1] + "ies" if w.endswith("y") else w + "s" for w in found if not w.endswith("s")}
    return frozenset(found | plurals)


#: titles and forms of address: "Dr", "Sir", "King" name no one on their own
TITLE_WORDS = frozenset(
    (
        *("sir", "dame", "dr", "doctor", "mr", "mrs", "ms", "miss", "lord", "lady", "prince", "princess"),
        *("duke", "duchess", "king", "queen", "emperor", "saint", "st", "pope", "general", "captain"),
        *("professor", "prof", "president", "the", "a", "an"),
    )
)


def title_only(answer: str, *, person: bool = False) -> bool:
    """Whether ``answer`` is only titles ("Dr", "Sir", "the President"), no name.

    With ``person``, kind and role words count too ("the astronomer", "Writer"): for a person
    they say what someone is, never who.
    """
    words = [w.strip(".,'’").lower() for w in answer.split()]
    allowed = TITLE_WORDS | kind_words() if person else TITLE_WORDS
    return bool(words) and all(w in allowed for w in words)


def _last_sentence(question: str) -> str:
    """News questions put context first; the asking sentence is the last one."""
    sentences = split_sentences(question)
    return sentences[-1] if sentences else ""


_FEMALE_CUE = re.compile(r"\b(?:woman|women|female|queen|empress|actress|princess|girl|lady|she|her)\b", re.I)
#: cues that name a woman wherever they stand ("who won the best actress award")
_FEMALE_ROLE = re.compile(r"\b(?:actress|actresses|empress)\b", re.I)
#: the lexicon list of known women (a constraint, not a kind)
FEMALE = "trait:female"


def wants_female(question: str) -> bool:
    """Whether the question asks for a woman ("the first woman to win a Nobel prize").

    The cue must name the person asked about, so it must come no later than the words that
    give the role: in "who painted girl with a pearl earring" or "who wrote the queen's gambit"
    the cue is in the work's title, after the verb, and says nothing of the painter or writer.
    """
    q = _last_sentence(question)
    cue = _FEMALE_CUE.search(q)
    if cue is None:
        return False
    if _FEMALE_ROLE.search(q):
        return True
    roles = [m.start() for _, pattern in _ROLE_RES if (m := pattern.search(q)) is not None]
    return not roles or cue.start() <= min(roles)


#: "who" and a verb of making: the verb names the role, whatever the work's title says
#: ("who designed the sydney opera house" asks for an architect, not a composer)
_MAKER_ROLES = {
    "designed": "architect",
    "composed": "composer",
    "painted": "painter",
    "sculpted": "sculptor",
    "directed": "director",
    "invented": "inventor",
}
_MAKER_VERB = re.compile(rf"^\W*who\s+(?:first\s+)?({'|'.join(_MAKER_ROLES)})\b", re.I)


def question_role(question: str) -> str | None:
    """The role a "who" question asks for ("writer", "painter", ...), or None.

    A verb of making right after "who" decides; otherwise the first role, in the order of
    :data:`_ROLE_CUES`, with a cue anywhere in the question.
    """
    q = _last_sentence(question)
    maker = _MAKER_VERB.match(q)
    if maker is not None:
        return _MAKER_ROLES[maker.group(1).lower()]
    for role, cue in _ROLE_RES:
        if cue.search(q):
            return role
    return None


@functools.lru_cache(maxsize=16384)
def role_groups(text: str) -> frozenset[str]:
    """Every person role whose cue occurs in ``text`` ("English novelist and poet": writer).

    The same cues as :func:`question_role`, all of them rather than the first: a short
    description or the words around an answer can name several roles.
    """
    return frozenset(role for role, cue in _ROLE_RES if cue.search(text))


_WHICH_NOUN = re.compile(r"\b(?:which|what)\s+((?:[\w-]+\s+){0,2}[a-z]+)\b", re.I)
#: endings of nouns that name a person ("architect", "painter", "scientist", "poet", "explorer")
_PERSON_NOUN = re.compile(r"(?:er|or|ist|ian|ect|naut|ent|et|arch|king|queen|pope)$")


def asks_person(question: str, roles: frozenset[str] = frozenset()) -> bool:
    """Whether a "which"/"what" question asks for a person by a role noun ("which architect ...").

    One of the three words after "which" (past a demonym: "which egyptian-born chemist") must
    name a person by its ending and be a role cue, or an occupation of ``roles`` (the entity
    table's, from its people's descriptions: "oceanographer", "activist", "economist"), so
    "which opera" (a composer's cue, but a work) or "which novel" asks for no person.
    """
    match = _WHICH_NOUN.search(_last_sentence(question))
    if match is None:
        return False
    for noun in re.findall(r"[a-z]+", match.group(1).lower()):
        if _PERSON_NOUN.search(noun) and (question_role(noun) is not None or noun in roles):
            return True
    return False


#: the noun just before a name, after an article and up to three modifiers: "the young Catalan architect "
_APPOSITION = re.compile(r"\b(?:the|a|an)\s+(?:[\w'’-]+\s+){0,3}?([a-z][a-z-]+)\s+$", re.I)


def _first_span(evidence: str, names: Sequence[str]) -> tuple[int, int] | None:
    """The earliest (start, end) at which the passage writes any of ``names``, or None."""
    return min((span for name in names for span in find_answer_spans(evidence, name)), default=None)


def passage_role(evidence: str, names: Sequence[str]) -> str | None:
    """The role the passage gives a person in apposition before the name, or None.

    "the young Catalan architect Antoni Gaudí" is an architect, "the American virologist Jonas
    Salk" a scientist, "The German-born astronomer William Herschel" a scientist: the noun
    right before the first occurrence of any of ``names``, read with the question's role cues.
    A reader sees that noun next to the swapped name, so the wrong answer must fit it even when
    the question ("who developed the first polio vaccine") gives no role.
    """
    first = _first_span(evidence, names)
    if first is None:
        return None
    match = _APPOSITION.search(evidence[max(0, first[0] - 80) : first[0]])
    if match is None or not match.group(1).islower():
        return None
    return question_role(match.group(1))


#: a group a "who" question may ask for: "the German club", "They became the first team"
_TEAM_NOUN = re.compile(r"\b(?:club|team|side|franchise|squad|band|orchestra)s?\b", re.I)
#: a question asking who won or lost a contest, which a team answers as often as a person
_CONTEST = re.compile(r"\bwho\s+(?:won|wins|beat|defeated|lost|finished|claimed|took)\b", re.I)
#: a word that speaks of one person: an answer it follows is no team
_PERSON_PRONOUN = re.compile(r"\b(?:he|she|his|her|him|hers)\b", re.I)


def team_answer(question: str, evidence: str, names: Sequence[str]) -> bool:
    """Whether the answer to a "who" question is a team or other group, not a person.

    "Who won Super Bowl LV": "The Tampa Bay Buccaneers won ... They became the first team";
    "who won the 2020 Champions League final": "Bayern Munich won ... the German club". A
    name the passage writes after "the" ("the Tampa Bay Buccaneers"), not a title ("the Duke
    of Wellington"), is a group's; so is the answer of a question asking who won or lost when
    the passage names a team and no pronoun of one person is in the answer's sentences or the
    next ones. Both
    blind readers of set 39 saw RECALL give those two answers invented people's names ("The
    Amanda Nguyen ... They became the first team").
    """
    spans = [span for name in names for span in find_answer_spans(evidence, name)]
    if not spans or names[0].split()[0].lower() in TITLE_WORDS:
        return False
    if any(re.search(r"\bthe\s+$", evidence[max(0, start - 4) : start], re.I) for start, _ in spans):
        return True
    if not _CONTEST.search(_last_sentence(question)) or not _TEAM_NOUN.search(evidence):
        return False
    # the answer's sentences and the one after each ("... won the award. He scored 55 goals")
    sentences = split_sentences(evidence)
    held = [i for i, s in enumerate(sentences) if any(find_answer_spans(s, n) for n in names)]
    about = " ".join(sentences[j] for i in held for j in (i, i + 1) if j < len(sentences))
    return not _PERSON_PRONOUN.search(about)


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
    q = _NAME_OF.sub("", _last_sentence(question))
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
    first = _first_span(evidence, names)
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
    for text in (_last_sentence(question), sentence):
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
    "TITLE_WORDS",
    "Kind",
    "asks_person",
    "classify_kind",
    "has_members",
    "is_member",
    "kind_members",
    "kind_words",
    "kinds_match",
    "lexicon",
    "lexicon_kinds",
    "passage_kind",
    "passage_role",
    "question_noun_kind",
    "question_role",
    "role_groups",
    "title_only",
    "wants_female",
]
