"""Text helpers of the premise judge: a reply's sentences, names in a question, invalid dates, echoes.

They are shared by the rule steps (:mod:`.steps`), the learned judge's features and the CLI
(the swapped entity of an INVITE row is the span its invalid question does not share with
the valid one). Words, stop words, sentences and months come from the text kit
(:mod:`halluforge.textkit`); what is the judge's own is named so: :data:`QUESTION_WORDS` (what
opens a question, not a name), :data:`NAME_CONNECTORS` (lowercase words inside a name) and
:data:`REPLY_WORDS` (words a reply uses about itself, which say nothing about the premise).
"""

from __future__ import annotations

import calendar
import re
from datetime import date

from halluforge.textkit.dates import MONTH_NAME_PATTERN, month_number
from halluforge.textkit.sentences import split_sentences
from halluforge.textkit.stopwords import STOP_WORDS, WH_WORDS
from halluforge.textkit.tokens import words

#: words that open a question and are no name, though capitalised ("When", "Did", "In")
QUESTION_WORDS = frozenset(
    {
        *("when", "which", "what", "who", "whom", "whose", "where", "why", "how", "did", "does", "do"),
        *("was", "were", "is", "are", "has", "have", "had", "in", "on", "from", "known", "alluding"),
    }
)
#: lowercase words that may stand inside a name ("Duke of Wellington", "Leonardo da Vinci")
NAME_CONNECTORS = frozenset(
    {"of", "the", "de", "del", "da", "la", "le", "von", "van", "and", "du", "di", "&"}
)
#: words a reply uses about itself or the question ("The answer is the first time ..."): not content
REPLY_WORDS = frozenset({"answer", "question", "first", "time", "year"})
#: what the judge ignores when it looks for a reply's content: the kit's stop words and its reply words
STOP = STOP_WORDS | REPLY_WORDS

YEAR = re.compile(r"\b(1[0-9]{3}|2[0-9]{3})\b")
_ORDINAL = re.compile(r"\b(\d{1,3})(st|nd|rd|th)\b", re.IGNORECASE)
#: a bare day number right beside a month name: "July 33", "34 July" (suffixed days are _ORDINAL's)
_BARE_DAY = re.compile(
    rf"\b(?:(?P<month_a>{MONTH_NAME_PATTERN})\s+(?P<day_a>\d{{1,2}})(?![\d,]*\d{{3}})(?!st|nd|rd|th|\d|\s*(BC|AD|BCE|CE)\b)"
    rf"|(?P<day_b>\d{{1,2}})\s+(?P<month_b>{MONTH_NAME_PATTERN}))\b",
    re.IGNORECASE,
)


def reply_sentences(text: str) -> list[str]:
    """The sentences of a reply: each line cut by the kit's splitter, without its ``A:`` label.

    Not a second splitter: a reply's lines are separate statements (a line break ends a
    sentence even without a full stop), and a line's speaker label is no part of its first
    sentence.
    """
    parts: list[str] = []
    for line in text.splitlines():
        line = re.sub(r"^\s*(A|Answer|Q|Assistant|Response)\s*:\s*", "", line, flags=re.IGNORECASE).strip()
        parts.extend(split_sentences(line))
    return parts


def question_entities(question: str) -> list[str]:
    """Runs of capitalised words (names) in a question, skipping the question word."""
    pieces = question.replace("?", " ").split()
    runs: list[list[str]] = []
    current: list[str] = []
    for index, raw in enumerate(pieces):
        word = raw.strip(",.;:\"'()")
        if not word:
            continue
        is_name = word[0].isupper() or (word[0].isdigit() and any(c.isalpha() for c in word))
        if index == 0 and word.lower() in QUESTION_WORDS:
            is_name = False
        if is_name or (current and word.lower() in NAME_CONNECTORS):
            current.append(word)
        else:
            if current:
                runs.append(current)
            current = []
    if current:
        runs.append(current)
    entities = []
    for run in runs:
        while run and run[-1].lower() in NAME_CONNECTORS:
            run = run[:-1]
        if run:
            entities.append(" ".join(run))
    return entities


