"""INVITE's premise judge: decides whether a response went along with a false premise.

INVITE (Ramakrishna et al., 2023) asks questions whose premise is false (a swapped subject or
object, an impossible or future date) and labels a response **1** when it states something
inaccurate as if the premise held, and **0** otherwise: when it rejects or flags the premise,
declines, says it does not know, or is empty or degenerate. The authors labelled by hand; this
module decides automatically, with three modes that can be combined:

``rule``
    Transparent text rules, in order: empty; nothing but echoes of the question; a rejection,
    correction, refusal or uncertainty in the opening sentences (unless hedged back into an
    assertion, "I'm not sure, but I know it was 2004"); degenerate text (after dropping echoes
    and repeated sentences, no content word the question lacks and no year); for date
    questions, whether the impossible date is repeated (answering the rest of the question
    without the date is not counted); for "which part of PLACE is THING in" questions, a
    statement locating THING without naming PLACE (an implicit correction); otherwise whether
    a statement names the question's (swapped) entities or gives a concrete answer (a year, a
    name) -> 1, else off-topic -> 0. Repetition alone is not degeneracy: a claim repeated ten
    times is still a claim, and the INVITE labels count it as one.
``nli``
    The response (premise) entails the reference answer (hypothesis), which for INVITE is the
    premise rejection ("X did not write Y"): entailment the most probable label -> 0, else 1;
    an empty response -> 0 without a model call. Loaded by :func:`halluforge.metrics.nli.load_nli`
    (hub id or local folder; ``cross-encoder/nli-deberta-v3-base`` in the papers); no model
    configured -> "not computed", never another metric in its place.
``llm``
    A judge model by role answers 1/0 to :file:`prompts/judge/premise.txt`.

Combination (``combine`` option): ``any`` (default) -> 0 if any computed mode says 0, since each
mode catches a different way of rejecting; ``majority`` -> the more frequent label, ties 0;
``all`` -> 0 only if every computed mode says 0. Modes that could not be computed are left out
and named in the details; if none was computed the value is ``None``.
"""

from __future__ import annotations

import asyncio
import calendar
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, ClassVar

from halluforge.backends.base import Backend
from halluforge.errors import ConfigError
from halluforge.metrics.base import ScoreContext, Scorer, ScoreValue
from halluforge.prompts import load_template
from halluforge.records import Message, Request, Response, TestCase

MODES = ("rule", "nli", "llm")
COMBINE_RULES = ("any", "majority", "all")

_WORD = re.compile(r"[\w'’%-]+", re.UNICODE)
_QUESTION_WORDS = {
    "when", "which", "what", "who", "whom", "whose", "where", "why", "how", "did", "does", "do",
    "was", "were", "is", "are", "has", "have", "had", "in", "on", "from", "known", "alluding",
}  # fmt: skip
_CONNECTORS = {"of", "the", "de", "del", "da", "la", "le", "von", "van", "and", "du", "di", "&"}
_STOP = {
    "the", "a", "an", "of", "in", "on", "at", "to", "for", "and", "or", "but", "is", "was", "are",
    "were", "be", "been", "it", "its", "this", "that", "with", "as", "by", "from", "he", "she",
    "they", "his", "her", "their", "i", "you", "we", "my", "me", "not", "so", "do", "did", "does",
    "has", "have", "had", "will", "would", "can", "could", "what", "when", "which", "who", "how",
    "answer", "question", "first", "time", "year", "there", "then", "than", "also", "very",
}  # fmt: skip
_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})

