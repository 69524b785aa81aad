"""How the rule judge reads a reply: the answer to the asked question, and what runs on after it.

Base models rarely stop at the answer. They go on with another question and its answer, a
label line of a few-shot format, the prompt again, or a paragraph about something else. The
INVITE labels judge the answer in front of that run-on, so :func:`read_reply` splits a reply
into its **answer** (``Reading.engaged``) and its **continuation**, and names the shape that
ended the answer (``Reading.cut``). Only generic shapes end an answer, never the wording of
one model's artefacts:

``new_question``
    a line that asks a question (ends with ``?``, or a ``Q:``/``Question:`` line), or a
    sentence asking about something other than the asked entities (also before any answer:
    a reply that opens with another question starts a chain of them); a question that flags
    the premise ("Are you sure X wrote Y?") belongs to the answer.
``label_line``
    a prompt-field or label line (``Label:``, ``Output:``, ``Input:``, ``### ...``, a line that
    is only a capitalised field name and a colon, "Review:").
``repeated_prompt``
    the question asked again after an answer.
``topic_change``
    after a blank line, a paragraph whose words (numbers aside) share nothing with the
    question or the answer so far, unless the answer ended in a lead-in (``... dates:``).

A numbered list is read as one answer first (:func:`list_answer`): when a later line picks one
of its items ("The answer is 3"), the picked item is the reply's answer (``picked_item``); a list
whose items only count ("1. The answer is 1. 2. The answer is 2.") names nothing
(``counting_list``).

Within the answer, :func:`statements` keeps the sentences that can state a fact: no questions,
no lead-ins ending in ":", no talk about the answer or the question, no request put as a
statement.

A continuation never erases an answer given before it: the steps read the answer only. A
reply that opens with a prompt-format block is read from its first answer line (``A:``,
``Answer:``); a reply with no answer at all is left with an empty ``engaged`` and the
engagement step calls it so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from halluforge.families.invite.judge.concrete import AMOUNT
from halluforge.families.invite.judge.text import (
    STOP,
    YEAR,
    frame_only,
    invalid_dates,
    is_echo,
    mentions,
    question_entities,
    reply_sentences,
)
from halluforge.families.invite.judge.world import NO_WORLD, World
from halluforge.textkit.tokens import words

#: cues of a rejected premise; searched in the opening sentences of the answer only
META_REJECT = re.compile(
    r"\b(there (is|are|was|were|seems to be|appears to be) no|there['’]s no"
    r"|no (record|evidence|information|indication)"
    r"|(couldn't|could not|can't|cannot|unable to|(not|n't) been able to) (find|locate|verify|confirm)"
    r"|does(n't| not) exist|not a (valid|real) date|(is|was) (a )?(mistake|error)|incorrect|inaccura"
    r"|confusion|mix-up|misunderstanding|false premise|not accurate|no such"
    r"|(has|have)(n't| not) (yet )?(happened|occurred|taken place)|not occurred yet|in the future"
    r"|not (historically )?(associated|linked|connected|known for)|not located"
    r"|not (provided|given|specified|mentioned)|fictional(?! (character|city|town|place|world)))\b",
    re.IGNORECASE,
)
#: a line that opens a few-shot block or a prompt field rather than answering
ARTEFACT_LINE = re.compile(
    r"^\s*(#{2,}|(output|label|input|context|options?|instruction|example( \d+)?|question|q\d*"
    r"|user|system|human)\s*[:：])",
    re.IGNORECASE,
)
#: a line that is only a field name: one to three capitalised words and a colon ("Review:", "Product Name:")
_FIELD_LINE = re.compile(r"^\s*[A-Z][\w'’-]*(\s+[A-Za-z][\w'’-]*){0,2}\s*[:：]\s*$")
_ANSWER_LINE = re.compile(r"^\s*(A|Answer)\s*[:：]", re.IGNORECASE)
#: the reasons an answer ends, in the order :func:`read_reply` checks them
CUTS = ("label_line", "repeated_prompt", "new_question", "topic_change")
#: a chat template's special token left in a reply ("<|assistant|>", "<s>", "[/INST]", "<<SYS>>"):
#: markup, not text
_SPECIAL_TOKEN = re.compile(r"<\|[^<>|\s]{1,30}\|>|</?s>|\[/?[A-Z]{2,10}\]|<</?[A-Z]{2,10}>>")
#: a sentence about the answer or the question itself, and the lead-in that starts a real answer
_META_WORD = re.compile(r"\b(answers?|questions?|explanations?|terms?|words?|phrases?)\b", re.IGNORECASE)
_ANSWER_LEAD = re.compile(
    r"\b(the|my|final|short|one|correct)\s+answer(\s+to\s+(this|the|your)\s+question)?"
    r"\s*(:|(is|was|would be)\s*(?:(?:also|simply|just)\s+)?(:|(?-i:[A-Z0-9\"“'])))",
    re.IGNORECASE,
)
#: a short lead-in that names the answer and ends in a colon, the answer after it ("A few words at
#: most: 2.", "Answers: Tam Ives", "A good answer: A: Tam Ives"): the prompt's own request echoed
#: as the frame of an answer line
_LEAD_COLON = re.compile(r"^\W*(?:[\w'’-]+\s+){0,5}?(?:answers?|words?)\b[^:.!?]{0,20}:\s*\S", re.IGNORECASE)
#: the speaker asking in statement form ("I'm looking for the actor who ..."): a request, not a claim
_SEEKING = re.compile(
    r"^\s*I(['’]m| am| have been| was| 've been)?\s+(looking for|trying to (find|figure|work) out|wondering"
    r"|(want|would like|need) to know|searching for)\b",
    re.IGNORECASE,
)
#: how :func:`list_answer` reads a numbered list
LIST_SHAPES = ("picked_item", "counting_list")
_LIST_ITEM = re.compile(r"^\s*(\d{1,2})[.)]\s+(.*\S)\s*$")
#: a line that picks one item of the list above it: "The answer is 3.", "Answer: 2"
_PICK = re.compile(r"\banswer(\s+is|\s*[:：])\s*:?\s*(\d{1,2})\b(?![,.]?\d)", re.IGNORECASE)


@dataclass
class Reading:
    """What the steps share about one reply: its sentences split by what they do."""

    question: str
    names: list[str]
    question_tokens: set[str]
    #: distinct sentences that are not echoes of the question, in order
    content: list[str] = field(default_factory=list)
    #: the answer: the part of ``content`` before the continuation (and after an opening block)
    engaged: list[str] = field(default_factory=list)
    #: the sentences after the answer ended
    continuation: list[str] = field(default_factory=list)
    #: what ended the answer (one of :data:`CUTS`), or "" when nothing did
    cut: str = ""
    #: how a numbered list was read (one of :data:`LIST_SHAPES`), or "" for a reply that is none
    listed: str = ""
    bad_dates: list[str] = field(default_factory=list)
    #: answers to the valid question (before the date was made impossible), when known
    valid_answers: list[str] = field(default_factory=list)
    #: the entity table the world-knowledge checks ask (:mod:`.world`); none by default
    world: World = NO_WORLD
    #: a note a step left from the table without deciding (shown on the verdict)
    knowledge: str = ""


def read_reply(
    question: str, response: str, *, entities: Sequence[str] = (), this_year: int | None = None,
    invalid: Sequence[str] = (), valid_answers: Sequence[str] = (),
) -> Reading:  # fmt: skip
    """Split a reply into its answer and its continuation (see the module docstring)."""
    question_tokens = set(words(question))
    reading = Reading(question, list(entities) or question_entities(question), question_tokens)
    reading.bad_dates = list(invalid) or invalid_dates(question, this_year=this_year)
    reading.valid_answers = [a for a in valid_answers if a.strip()]
    listed = list_answer(response)
    if listed is not None:
        response, reading.listed = listed
    block = False  # inside a prompt-format block the reply opened with, until an answer line
    seen_line = False
    new_paragraph = False
    for line in response.splitlines():
        line = _SPECIAL_TOKEN.sub(" ", line)
        line = _quoted_question(line, question, question_tokens)
        if not line.strip():
            new_paragraph = seen_line
            continue
        answer_line = _ANSWER_LINE.match(line) is not None
        artefact = not answer_line and ARTEFACT_LINE.match(line) is not None
        field_line = not answer_line and _FIELD_LINE.match(line) is not None
        if not seen_line and opens_block(line):
            block = True
        elif answer_line:
            block = False
        if reading.engaged and not reading.cut:
            reading.cut = _line_cut(line, artefact or field_line, new_paragraph, reading)
        seen_line, new_paragraph = True, False
        for sentence in reply_sentences(line):
            if is_echo(sentence, question, question_tokens) or _said(sentence, reading.content):
                continue
            reading.content.append(sentence)
            if not reading.cut and not block and _is_other_question(sentence, reading):
                reading.cut = "new_question"
            if reading.cut:
                reading.continuation.append(sentence)
            elif not (block or artefact):
                reading.engaged.append(sentence)
    return reading


#: a quoted question inside a line ('The answer to the question "Which wall ... 1989?" is ...')
_QUOTED_QUESTION = re.compile(r"[\"“]([^\"“”]+\?)[\"”]|(?<!\S)[\"“](\S[^\"“”]+)$")


def _quoted_question(line: str, question: str, question_tokens: set[str]) -> str:
    """The line without the asked question quoted inside it: a quote states nothing.

    'The answer to the question "Which wall in Germany was opened on 31 November 1989?" is "..."'
    names the question, and the impossible date in the quote is the question's, not the reply's.
    A quote left open at the end of the line (cut by the token limit) is read the same way.
    """
    return _QUOTED_QUESTION.sub(
        lambda m: " " if is_echo(m.group(1) or m.group(2), question, question_tokens) else m.group(0), line
    )


def _said(sentence: str, content: list[str]) -> bool:
    """Said before: the same sentence, or the start of one cut off by the token limit ("Arc de Tri")."""
    return any(earlier == sentence or earlier.startswith(sentence) for earlier in content)


def list_answer(response: str) -> tuple[str, str] | None:
    """A numbered list's answer and shape (:data:`LIST_SHAPES`), or None when the list is read as it is.

    Small models asked for one answer often list candidates and then pick one ("1. Hiroshima /
    2. Nagasaki / ... / The answer is 4."): the pick is the answer, whatever the other items
    say. A list whose every item holds nothing but its own number names nothing at all. Items
    must be numbered 1, 2, 3 ... in order; a list without a pick is left to the steps whole.
    """
    items: list[str] = []
    pick = 0
    for line in response.splitlines():
        item = _LIST_ITEM.match(line)
        if item is not None and int(item.group(1)) == len(items) + 1:
            items.append(item.group(2))
            continue
        chosen = _PICK.search(line)
        if chosen is not None and items:
            pick = int(chosen.group(2))
    if len(items) < 2:
        return None
    if all(set(re.findall(r"\d+", text)) <= {str(n)} and frame_only(text) for n, text in enumerate(items, 1)):
        return "", "counting_list"
    if 1 <= pick <= len(items):
        return items[pick - 1], "picked_item"
    return None


def opens_block(line: str) -> bool:
    """A first line that opens a prompt-format block.

    A prompt field ("Output:", "### Instruction"), or a bare field name ("Review:") that is no
    lead-in to an answer ("The answer is:").
    """
    if _ANSWER_LINE.match(line):
        return False
    if ARTEFACT_LINE.match(line):
        return True
    return _FIELD_LINE.match(line) is not None and re.search(r"\banswer", line, re.IGNORECASE) is None


def _line_cut(line: str, artefact: bool, new_paragraph: bool, reading: Reading) -> str:
    """Why this line, coming after an answer, starts the continuation ("" if it does not)."""
    if artefact:
        return "new_question" if re.match(r"^\s*(q\d*|question)\s*[:：]", line, re.I) else "label_line"
    bare = re.sub(r"^\s*(Q|Question)\s*[:：]\s*", "", line, flags=re.IGNORECASE).strip()
    if _repeats_prompt(bare, reading):
        return "repeated_prompt"
    if bare.endswith("?") and META_REJECT.search(bare) is None:
        return "new_question"
    if new_paragraph and _changes_topic(bare, reading):
        return "topic_change"
    return ""


def _repeats_prompt(line: str, reading: Reading) -> bool:
    """The line asks the question again: it holds nearly all of the question's words."""
    asked = {t for t in reading.question_tokens if t not in STOP}
    line_words = set(words(line))
    return len(asked) >= 2 and len(asked & line_words) >= 0.8 * len(asked) and line.rstrip().endswith("?")


def _changes_topic(line: str, reading: Reading) -> bool:
    """A paragraph sharing no content word with the question or the answer so far."""
    if reading.engaged[-1].rstrip().endswith(":"):
        return False  # the answer's lead-in ("on the following dates:") waits for this paragraph
    said = {t[:5] for t in reading.question_tokens | set(words(" ".join(reading.engaged)))}
    significant = {t[:5] for t in words(line) if len(t) > 2 and t.isalpha() and t not in STOP}
    return bool(significant) and not significant & said  # by 5-letter stem: "novel" is "novelist"


def _is_other_question(sentence: str, reading: Reading) -> bool:
    """A question about something else: the start of a chain of other questions and answers.

    A question that names the asked entities ("Did you mean ...?", "Who was X's wife?") or
    flags the premise does not end the answer when it sits on the answer's line.
    """
    if not sentence.rstrip().endswith("?") or META_REJECT.search(sentence):
        return False
    sentence_words = set(words(sentence))
    return not any(mentions(n, sentence_words) for n in reading.names)


def statements(reading: Reading) -> list[str]:
    """The engaged sentences that can state a fact: not questions, not lead-ins ending in ':'.

    A lead-in ("KMXS is licensed to broadcast on the following frequencies:") announces a
    claim that never comes, so on its own it asserts nothing; nor does the speaker's request
    put as a statement ("I'm looking for the actor who played ...").
    """
    return [
        s
        for s in reading.engaged
        if s.rstrip().rstrip("\"'”’")[-1:] not in ("?", ":")
        and not _meta_talk(s, reading)
        and not _SEEKING.match(s)
    ]


def _meta_talk(sentence: str, reading: Reading) -> bool:
    """Talk about the answer or the question instead of the world ("This answer is part of a list").

    "The answer is X" leads into an answer and is kept; so is a sentence naming the asked
    (swapped) entity ("The answer to the question about Ixelles lies in the south") or giving
    a year or an amount.
    """
    if _META_WORD.search(sentence) is None or _ANSWER_LEAD.search(sentence) or _LEAD_COLON.match(sentence):
        return False
    if YEAR.search(sentence) or AMOUNT.search(sentence):
        return False  # 'I'll only include the answer, "In 1972."': an answer after all
    sentence_words = set(words(sentence))
    return not any(mentions(n, sentence_words) for n in reading.names)


def presupposes(sentence: str, reading: Reading) -> bool:
    """The sentence calls the other asked entity the swapped one's ("David Lean's film Schindler's List").

    A possessive that ties the swapped entity to the other states the false link as a given, so
    a denial in the same sentence is about something else ("... was not awarded", "... is not a
    real person"), not the premise.
    """
    others = [e for e in question_entities(reading.question) if e not in reading.names]
    for name in reading.names:
        for form in {name, name.split()[-1]}:
            for other in others:
                tie = (
                    rf"\b{re.escape(form)}['’]s\s+(?:[a-z]+\s+){{0,3}}(?:(?:in|of|for)\s+)?{re.escape(other)}"
                )
                if re.search(tie, sentence):
                    return True
    return False
