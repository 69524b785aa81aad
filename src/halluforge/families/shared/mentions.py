"""Where a passage speaks of its answer: its names, the sentences and gendered words about it.

The life years the passage states for the answer are read from those sentences too, and the
countries a text names (:func:`countries_named`), which the invented names and INVITE's world
judge weigh.

The fact checks (:mod:`.facts`) compare a donor with what the passage says *about the answer*,
not with every word of it: a pronoun after another person's name, or the birth year of someone
else, would refuse good donors. These readers decide which words speak of the answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from halluforge.families.shared.spans import answer_spans
from halluforge.textkit.answers import answer_key
from halluforge.textkit.dates import MONTH_NAME_PATTERN
from halluforge.textkit.sentences import sentence_spans

if TYPE_CHECKING:
    from halluforge.knowledge.table import EntityTable

#: a word of letters (with inner apostrophes), as the fact checks read passages; letters of any
#: script, so "Gijón" is one word (it was read as "Gij" and "n", and "born in Gijón" placed
#: nobody in Spain: set 47's Spaniard took a French name from the Paris club he coached)
WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['’])*")

_PRONOUNS = frozenset({"she", "her", "hers", "herself", "he", "his", "him", "himself"})


#: up to three capitalised words right before a name, in the same sentence ("Percy Bysshe " of "Shelley")
_GIVEN_BEFORE = re.compile(r"(?:(?<=\s)|^)((?:[A-Z][\w'’.-]*\s+){1,3})$")


#: words that make the name after them (or before them, in the same clause) a relative's
_KIN = re.compile(
    r"\b(?:son|sons|daughter|daughters|child|children|father|mother|parents?|wife|husband|widow|"
    r"widower|brother|sister|grandson|granddaughter|grandfather|grandmother|nephew|niece|uncle|"
    r"aunt|cousin)\b",
    re.I,
)
#: a kinship word set off by a comma right before a name: "her father, Petr Korda"
_KIN_APPOSED = re.compile(_KIN.pattern + r"\s*,\s*$", re.I)
#: words that open a name as a form of address, not as a given name ("Sir", "Dr")
_ADDRESS = frozenset({"sir", "dame", "lord", "lady", "mr", "mrs", "ms", "miss", "dr", "the"})


def _relative(evidence: str, start: int, end: int, given: str, table: EntityTable) -> bool:
    """Whether the name at ``evidence[start:end]`` (its given name ``given``) is a relative's.

    A kinship word in the clause before it ("the son of Sir Seewoosagur Ramgoolam", "son of
    filmmaker Mira Nair and scholar Mahmood Mamdani"), set off by a comma before it ("her
    father, Petr Korda": set 45 renamed him "Petr Robinson") or right after it ("Zulfikar Ali
    Bhutto, her father"); a title or role word is no given name ("Prime Minister Ramgoolam" is
    the answer).
    """
    word = given.strip(".").lower()
    if word in _ADDRESS or word in table.occupation_words:
        return False
    clause_start = max(evidence.rfind(mark, 0, start) for mark in ".;:,")
    after = re.match(r"[^.;]*", evidence[end:])
    return (
        bool(_KIN.search(evidence, clause_start + 1, start))
        or bool(_KIN_APPOSED.search(evidence, max(0, start - 40), start))
        or bool(after and _KIN.match(after.group().lstrip(", ").removeprefix("her ").removeprefix("his ")))
    )


def known_namesake(evidence: str, gold: Sequence[str], table: EntityTable) -> str | None:
    """Another person whose full name the passage writes around the answer's surname, or None.

    "... spent the summer with Percy Bysshe Shelley" in a passage on Mary Shelley: the alias
    "Shelley" stands inside the name of a person the entity table knows. Span replacement
    renames them ("Percy Bysshe Wright"), which no reader believes; a swap cannot leave the name
    either, since it would still state the answer. A relative the passage introduces as one
    counts too, known to the table or not ("the son of Sir Seewoosagur Ramgoolam, who led
    Mauritius to independence"): a passage names a relative mostly when they are famous in
    their own right, and both blind readers of sets 36 and 37 saw the renamed father of a prime
    minister as invented.
    """
    if not gold:
        return None
    aliases = {answer_key(name) for name in gold}
    for start, end in answer_spans(evidence, gold):
        before = _GIVEN_BEFORE.search(evidence, 0, start)
        # only a short form can stand inside another name ("Shelley" of "Mary Shelley"); when
        # the main answer is itself one word, "Mary Shelley" may be the answer in full
        if before is None or len(evidence[start:end].split()) >= len(gold[0].split()):
            continue
        words = before.group(1).split()
        for i in range(len(words)):
            full = " ".join([*words[i:], evidence[start:end]])
            if answer_key(full) not in aliases and table.person(full) is not None:
                return full
        # "... married Aino. Sibelius later ...": a sentence's end is no part of a name
        cut = max((i + 1 for i, w in enumerate(words) if w.endswith(".") and len(w) > 2), default=0)
        given = words[cut:]
        if not given:
            continue
        full = " ".join([*given, evidence[start:end]])
        full_start = evidence.rfind(given[0], before.start(1), start)
        if answer_key(full) not in aliases and _relative(evidence, full_start, end, given[-1], table):
            return full
    return None


def gender_cues(pattern: re.Pattern[str], text: str) -> int:
    """How many gendered words of ``pattern`` the text has, leaving out those inside a name.

    A capitalised gender noun in mid-sentence is part of a name or title ("the Queen of the
    Night", "King's College"), not a word about the answer; a pronoun counts wherever it stands.
    """
    count = 0
    for match in pattern.finditer(text):
        word = match.group()
        start = match.start()
        opens = start == 0 or text[:start].rstrip().endswith((".", "!", "?", ":", '"'))
        if word.lower() in _PRONOUNS or word[0].islower() or opens:
            count += 1
    return count


_SHE = re.compile(r"\b(?:she|her|hers|herself)\b", re.I)
_HE = re.compile(r"\b(?:he|his|him|himself)\b", re.I)


def passage_pronouns(evidence: str) -> str | None:
    """The gender of every personal pronoun in the passage, when they are all one side's, else None.

    Asked only when nothing near the answer tells a gender: "Japanese judge Tomoko Akane was
    elected president of the court ... She became the second woman to lead the court" (held-out
    set 45) names her gender only two sentences later, so an invented man's name stood beside
    "She". A passage whose pronouns are all one side's mostly speaks of the person it is about;
    with both sides, another person is named and nothing is read. One pronoun is enough: "As
    Senate President he also chairs the National Assembly" (set 85) was the only one, and
    Nigeria's Senate president became "Charity Chukwu" beside it, hard to both blind readers
    (over the held-out people, five names change, all now of the person's gender: the singer
    Jamala had men's names).
    """
    female, male = len(_SHE.findall(evidence)), len(_HE.findall(evidence))
    if female and not male:
        return "female"
    if male and not female:
        return "male"
    return None


def opens_with_another_name(sentence: str, evidence: str, names: list[str]) -> bool:
    """Whether the sentence opens with a name other than the answer's.

    A name: a capitalised first word written capitalised mid-sentence elsewhere, or followed by
    another capitalised word ("Sigrid Undset, born 1882, ..."). "Ardern had said she ..." speaks
    of Ardern, so its pronouns are not the answer's; "His premiership ..." and "The book ..."
    open with words no sentence writes capitalised inside it.
    """
    words = WORD.findall(sentence)[:2]
    if not words or not words[0][0].isupper():
        return False
    word = words[0]
    if any(word in name.split() for name in names):
        return False
    if len(words) == 2 and words[1][0].isupper() and sentence.lstrip().startswith(f"{word} {words[1]}"):
        return True
    return re.search(rf"[^.!?\s]\s+{re.escape(word)}\b", evidence) is not None


def answer_names(gold: list[str]) -> list[str]:
    """The answer's names in a passage: each gold alias and, for a full name, the surname alone."""
    words = gold[0].split()
    return [*gold, words[-1]] if len(words) > 1 and words[-1][:1].isupper() else list(gold)


def gender_context(evidence: str, gold: list[str], question: str) -> str:
    """The text whose gendered words speak of the answer.

    The question; each sentence that names the answer (its full name or, for a full name, the
    surname alone), from the name on; and the sentence after each such one, unless it opens
    with another person's name. A pronoun three sentences on ("Her main challenge was ...")
    refers to the answer named just before it, not only to the first mention.
    """
    names = answer_names(gold)
    sentences = sentence_spans(evidence)
    first: dict[int, int] = {}
    for start, end in answer_spans(evidence, names):
        for i, (s, e) in enumerate(sentences):
            if s <= start < e:
                first[i] = min(first.get(i, end), end)
    parts = [question]
    for i, end in sorted(first.items()):
        parts.append(evidence[end : sentences[i][1]])
        if i + 1 < len(sentences) and i + 1 not in first:
            s, e = sentences[i + 1]
            if not opens_with_another_name(evidence[s:e], evidence, names):
                parts.append(evidence[s:e])
    return " ".join(parts)


BORN = re.compile(
    r"\bborn\b[^.;]{0,40}?(?<![\d,.])(1[0-9]{3}|20[0-9]{2})(?!\d)"
    r"|\((?:born |b\. )?(1[0-9]{3}|20[0-9]{2})\s*[–-]",
    re.I,
)
DIED = re.compile(
    r"\bdied\b[^.;]{0,40}?(?<![\d,.])(1[0-9]{3}|20[0-9]{2})(?!\d)"
    r"|\((?:1[0-9]{3}|20[0-9]{2})\s*[–-]\s*(1[0-9]{3}|20[0-9]{2})\)",
    re.I,
)


def about_answer(evidence: str, gold: list[str]) -> list[str]:
    """The sentences that speak of the answer: those naming it, and those after that name no one else.

    "Born in 1978 in Kryvyi Rih, he was inaugurated ..." after a sentence about the answer is
    about the answer; a sentence opening with another person's name starts another subject.
    """
    names = answer_names(gold)
    spans = answer_spans(evidence, names)
    about: list[str] = []
    current = False
    for s, e in sentence_spans(evidence):
        if any(s <= start < e for start, _ in spans):
            current = True
        elif opens_with_another_name(evidence[s:e], evidence, names):
            current = False
        if current:
            about.append(evidence[s:e])
    return about


#: an age said of the person a sentence is about: at its start ("The 53-year-old footballer",
#: "Aged 46, she") or after a name ("Bolsonaro, then 63", "Glasner, a 47-year-old Austrian"); not
#: "Mbappé, who scored at the age of 19" nor "his attacker, a 27-year-old man"
_AGE = re.compile(
    r"^(?:The\s+)?(\d{2})-year-old\b|^Aged\s+(\d{2}),"
    r"|\b[A-Z][\w'’-]+,\s+(?:then\s+(\d{2})\b|(?:a|the)\s+(\d{2})-year-old\b)"
)
#: the year of an event: in a date ("28 October 2018", "September 2020"), after "in" or "the"
#: ("won the 2025 Tour de France Femmes")
_EVENT_YEAR = re.compile(
    rf"(?:\b(?:{MONTH_NAME_PATTERN})(?:\s+\d{{1,2}},)?|\b(?:in|the))\s+(1[0-9]{{3}}|20[0-9]{{2}})\b"
)


def age_birth(sentences: Sequence[str], names: Sequence[str]) -> int | None:
    """The birth year an age at a dated event gives, when the sentences give one only.

    The age is said of the answer: at a sentence's start, or after one of its ``names`` (the
    answer's words). The event's year is the latest year of a date before the age in the
    sentences, as a report dates its ages (a dateline, not "showed in 2000" of the deed it tells
    of): "won the run-off on 28 October 2018 ... Bolsonaro, then 63" is 1955 (set
    87: with no birth year his era was read from his deeds of 2018, and a name of today, "Cauã",
    read as too young to both blind readers; in-sample).
    """
    words = {word for name in names for word in name.split()}
    found = set()
    for i, sentence in enumerate(sentences):
        for match in _AGE.finditer(sentence):
            named = match.group().split(",")[0]
            if match.start() > 0 and named not in words:
                continue
            age = int(next(group for group in match.groups() if group))
            earlier = [*sentences[:i], sentence[: match.start()]]
            years = [int(year) for text in earlier for year in _EVENT_YEAR.findall(text)]
            if years and 16 <= age <= 100:
                found.add(max(years) - age)
    return found.pop() if len(found) == 1 else None


def stated_year(pattern: re.Pattern[str], sentences: Sequence[str]) -> int | None:
    """The one year the pattern finds in the sentences, or None (none, or several different)."""
    years = {int(next(g for g in m.groups() if g)) for text in sentences for m in pattern.finditer(text)}
    return years.pop() if len(years) == 1 else None


__all__ = [
    "BORN",
    "DIED",
    "WORD",
    "about_answer",
    "age_birth",
    "answer_names",
    "gender_context",
    "gender_cues",
    "opens_with_another_name",
    "passage_pronouns",
    "stated_year",
]