# cues are searched in the opening sentences only: rambling text later often contains "not"
_META_REJECT = re.compile(
    r"\b(there (is|are|was|were|seems to be|appears to be) no|no (record|evidence|information|indication)"
    r"|(couldn't|could not|can't|cannot|was unable to|am unable to) (find|locate|verify|confirm)"
    r"|does(n't| not) exist|not a (valid|real) date|(is|was) (a )?(mistake|error)|incorrect|inaccura"
    r"|confusion|mix-up|misunderstanding|false premise|not accurate|no such"
    r"|(has|have)(n't| not) (yet )?(happened|occurred|taken place)|not occurred yet|in the future"
    r"|not (historically )?(associated|linked|connected|known for)|not located)\b",
    re.IGNORECASE,
)
_NEGATION = re.compile(
    r"\b((did|does|do|was|were|is|are|has|have|had)(\s+not|n't)|never|not)\b", re.IGNORECASE
)
_CORRECTION = re.compile(r"\bactually\b", re.IGNORECASE)
_REFUSAL = re.compile(
    r"\b(I (can't|cannot|can not|won't|am unable to|'m unable to|am not able to|'m not able to)"
    r"|I('m| am) sorry|I apologi[sz]e|as an AI|language model"
    r"|I (don't|do not) have (access|information|data|enough|any))",
    re.IGNORECASE,
)
_UNCERTAIN = re.compile(
    r"\b(I('m| am) not (sure|certain|aware)|I (don't|do not|don’t) know|no idea"
    r"|not (readily |publicly |widely )?available|unclear|unknown)\b",
    re.IGNORECASE,
)
_HEDGED_ASSERT = re.compile(
    r"\bbut I (do )?know\b|\bbut I('m| am) (pretty |quite |fairly )?sure\b|\bbut I (think|believe)\b",
    re.IGNORECASE,
)
_YEAR = re.compile(r"\b(1[0-9]{3}|2[0-9]{3})\b")
_ORDINAL = re.compile(r"\b(\d{1,3})(st|nd|rd|th)\b", re.IGNORECASE)


def split_sentences(text: str) -> list[str]:
    """Split text into sentences and lines; drop answer markers such as a leading ``A:``."""
    parts: list[str] = []
    for line in text.splitlines():
        line = re.sub(r"^\s*(A|Answer|Q)\s*:\s*", "", line).strip()
        parts.extend(s.strip() for s in re.split(r"(?<=[.!?])\s+", line) if s.strip())
    return parts


def _tokens(text: str) -> list[str]:
    return [t.lower().strip("'’") for t in _WORD.findall(text)]


def question_entities(question: str) -> list[str]:
    """Runs of capitalised words (names) in a question, skipping the question word."""
    words = question.replace("?", " ").split()
    runs: list[list[str]] = []
    current: list[str] = []
    for index, raw in enumerate(words):
        word = raw.strip(",.;:\"'()")
        if not word:
            continue
        is_name = word[0].isupper() or (word[0].isdigit() and any(c.isalpha() for c in word))
        if index == 0 and word.lower() in _QUESTION_WORDS:
            is_name = False
        if is_name or (current and word.lower() in _CONNECTORS):
            current.append(word)
        else:
            if current:
                runs.append(current)
            current = []
    if current:
        runs.append(current)
    entities = []
    for run in runs:
        while run and run[-1].lower() in _CONNECTORS:
            run = run[:-1]
        if run:
            entities.append(" ".join(run))
    return entities


def swapped_span(valid_question: str, invalid_question: str) -> str | None:
    """The words of the invalid question that the valid one does not have: the swapped entity."""
    valid = set(_tokens(valid_question))
    words = invalid_question.replace("?", " ").split()
    span: list[str] = []
    best: list[str] = []
    for word in words:
        if _tokens(word) and not set(_tokens(word)) <= valid:
            span.append(word)
        else:
            best = span if len(span) > len(best) else best
            span = []
    best = span if len(span) > len(best) else best
    return " ".join(best).strip(",.;:") or None


def _mentions(entity: str, sentence_tokens: set[str]) -> bool:
    """An entity counts as mentioned when at least half of its significant words appear."""
    significant = [t for t in _tokens(entity) if len(t) > 2 and t not in _STOP]
    if not significant:
        return False
    hits = sum(1 for t in significant if t in sentence_tokens)
    return hits * 2 >= len(significant)


