"""Rule decomposition of a question into claims about ``<answer>``, and the claim-set validators.

The ``claims`` family (ABCD, Balepur et al. 2023) asks the generator model to decompose a
question; this module is what it falls back on and how it checks the model's output.

**Rule decomposition** (degenerate but valid, recorded as ``fallback``/``rule_split``):

1. the type claim from the wh-phrase: *who* -> a person, *when* -> a date, *where* -> a place,
   *what year* -> a year, *which/what X* -> X ("Which French author wrote ..." -> "<answer> is
   a French author"), with a trailing prepositional phrase kept ("a basilica in Barcelona");
2. the rest of the question as a statement with the wh-phrase replaced by ``<answer>``;
3. that statement split into one claim per clause about the answer: an appositive right after
   the wh-phrase (", found by ..., " -> "<answer> was found by ...") and top-level "and" /
   "and also" / ";" when a verb follows ("... and died in exile" -> "<answer> died in exile").
   Relative clauses ("a novel in which ...") stay inside their claim, because split off they
   would no longer be about the answer.

**Validators** (:func:`check_claims`): 2 to 8 claims; claim 1 is a type claim; every claim
mentions ``<answer>``; every other tag is well formed and shared by at least two claims (that
is what a tag is for: the same play in two criteria); no claim restates the whole question
when the question has more than one clause; every claim after the type claim takes at least
half of its content words from the question (a small model copies claims from the prompt's
examples); no claim leaks a gold answer; no duplicates.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from halluforge.families.claims import ANSWER_TAG
from halluforge.families.shared.spans import starts_with_vowel_sound
from halluforge.textkit.overlap import restates
from halluforge.textkit.stopwords import ARTICLES, content_words

MIN_CLAIMS, MAX_CLAIMS = 2, 8
TAG = re.compile(r"<([a-z][a-z0-9_ -]{0,30})>")
_ANY_TAG = re.compile(r"<[^<>]{1,40}>")
_TYPE_CLAIM = re.compile(r"^<answer>\s+(?:is|was|are|were)\s+(?:a|an|the|one)\b", re.IGNORECASE)
# verbs and auxiliaries that end a wh-phrase's noun or start a clause after "and"
_VERBS = frozenset(
    [
        "is",
        "was",
        "are",
        "were",
        "has",
        "had",
        "have",
        "did",
        "does",
        "do",
        "can",
        "could",
        "will",
        "would",
        "became",
        "become",
        "made",
        "make",
        "wrote",
        "write",
        "built",
        "build",
        "found",
        "gave",
        "give",
        "led",
        "lead",
        "lost",
        "lies",
        "lay",
        "flows",
        "ran",
        "run",
        "won",
        "win",
        "sank",
        "set",
        "kept",
        "keep",
        "cut",
        "held",
        "holds",
        "took",
        "take",
        "came",
        "come",
        "went",
        "go",
        "sat",
        "stood",
        "saw",
        "see",
        "drew",
        "draw",
        "sang",
        "sing",
        "fought",
        "became",
        "began",
        "begin",
        "bore",
        "carried",
        "carries",
        "lived",
        "lives",
        "died",
        "named",
        "painted",
        "composed",
        "published",
        "created",
        "discovered",
        "invented",
        "served",
        "stated",
        "proposed",
        "studied",
        "broke",
        "spoke",
        "rode",
        "drove",
        "bought",
        "taught",
        "fell",
        "rose",
        "grew",
        "knew",
        "threw",
        "shot",
        "struck",
        "tutored",
    ]
)
_PARTICIPLES = frozenset(
    [
        "found",
        "built",
        "made",
        "written",
        "known",
        "born",
        "cut",
        "given",
        "held",
        "set",
        "kept",
        "named",
        "called",
        "designed",
        "discovered",
        "invented",
        "painted",
        "composed",
        "published",
        "created",
        "founded",
        "opened",
        "buried",
        "carved",
        "sung",
        "drawn",
        "taken",
    ]
)
_PREPOSITIONS = frozenset(["of", "in", "from", "at", "on", "near", "for", "by", "with"])
_AUXILIARIES = frozenset({"did", "does", "do"})
#: what may open the noun phrase of a type claim or modifier ("one of the ...")
_DETERMINERS = ARTICLES | {"one"}
# words after a past participle that make it a modifier: "designed by", "named after"
_AGENTS = _PREPOSITIONS | {"to", "into", "after", "as"}
# where a clause may end: ";" or a top-level "and" ("and also", "and then")
_JOINT = re.compile(r"\s*;\s*|,?\s+and\s+(?:also\s+|then\s+)?")


@dataclass(frozen=True)
class RuleClaims:
    """A rule decomposition: the claim texts (type claim first) and the answer's entity type."""

    texts: tuple[str, ...]
    entity_type: str