def swapped_span(valid_question: str, invalid_question: str) -> str | None:
    """The words of the invalid question that the valid one does not have: the swapped entity."""
    valid = set(words(valid_question))
    pieces = invalid_question.replace("?", " ").split()
    span: list[str] = []
    best: list[str] = []
    for word in pieces:
        if words(word) and not set(words(word)) <= valid:
            span.append(word)
        else:
            best = span if len(span) > len(best) else best
            span = []
    best = span if len(span) > len(best) else best
    return " ".join(best).strip(",.;:") or None


def mentions(entity: str, sentence_tokens: set[str]) -> bool:
    """An entity counts as mentioned when at least half of its significant words appear.

    A hyphenated word is one word ("Jean-Pierre Jeunet" has two, so "Jeunet's award" names him),
    met when any of its parts is.
    """
    significant = [
        parts
        for word in entity.split()
        if (parts := [t for t in words(word) if len(t) > 2 and t not in STOP])
    ]
    if not significant:
        return False
    hits = sum(1 for parts in significant if any(t in sentence_tokens for t in parts))
    return hits * 2 >= len(significant)


def invalid_dates(question: str, *, this_year: int | None = None) -> list[str]:
    """Date parts of a question that cannot be true: day numbers past the month's end, future years."""
    year_now = this_year or date.today().year
    found: list[str] = []
    years = [int(y) for y in YEAR.findall(question)]
    found.extend(str(y) for y in years if y > year_now)
    question_words = words(question)
    for match in _ORDINAL.finditer(question):
        day = int(match.group(1))
        window = words(question[max(0, match.start() - 12) : match.end() + 12])
        months = [m for m in map(month_number, window) if m is not None]
        if months:
            year = next((y for y in years if y <= year_now), 2000)  # 2000 is leap: Feb 29 stays valid
            if day > calendar.monthrange(year, months[0])[1]:
                found.append(match.group(0))
        elif day > 31 and any(month_number(w) is not None for w in question_words):
            found.append(match.group(0))
    for match in _BARE_DAY.finditer(question):
        day = int(match.group("day_a") or match.group("day_b"))
        month = month_number(match.group("month_a") or match.group("month_b")) or 1
        year = next((y for y in years if y <= year_now), 2000)
        if day > calendar.monthrange(year, month)[1]:
            found.append(str(day))
    return found


def repeats(token: str, text: str) -> bool:
    """``text`` repeats a date part: a number with or without its ordinal suffix, else the word."""
    number = re.match(r"\d+", token)
    if number is None:
        return token.lower() in text.lower()
    return re.search(rf"\b{number.group(0)}(st|nd|rd|th)?\b", text, re.IGNORECASE) is not None


#: a life span in brackets after a name, "(1914-2009)", "(c. 1393–1468)": it dates a person, not an event
LIFE_SPAN = re.compile(r"\(\s*(?:c\.\s*)?(\d{3,4})\s*[-–]\s*(\d{3,4})\s*\)")


#: words a sentence about the question or its answer is made of ("What is the answer to this question?")
_META_WORDS = frozenset(
    {"what", "is", "the", "answer", "to", "this", "question", "of", "here", "your", "my", "a"}
)


#: a question's own frame: its question word and auxiliaries
_QUESTION_FRAME = WH_WORDS | {"was", "were", "did", "does", "do", "is", "are", "has", "have", "had"}
#: a sentence opened like a question ("Which company did ... find on April 34, 1976"), mark or not
_QUESTION_FRAME_START = re.compile(rf"\s*({'|'.join(sorted(WH_WORDS))})\b", re.IGNORECASE)


#: how a noun phrase opens, the relative pronouns that turn a question's verb into its clause
_NOUN_PHRASE_START = frozenset({"the", "a", "an"})
_RELATIVE = frozenset({"that", "who", "which", "whose", "whom"})
#: the most words before the relative pronoun of a noun phrase: an article and three more
_NOUN_PHRASE_HEAD = 4


#: the frame an answer line opens with ("The answer to the question is: "), before what it answers
_ANSWER_FRAME = re.compile(
    r"^\W*the answer(?: to (?:the|this|your) question)?\s*(?:is|was|would be)?\s*:?\s*", re.IGNORECASE
)
#: the copula of "X is X"
_COPULA = re.compile(r"\s+(?:is|was|are|were)\s+", re.IGNORECASE)