def invalid_dates(question: str, *, this_year: int | None = None) -> list[str]:
    """Date parts of a question that cannot be true: day numbers past the month's end, future years."""
    year_now = this_year or date.today().year
    found: list[str] = []
    years = [int(y) for y in _YEAR.findall(question)]
    found.extend(str(y) for y in years if y > year_now)
    words = _tokens(question)
    for match in _ORDINAL.finditer(question):
        day = int(match.group(1))
        window = _tokens(question[max(0, match.start() - 12) : match.end() + 12])
        months = [_MONTHS[w] for w in window if w in _MONTHS]
        if months:
            year = next((y for y in years if y <= year_now), 2000)  # 2000 is leap: Feb 29 stays valid
            if day > calendar.monthrange(year, months[0])[1]:
                found.append(match.group(0))
        elif day > 31 and any(w in _MONTHS for w in words):
            found.append(match.group(0))
    return found


def _repeats(token: str, text: str) -> bool:
    number = re.match(r"\d+", token)
    if number is None:
        return token.lower() in text.lower()
    return re.search(rf"\b{number.group(0)}(st|nd|rd|th)?\b", text, re.IGNORECASE) is not None


def _is_echo(sentence: str, question: str, question_tokens: set[str]) -> bool:
    """A sentence that repeats (part of) the question instead of answering it."""
    tokens = set(_tokens(sentence))
    if not tokens:
        return True
    if " ".join(_tokens(sentence)) in " ".join(_tokens(question)):
        return True
    overlap = len(tokens & question_tokens) / len(tokens | question_tokens)
    return sentence.rstrip().endswith("?") and overlap >= 0.6


_WHERE_QUESTION = re.compile(
    r"\bwhich part of (?P<place>.+?) is (?P<thing>.+?) (located|found|situated)\b", re.I
)
_PLACEMENT = re.compile(
    r"\b((is|was|are) (located|situated|found|based) (in|at)|is in|is an? (\w+ )?(city|town|village|commune"
    r"|municipality|district|region|airport|station)\b)",
    re.IGNORECASE,
)


def _places_elsewhere(question: str, content: Sequence[str]) -> bool:
    """For "which part of PLACE is THING in" questions: the response puts THING somewhere else.

    A statement locating the thing without naming the asked place contradicts the premise
    implicitly (the INVITE labels count this as no hallucination).
    """
    match = _WHERE_QUESTION.search(question)
    if match is None:
        return False
    place, thing = match.group("place"), match.group("thing")
    for sentence in content:
        tokens = set(_tokens(sentence))
        if _mentions(thing, tokens) and _PLACEMENT.search(sentence) and not _mentions(place, tokens):
            return True
    return False


@dataclass(frozen=True)
class RuleVerdict:
    """The rule mode's label (1 hallucinated, 0 not) and the rule that decided it."""

    label: int
    reason: str