def _is_verb(word: str) -> bool:
    low = word.lower().strip(",;")
    if low in _VERBS:
        return True
    if not low.isalpha() or word[:1].isupper() or len(low) < 4:
        return False
    return low.endswith("ed") or (low.endswith("s") and not low.endswith(("ss", "us", "is", "ous")))


def _article(noun: str) -> str:
    return "an" if starts_with_vowel_sound(noun) else "a"


def split_wh(question: str) -> tuple[str, str, str]:
    """``(entity type, type claim, rest of the question as a statement about <answer>)``."""
    text = question.strip().rstrip("?").strip()
    words = text.split()
    low = [w.lower().strip(",") for w in words]
    # "In what year did the Wall fall ..." / "In which city ..."
    if len(low) > 2 and low[0] in {"in", "on", "at"} and low[1] in {"what", "which"}:
        kind = low[2]
        rest = " ".join(words[3:])
        rest = re.sub(r"^(did|does|do|was|were|is|are)\s+", "", rest, flags=re.IGNORECASE)
        return kind, f"<answer> is {_article(kind)} {kind}.", f"In <answer>, {rest}"
    head = low[0] if low else ""
    if head in {"who", "whom"}:
        return "person", "<answer> is a person.", "<answer> " + " ".join(words[1:])
    if head == "when":
        return "date", "<answer> is a date.", "<answer> is when " + " ".join(words[1:])
    if head == "where":
        return "place", "<answer> is a place.", "<answer> is where " + " ".join(words[1:])
    if head in {"which", "what", "name"}:
        start = 1 if head != "name" else (2 if len(low) > 1 and low[1] in {"the", "this"} else 1)
        noun: list[str] = []
        index = start
        while index < len(words) and not _is_verb(words[index]) and low[index] not in _PREPOSITIONS:
            noun.append(words[index].rstrip(","))
            if words[index].endswith(","):
                index += 1
                break
            index += 1
        # a prepositional phrase after the noun belongs to the type ("a basilica in Barcelona")
        phrase: list[str] = []
        if noun and index < len(words) and low[index] in _PREPOSITIONS:
            while index < len(words) and not _is_verb(words[index]):
                phrase.append(words[index].rstrip(","))
                if words[index].endswith(","):
                    index += 1
                    break
                index += 1
        kind = " ".join(noun) or "thing"
        full = " ".join([kind, *phrase])
        rest = " ".join(words[index:])
        if index < len(low) and low[index] in _AUXILIARIES:  # "What instrument did Paganini play, which ..."
            clause, _, after = rest.partition(",")
            inner = clause.split()[1:]
            if len(inner) >= 2:
                subject, verb = " ".join(inner[:-1]), inner[-1]
                rest = f"{subject} {low[index]} {verb} <answer>"
                if after.strip():
                    rest += " ; " + re.sub(r"^(which|that|who)\s+", "", after.strip())
                return kind, f"<answer> is {_article(full)} {full}.", "<answer> :: " + rest
        return kind, f"<answer> is {_article(full)} {full}.", "<answer> " + rest
    return "thing", "<answer> is a thing.", "<answer> answers: " + text


def _clauses(statement: str) -> list[str]:
    """The statement split into clauses about the answer (see the module docstring)."""
    body = statement.removeprefix("<answer> ").strip()
    claims: list[str] = []
    if body.startswith(":: "):  # an inverted clause already names <answer> ("X did play <answer>")
        head, _, body = body[3:].partition(" ; ")
        claims.append(head)
        if not body:
            return claims
    words = body.split()
    lead = words[0].lower() if words else ""
    passive = (lead in _PARTICIPLES or lead.endswith("ed")) and len(words) > 1 and words[1] in _AGENTS
    if passive or lead in _DETERMINERS:
        # a modifier of the answer before the main verb: ", the deepest lake, lies ..." or
        # "attributed to Homer follows ...": it ends at a comma or at the next verb
        end = len(words)
        for number, word in enumerate(words[1:], start=1):
            if word.endswith(","):
                end = number + 1
                break
            if _is_verb(word) and number > 1:
                end = number
                break
        if end < len(words):
            phrase = " ".join(words[:end]).rstrip(",")
            claims.append(f"<answer> {'was' if passive else 'is'} {phrase}")
            body = " ".join(words[end:])
    pieces: list[str] = []
    last = 0
    for joint in _JOINT.finditer(body):
        following = body[joint.end() :].split(maxsplit=1)
        if joint.group(0).strip() == ";" or (following and _is_verb(following[0])):
            pieces.append(body[last : joint.start()])
            last = joint.end()
    pieces.append(body[last:])
    for piece in pieces:
        piece = re.sub(r"^(also|then)\s+", "", piece.strip(" ,")).strip()
        if piece:
            claims.append(piece if piece.startswith("In <answer>") else f"<answer> {piece}")
    return claims


