"""Dates that correct: another date for an impossible one, a person's true life year for a wrong one.

A reply to "which ship sank on April 34, 1912" that gives another, real date ("The Titanic sank
on April 15, 1912") corrects the premise implicitly, as INVITE's labels read it, unless the answer
beside that date is wrong: "The USS Arizona Memorial in Arizona was attacked on December 7, 1941"
for the naval base attacked "on December 34, 1941" explicitly states something inaccurate, which
INVITE counts as a hallucination (the team's convention since issue 27's round seven, stated in
the labelling brief; docs/judge.md).

A false premise that misdates a life ("Since Martin Scorsese was born in 1910, ...") is
corrected by a reply giving the person's true year, as the entity table has it
(:func:`corrects_life_year`).
"""

from __future__ import annotations

import re

from halluforge.families.invite.judge.concrete import ORDINAL_OR_DATE, concrete
from halluforge.families.invite.judge.cues import speaks_of
from halluforge.families.invite.judge.reading import Reading, statements
from halluforge.families.invite.judge.text import LIFE_SPAN, STOP, YEAR
from halluforge.families.invite.judge.world import NAME_RUN, life_facts, without_denied_year
from halluforge.textkit.answers import contains_answer
from halluforge.textkit.dates import month_number
from halluforge.textkit.tokens import words


def corrects_date(reading: Reading, head_sentences: int) -> bool:
    """The reply's head gives another, real date, beside the true answer or none (see above).

    A span in brackets ("John Wallis (1914-2009)") dates a person, not the event asked about; a
    correction comes up front, so years further on date other events of a run-on answer.
    """
    bad_years = {m for d in reading.bad_dates for m in YEAR.findall(d)}
    event_text = LIFE_SPAN.sub(" ", " ".join(reading.engaged[:head_sentences]))
    other_date = any(year not in bad_years for year in YEAR.findall(event_text)) or _other_day(reading)
    return other_date and not _wrong_answer(reading)


def _wrong_answer(reading: Reading) -> bool:
    """A date question's reply names an answer that is none of the valid question's answers.

    "The USS Arizona Memorial in Arizona, USA, was attacked by Japan on December 7, 1941" for
    "which naval base in Hawaii was attacked by Japan on December 34, 1941": another date, but a
    false answer, which INVITE counts as a hallucination ("explicitly states something
    inaccurate"), so no correction. Only names count (dates and numbers are the date talk
    itself), and only when the valid answers are known; a name ending in a word of the question
    is the question's own ("Francis Crick and James Watson" for "... did Watson and Crick
    announce").
    """
    if not reading.valid_answers:
        return False
    claims = statements(reading)
    if any(contains_answer(" ".join(claims), answer) for answer in reading.valid_answers):
        return False
    undated = [ORDINAL_OR_DATE.sub(" ", claim) for claim in claims]
    if not undated or re.search(r"\d", " ".join(undated)):
        return False
    known = reading.question_tokens | STOP
    fresh = [
        run for run in NAME_RUN.findall(" ".join(undated)) if words(run)[-1:] and words(run)[-1] not in known
    ]
    return bool(fresh) and concrete(reading.question, reading.question_tokens, undated, reading.world)[0]


def _other_day(reading: Reading) -> bool:
    """The reply names the question's month with another day number (a corrected date)."""
    months = {w for w in words(reading.question) if month_number(w, abbreviated=False)}
    if not months:
        return False
    for sentence in reading.engaged:
        sentence_words = words(sentence)
        for i, word in enumerate(sentence_words):
            if word in months:
                near = sentence_words[max(0, i - 2) : i + 3]
                if any(re.fullmatch(r"\d{1,2}(st|nd|rd|th)?", w) for w in near):
                    return True
    return False


#: a life event a reply dates ("Scorsese was born in 1942")
_LIFE_YEAR = re.compile(r"\b(born|died)\b\D{0,20}?\b(1[0-9]{3}|20[0-9]{2})\b")


def corrects_life_year(reading: Reading, head: list[str]) -> bool:
    """The reply gives the person's true year for the life event the question misdates.

    "Scorsese was born in 1942 — e.g., Paul McCartney, ..." for "Since Martin Scorsese was born in
    1910, which other famous people share that birth year?" corrects the premise, and so does
    "Federico Fellini was actually born in 1920, not 1809". The year must be
    the entity table's: another wrong year ("Albert Einstein was born in 1935") is a false
    statement about him, which labellers call 1, and a person the table does not know decides
    nothing. The first year the reply gives for the event is the one read.
    """
    for name, event, claimed, true_year in life_facts(reading.question, reading.names, reading.world):
        year = str(claimed)
        for index, sentence in enumerate(head):
            about = speaks_of(sentence, [name], index)
            stated = {m.group(2) for m in _LIFE_YEAR.finditer(sentence) if m.group(1) == event}
            if about and stated:  # the first year the reply gives for the event decides
                # the question's year may stand only as the one denied ("..., not 1809")
                return stated == {str(true_year)} and year not in without_denied_year(sentence, year)
    return False


__all__ = ["corrects_date", "corrects_life_year"]