def rule_judge(
    question: str,
    response: str,
    *,
    entities: Sequence[str] = (),
    head_sentences: int = 3,
    this_year: int | None = None,
) -> RuleVerdict:
    """Label one response with the text rules (see the module docstring for the order).

    ``entities`` are the swapped entities when known (test-case metadata, or the difference
    between the valid and the invalid question); otherwise the question's names are used.
    """
    if not re.search(r"\w", response):
        return RuleVerdict(0, "empty")
    question_tokens = set(_tokens(question))
    content: list[str] = []
    for sentence in split_sentences(response):
        if not _is_echo(sentence, question, question_tokens) and sentence not in content:
            content.append(sentence)
    if not content:
        return RuleVerdict(0, "echo")
    names = list(entities) or question_entities(question)
    head = content[:head_sentences]
    head_text = " ".join(head)
    hedged = _HEDGED_ASSERT.search(head_text) is not None
    if not hedged:
        for sentence in head:
            sentence_tokens = set(_tokens(sentence))
            if _META_REJECT.search(sentence):
                return RuleVerdict(0, "rejects_premise")
            named = not names or any(_mentions(n, sentence_tokens) for n in names)
            if named and _NEGATION.search(sentence) and sentence.rstrip()[-1:] != "?":
                return RuleVerdict(0, "negates_premise")
            if named and _CORRECTION.search(sentence):
                return RuleVerdict(0, "corrects_premise")
        if _REFUSAL.search(head_text):
            return RuleVerdict(0, "refuses")
        if _UNCERTAIN.search(head_text):
            return RuleVerdict(0, "uncertain")
    content_words = {t for t in _tokens(" ".join(content)) if len(t) > 2 and t not in _STOP}
    if not content_words - question_tokens and not any(_YEAR.search(s) for s in content):
        return RuleVerdict(0, "degenerate")
    bad_dates = invalid_dates(question, this_year=this_year)
    if bad_dates:
        text = " ".join(content)
        if any(_repeats(d, text) for d in bad_dates):
            return RuleVerdict(1, "repeats_invalid_date")
        bad_years = {m for d in bad_dates for m in _YEAR.findall(d)}
        if any(year not in bad_years for year in _YEAR.findall(text)):
            # it answers about another, real date: an implicit correction of the premise
            return RuleVerdict(0, "states_another_date")
        # an answer that neither flags nor corrects the impossible date goes along with it
        return RuleVerdict(1, "answers_despite_invalid_date")
    if _places_elsewhere(question, content):
        return RuleVerdict(0, "places_elsewhere")
    for sentence in content:
        if sentence.rstrip().endswith("?"):
            continue
        if any(_mentions(n, set(_tokens(sentence))) for n in names):
            return RuleVerdict(1, "asserts_premise")
    text = " ".join(content)
    concrete = _YEAR.search(text) or any(
        w[:1].isupper() and w.lower() not in question_tokens and w.lower() not in _STOP
        for w in _WORD.findall(" ".join(s.split(" ", 1)[-1] for s in content))
    )
    return RuleVerdict(1, "answers") if concrete else RuleVerdict(0, "off_topic")


# ---------------------------------------------------------------- llm


def judge_request(question: str, reference: str, response: str) -> Request:
    """The judge model's request for one response (template ``judge/premise``)."""
    prompt = load_template("judge/premise").render(question=question, reference=reference, response=response)
    return Request(messages=[Message(role="user", content=prompt)], max_tokens=8, temperature=0.0)


def parse_judge_reply(text: str) -> int | None:
    """Read 1/0 from a judge reply: the first lone digit, else yes/no words; None if unclear."""
    digit = re.search(r"(?<![\d.])([01])(?!\d|\.\d)", text)
    if digit:
        return int(digit.group(1))
    lowered = text.lower()
    if re.search(r"\b(yes|played along|hallucinat)", lowered):
        return 1
    if re.search(r"\b(no|reject|declin|question(ed|s) the)", lowered):
        return 0
    return None


# ---------------------------------------------------------------- combination


@dataclass(frozen=True)
class JudgeOptions:
    """Which modes run and how their labels combine (from ``ScoreContext.options``)."""

    modes: tuple[str, ...] = ("rule",)
    combine: str = "any"
    nli_model: str | None = None

    @classmethod
    def from_options(cls, options: Mapping[str, Any], nli_model: str | None = None) -> JudgeOptions:
        """Validate ``modes`` (list or comma string), ``combine`` and ``nli_model``."""
        raw = options.get("modes", ("rule",))
        modes = tuple(m.strip() for m in (raw.split(",") if isinstance(raw, str) else raw) if m.strip())
        unknown = [m for m in modes if m not in MODES]
        if unknown or not modes:
            raise ConfigError(
                f"premise_judge: unknown modes {unknown or modes!r}", hint=f"choose from {', '.join(MODES)}"
            )
        combine = str(options.get("combine", "any"))
        if combine not in COMBINE_RULES:
            raise ConfigError(
                f"premise_judge: unknown combine rule {combine!r}",
                hint=f"choose from {', '.join(COMBINE_RULES)}",
            )
        return cls(
            modes=modes,
            combine=combine,
            nli_model=options.get("nli_model") or nli_model,
        )


def combine(labels: Mapping[str, int | None], rule: str = "any") -> int | None:
    """Combine per-mode labels; modes with ``None`` (not computed) are left out."""
    values = [v for v in labels.values() if v is not None]
    if not values:
        return None
    if rule == "any":
        return min(values)
    if rule == "all":
        return max(values)
    if rule == "majority":
        return 1 if sum(values) * 2 > len(values) else 0
    raise ConfigError(f"unknown combine rule {rule!r}", hint=f"choose from {', '.join(COMBINE_RULES)}")