def rule_claims(question: str, *, max_claims: int = MAX_CLAIMS) -> RuleClaims:
    """The rule decomposition of ``question``: a type claim, then one claim per clause."""
    kind, type_claim, statement = split_wh(question)
    clauses = [statement] if statement.startswith("In <answer>") else _clauses(statement)
    clauses = [c.rstrip(" .") + "." for c in clauses if c.strip()]
    if len(clauses) > max_claims - 1:  # merge the tail so the set stays within bounds
        clauses = [*clauses[: max_claims - 2], " ".join(clauses[max_claims - 2 :])]
    return RuleClaims(texts=(type_claim, *clauses), entity_type=kind)


def tags_of(text: str) -> list[str]:
    """The well-formed tags a claim uses, in order (``<answer>`` included)."""
    return [f"<{m.group(1)}>" for m in TAG.finditer(text)]


#: share of the question's content words a claim must carry to restate the whole question
RESTATES_QUESTION = 0.9


def _untagged(text: str) -> str:
    """``text`` without ``<answer>``, whose word is in every claim and says nothing."""
    return text.replace(ANSWER_TAG, " ")


def _content(text: str) -> set[str]:
    return content_words(_untagged(text))


def check_claims(texts: Sequence[str], question: str, gold: Sequence[str]) -> list[str]:
    """Why a claim set is invalid (empty when it is valid); see the module docstring."""
    problems: list[str] = []
    if not MIN_CLAIMS <= len(texts) <= MAX_CLAIMS:
        problems.append(f"{len(texts)} claims (need {MIN_CLAIMS} to {MAX_CLAIMS})")
    if not texts:
        return problems
    if not _TYPE_CLAIM.match(texts[0].strip()):
        problems.append("claim 1 is not a type claim ('<answer> is a ...')")
    for number, text in enumerate(texts, start=1):
        if ANSWER_TAG not in text:
            problems.append(f"claim {number} does not mention <answer>")
        malformed = [t for t in _ANY_TAG.findall(text) if not TAG.fullmatch(t)]
        if malformed:
            problems.append(f"claim {number} has malformed tag(s) {malformed}")
    uses = Counter(t for text in texts for t in set(tags_of(text)) if t != ANSWER_TAG)
    lonely = sorted(t for t, n in uses.items() if n < 2)
    if lonely:
        problems.append(f"tag(s) {lonely} appear in one claim only (a tag names an entity claims share)")
    statement = split_wh(question)[2]
    if len(_clauses(statement)) > 1:
        whole = [
            n
            for n, t in enumerate(texts[1:], start=2)
            if restates(_untagged(t), _untagged(statement), share=RESTATES_QUESTION)
        ]
        if whole:
            problems.append(f"claim {whole[0]} restates the whole question")
    asked = _content(question)
    for number, text in enumerate(texts[1:], start=2):
        own = _content(TAG.sub(" ", text))
        if own and len(own & asked) / len(own) < 0.5:
            problems.append(f"claim {number} is mostly about things the question does not mention")
            break
    lowered = [t.lower() for t in texts]
    for alias in (a for a in gold if a.lower() not in question.lower()):
        pattern = re.compile(rf"\b{re.escape(alias.lower())}\b")
        if len(alias) > 2 and any(pattern.search(t) for t in lowered):
            problems.append(f"a claim names the gold answer {alias!r}")
            break
    if len(set(lowered)) < len(lowered):
        problems.append("duplicate claims")
    return problems


__all__ = [
    "ANSWER_TAG",
    "MAX_CLAIMS",
    "MIN_CLAIMS",
    "TAG",
    "RuleClaims",
    "check_claims",
    "rule_claims",
    "split_wh",
    "tags_of",
]