def _tautology(sentence: str) -> bool:
    """A sentence saying "X is X": the same words on both sides of its copula state nothing.

    "The scientist who won the prize in 2090 is the scientist who won the prize in 2090".
    """
    parts = _COPULA.split(sentence.rstrip(" ."), maxsplit=1)
    if len(parts) != 2:
        return False
    head, tail = ([w for w in words(p) if w not in _NOUN_PHRASE_START] for p in parts)
    return bool(head) and head == tail


def _noun_phrase_echo(sentence_words: list[str], question_tokens: set[str]) -> bool:
    """The question's words made into a noun phrase ("The city that hosted the Games in 2099").

    It names the asked thing by its description and states nothing; a sentence with its own
    verb ("The Continental Congress adopted a document on July 35, 1776") is no such phrase.
    """
    if not sentence_words or sentence_words[0] not in _NOUN_PHRASE_START:
        return False
    if not set(sentence_words) <= question_tokens | _NOUN_PHRASE_START | _RELATIVE | {"of"}:
        return False
    relative = next((i for i, w in enumerate(sentence_words) if w in _RELATIVE), None)
    # a noun phrase's head is short ("The Polish-born scientist who ..."); a longer run before the
    # relative pronoun holds a verb ("The Continental Congress adopted a document that ...")
    return (
        relative is not None
        and relative <= _NOUN_PHRASE_HEAD
        and not set(sentence_words[:relative]) & _QUESTION_FRAME
    )


def is_echo(sentence: str, question: str, question_tokens: set[str]) -> bool:
    """A sentence that repeats (part of) the question instead of answering it.

    Also a question that only asks for "the answer" ("What is the answer?", "What is the
    answer to this question?"): it names nothing, so it opens no other question.
    """
    sentence_words = set(words(sentence))
    if not sentence_words:
        return True
    if (
        sentence.rstrip().endswith("?")
        and sentence_words <= _META_WORDS
        and sentence_words & {"answer", "question"}
    ):
        return True
    if " ".join(words(sentence)) in " ".join(words(question)):
        return True
    if words(sentence) == [w for w in words(question) if w not in _QUESTION_FRAME]:
        # "Paris fortress stormed by a crowd on 33 July 1789": the question less its "which
        # ... was", a fragment that states nothing
        return True
    if _noun_phrase_echo(words(_ANSWER_FRAME.sub("", sentence)), question_tokens) or _tautology(sentence):
        return True
    overlap = len(sentence_words & question_tokens) / len(sentence_words | question_tokens)
    asks = sentence.rstrip().endswith("?") or _QUESTION_FRAME_START.match(sentence) is not None
    return asks and overlap >= 0.6


#: words of an answer line that frame it and say nothing ("The answer is: 2093", "Output:")
FRAME_WORDS = frozenset(
    {"the", "answer", "is", "explanation", "output", "a", "an", "to", "this", "question", "would", "be"}
)


def echoes_numbers(text: str, question: str) -> bool:
    """The reply says nothing but numbers the question holds ("2093 / The answer is: 2093").

    A year repeated from "which king put his seal to Magna Carta in 2093" names no king and
    states nothing about the event: an echo, not an answer that takes the premise as true. A
    sentence around it ("Magna Carta was sealed in 2093") is a statement, and is read as one.
    """
    numbers = re.findall(r"\d+", text)
    if not numbers or not set(numbers) <= set(re.findall(r"\d+", question)):
        return False
    return frame_only(text)


def frame_only(text: str) -> bool:
    """Nothing but numbers and the frame words of an answer line ("The answer is 2.")."""
    return all(w.isdigit() or w in FRAME_WORDS for w in words(text))


#: "the district of Larnaca": a part named by its kind (the kind words in any case, the name capitalised)
PART_OF = re.compile(
    r"\b(?i:(the\s+)?(village|town|district|region|province|department|county|area|part|municipality"
    r"|commune|neighbou?rhood|quarter|suburb)\s+of)\s+([A-Z][\w'’-]*\s*)+"
)


def names_parts_only(placement: str) -> bool:
    """The places named after a placement verb are all framed as parts ("the district of L")."""
    rest = PART_OF.sub(" ", placement)
    return re.search(r"\b[A-Z]", rest) is None