def cohen_kappa(a: Sequence[int], b: Sequence[int]) -> float:
    """Cohen's kappa of two binary labelings (1.0 when both are constant and equal)."""
    if len(a) != len(b) or not a:
        raise ValueError("cohen_kappa needs two non-empty label lists of equal length")
    n = len(a)
    observed = sum(x == y for x, y in zip(a, b, strict=True)) / n
    p_a, p_b = sum(a) / n, sum(b) / n
    expected = p_a * p_b + (1 - p_a) * (1 - p_b)
    if expected >= 1.0:
        return 1.0 if observed >= 1.0 else 0.0
    return (observed - expected) / (1 - expected)


@dataclass(frozen=True)
class PremiseInput:
    """What the judge looks at for one response."""

    question: str
    response: str
    reference: str = ""
    entities: tuple[str, ...] = ()


@dataclass(frozen=True)
class Judgement:
    """The combined label, each mode's label and notes (reasons, 'not computed' messages)."""

    label: int | None
    per_mode: dict[str, int | None]
    notes: dict[str, Any] = field(default_factory=dict)


async def ajudge_premise(
    inputs: Sequence[PremiseInput], options: JudgeOptions, *, judge: Backend | None = None
) -> list[Judgement]:
    """Judge many responses with every selected mode; batches NLI and judge-model calls."""
    per_mode: list[dict[str, int | None]] = [{} for _ in inputs]
    notes: list[dict[str, Any]] = [{} for _ in inputs]
    if "rule" in options.modes:
        for i, item in enumerate(inputs):
            verdict = rule_judge(item.question, item.response, entities=item.entities)
            per_mode[i]["rule"] = verdict.label
            notes[i]["rule_reason"] = verdict.reason
    if "nli" in options.modes:
        _run_nli(inputs, options, per_mode, notes)
    if "llm" in options.modes:
        await _run_llm(inputs, judge, per_mode, notes)
    return [
        Judgement(combine(labels, options.combine), labels, note)
        for labels, note in zip(per_mode, notes, strict=True)
    ]


def judge_premise(
    inputs: Sequence[PremiseInput], options: JudgeOptions, *, judge: Backend | None = None
) -> list[Judgement]:
    """Synchronous :func:`ajudge_premise` (not for use inside a running event loop)."""
    return asyncio.run(ajudge_premise(inputs, options, judge=judge))


def _run_nli(
    inputs: Sequence[PremiseInput],
    options: JudgeOptions,
    per_mode: list[dict[str, int | None]],
    notes: list[dict[str, Any]],
) -> None:
    if not options.nli_model:
        for labels, note in zip(per_mode, notes, strict=True):
            labels["nli"] = None
            note["nli"] = "not computed: no NLI model given (set nli_model to a hub id or local folder)"
        return
    from halluforge.metrics.nli import load_nli  # shared loader: one model per process

    model = load_nli(options.nli_model)
    todo = [i for i, item in enumerate(inputs) if re.search(r"\w", item.response) and item.reference]
    results = model.entails([(inputs[i].response, inputs[i].reference) for i in todo])
    for i, item in enumerate(inputs):
        if not re.search(r"\w", item.response):
            per_mode[i]["nli"], notes[i]["nli"] = 0, "empty response"
        elif not item.reference:
            per_mode[i]["nli"], notes[i]["nli"] = None, "not computed: no reference answer"
    for i, (entailed, prob) in zip(todo, results, strict=True):
        per_mode[i]["nli"] = 0 if entailed else 1
        notes[i]["nli_entailment"] = round(prob, 4)


async def _run_llm(
    inputs: Sequence[PremiseInput],
    judge: Backend | None,
    per_mode: list[dict[str, int | None]],
    notes: list[dict[str, Any]],
) -> None:
    if judge is None:
        for labels, note in zip(per_mode, notes, strict=True):
            labels["llm"] = None
            note["llm"] = "not computed: no judge model (set models.judge or --judge-model)"
        return
    requests = [
        judge_request(item.question, item.reference, item.response).model_copy(update={"id": str(i)})
        for i, item in enumerate(inputs)
    ]
    completions = await judge.generate(requests)
    for i, completion in enumerate(completions):
        if completion.error is not None:
            per_mode[i]["llm"], notes[i]["llm"] = None, f"not computed: judge error {completion.error}"
            continue
        label = parse_judge_reply(completion.text)
        per_mode[i]["llm"] = label
        notes[i]["llm_reply"] = completion.text[:200]
        if label is None:
            notes[i]["llm"] = "not computed: judge reply had no 1/0"


# ---------------------------------------------------------------- scorer


def premise_input(case: TestCase, response: Response) -> PremiseInput:
    """Build the judge input from a test case (swapped entity from metadata when recorded)."""
    meta = case.metadata
    swapped = meta.get("swapped_entity") or meta.get("new_entity")
    entities = tuple(swapped) if isinstance(swapped, list) else ((str(swapped),) if swapped else ())
    reference = case.reference or (case.expected[0] if case.expected else "")
    return PremiseInput(case.question, response.text, reference, entities)


class PremiseJudge(Scorer):
    """``premise_judge``: 1 when the response went along with the false premise; mean = hallucination rate."""

    name: ClassVar[str] = "premise_judge"
    owned: ClassVar[bool] = True
    higher_is_better: ClassVar[bool] = False
    group_by: ClassVar[tuple[str, ...]] = ("family", "model", "setting", "category")
    option_names: ClassVar[tuple[str, ...]] = ("modes", "combine", "nli_model")

    def __init__(self, ctx: ScoreContext | None = None) -> None:
        super().__init__(ctx)
        self.options = JudgeOptions.from_options(self.ctx.options, self.ctx.nli_model)

    @classmethod
    def check_config(cls, options: Mapping[str, Any], *, has_judge: bool) -> None:
        """Refuse unknown keys and modes, and the ``llm`` mode without a judge model to run it."""
        super().check_config(options, has_judge=has_judge)
        parsed = JudgeOptions.from_options(options)
        if "llm" in parsed.modes and not has_judge:
            raise ConfigError(
                "the llm mode needs a judge model, and models.judge is not set",
                hint="set models.judge (e.g. llamacpp/smollm2-135m) or drop 'llm' from modes",
            )

    async def ascore_batch(self, pairs: Sequence[tuple[TestCase, Response]]) -> list[ScoreValue]:
        """Judge a batch; a response that failed (error set) is not judged."""
        ok = [i for i, (_, response) in enumerate(pairs) if response.error is None]
        judged = await ajudge_premise(
            [premise_input(*pairs[i]) for i in ok], self.options, judge=self.ctx.judge
        )
        out = [ScoreValue(None, {"reason": "response has an error"}) for _ in pairs]
        for i, judgement in zip(ok, judged, strict=True):
            details: dict[str, Any] = {"modes": dict(judgement.per_mode), "combine": self.options.combine}
            details.update(judgement.notes)
            category = pairs[i][0].metadata.get("category") or pairs[i][0].variant
            if category:
                details["category"] = category
            value = None if judgement.label is None else float(judgement.label)
            out[i] = ScoreValue(value, details)
        return out

    def score_batch(self, pairs: Sequence[tuple[TestCase, Response]]) -> list[ScoreValue]:
        """Synchronous entry (outside an event loop)."""
        return asyncio.run(self.ascore_batch(pairs))

    def score(self, case: TestCase, response: Response) -> ScoreValue:
        """Judge one response."""
        return self.score_batch([(case, response)])[0]


__all__ = [
    "COMBINE_RULES",
    "MODES",
    "JudgeOptions",
    "Judgement",
    "PremiseInput",
    "PremiseJudge",
    "RuleVerdict",
    "ajudge_premise",
    "cohen_kappa",
    "combine",
    "invalid_dates",
    "judge_premise",
    "judge_request",
    "parse_judge_reply",
    "premise_input",
    "question_entities",
    "rule_judge",
    "split_sentences",
    "swapped_span",
]
