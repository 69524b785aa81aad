"""RECALL's scorers and metrics (Liu et al. 2023, §3.3): accuracy, M-Rate, R-Rate, error detection.

Scorers (one value per response, owned by the ``counterfactual`` family):

- ``accuracy``: a ``choice`` reply is parsed to one option, by its letter ("B", "(B)",
  "Option B") or, failing that, by the one option text it contains; 1 when that option's role
  is ``correct`` (the true answer). A reply naming both options or neither, or whose letter
  names one option and whose text the other ("A. King John" with King John as B), counts as
  wrong (``details["parsed"] = False``), so the unparsed rate can be reported (spec A.5).
- ``error_detection``: 1 when the reply says the context is wrong or contradicts what the
  model knows (what peers report next to M-Rate); a phrase rule, English only.
- ``confidence``: the mean token probability of the reply (mean of exp(log-prob)), and for a
  text-generation case the mean over the tokens covering its edited and original words
  (Figure 3). ``None`` when the backend returned no log-probabilities.

Derived metrics over joined rows (:mod:`halluforge.metrics.layer`):

- ``m_rate`` (Eq. 1): among the cases a model answers correctly with no context (setting
  ``closed_book``), the share it answers wrongly with the edited context (``open_book``, and
  ``self_trust`` and ``dola`` for the two mitigations). One row per edited-context response; a case that
  was wrong without context, or never asked without it, gets ``None`` with the reason, so the
  mean over values is the M-Rate and an empty denominator is "not computed", never 0.
- ``r_rate`` (Eq. 2, records and examples) and ``r_rate_norm`` (Eq. 3, term descriptions): one
  row per edited word (``item``) with its hit bits stored in ``details`` (``e_in_pe``,
  ``o_in_pe``, ``o_in_po``, ``o_in_ref``), so every reading can be recomputed. Reading **R1**
  (default): the edited word is looked for in the output under the edited context, and a pair
  counts only when its original word is in the reference; **R2** (``score.options.r_rate.reading:
  R2``): the original word must be in the output under the original context instead. The mean
  of ``r_rate`` rows is ``Σ1[E∈W(p^e) ∧ O∈W(ref)] / Σ1[O∈W(ref)]``. ``r_rate_norm`` rows hold
  ``1[E∈W(p^e)] / r_O`` with ``r_O = Σ1[O∈W(ref)] / Σ|O|`` over the model's term cases, so
  their mean is the paper's ratio of the two rates (it can exceed 1).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

from halluforge.families.counterfactual import CounterfactualMetadata
from halluforge.metrics.base import Scorer, ScoreValue
from halluforge.metrics.joined import Joined
from halluforge.metrics.layer import Metric, derived_score
from halluforge.metrics.match import strip_answer_prefix
from halluforge.records import Option, Response, Score, TestCase
from halluforge.textkit.answers import contains_answer
from halluforge.textkit.sentences import split_sentences
from halluforge.textkit.tokens import word_spans, words

WordKind = Literal["edited", "original"]
NO_CONTEXT = "closed_book"
ORIGINAL = "original_context"
DEFAULT_EDITED = ("open_book", "self_trust", "dola")
#: "(B)", "Option B", "B.", "B)" or a bare "B"; never the article in "A battle ..."
_LETTER = re.compile(r"^(?:\(\s*([A-Z])\s*\)|option\s+([A-Z])\b|([A-Z])(?:[).:]|$))", re.I)
_WRONG = (
    r"(?:incorrect|wrong|false|inaccurate|mistaken|errors?|mistakes?|misleading"
    r"|not\s+(?:true|correct|accurate))"
)
_SOURCE = r"(?:context|passage|text|record|description|information)"
_DETECT = re.compile(
    rf"\b{_SOURCE}\b[^.]{{0,60}}\b(?:is|are|seems?|appears?|contains?|has|have)\b[^.]{{0,20}}\b{_WRONG}\b"
    r"|\b(?:contradicts?|contrary\s+to)\b[^.]{0,40}\b(?:know|knowledge|facts?|history|record)"
    rf"|\b(?:this|that|which)\s+is\s+{_WRONG}\b"
    rf"|\bthere\s+(?:is|are|seems?\s+to\s+be)\s+(?:an?\s+)?{_WRONG}\s+in\s+the\s+{_SOURCE}\b",
    re.I,
)


def parse_choice(text: str, options: Sequence[Option]) -> tuple[int | None, str]:
    """(index of the chosen option, how it was read); None when no single option is named."""
    reply = strip_answer_prefix(text).strip()
    letter = _LETTER.match(reply)
    named = [i for i, o in enumerate(options) if contains_answer(reply, o.text)]
    if letter:
        index = ord(next(g for g in letter.groups() if g).upper()) - ord("A")
        if 0 <= index < len(options):
            # "A. King John" where A is another option: the letter and the text disagree
            if named and index not in named:
                return None, "conflict"
            return index, "letter"
    if len(named) == 1:
        return named[0], "text"
    return None, "both" if named else "neither"


def was_parsed(score: Score) -> bool | None:
    """Whether an ``accuracy`` score's reply named one option (None for other scores)."""
    found = score.details.get("parsed")
    return found if isinstance(found, bool) else None


def word_prob(score: Score, kind: WordKind) -> float | None:
    """A ``confidence`` score's mean probability of the tokens of the ``edited`` or ``original`` words."""
    found = score.details.get(f"{kind}_word_prob")
    return None if found is None else float(found)


class ChoiceAccuracy(Scorer):
    """``accuracy``: 1 when a choice reply picks the option whose role is ``correct``."""

    name: ClassVar[str] = "accuracy"
    owned: ClassVar[bool] = True

    def applies_to(self, case: TestCase) -> bool:
        """Choice cases with a correct option."""
        return case.format == "choice" and any(o.role == "correct" for o in case.options)

    def score(self, case: TestCase, response: Response) -> ScoreValue:
        index, how = parse_choice(response.text, case.options)
        if index is None:
            return ScoreValue(0.0, {"parsed": False, "parsed_by": how})
        role = case.options[index].role
        return ScoreValue(float(role == "correct"), {"parsed": True, "parsed_by": how, "chosen": role})


def _without_instruction(text: str) -> str:
    """The reply without any sentence of the trust-yourself instruction it may repeat.

    The instruction says "If it contradicts what you know ...", which the rule would read as
    the model flagging the context when a reply (or an echoing backend) repeats it.
    """
    from halluforge.families.counterfactual import PROMPTS
    from halluforge.prompts import load_template

    note = load_template("counterfactual/trust_note", PROMPTS).render()
    for sentence in split_sentences(note):
        text = re.sub(re.escape(sentence), " ", text, flags=re.I)
    return text


class ErrorDetection(Scorer):
    """``error_detection``: 1 when the reply says the context is wrong (phrase rule)."""

    name: ClassVar[str] = "error_detection"
    owned: ClassVar[bool] = True

    def applies_to(self, case: TestCase) -> bool:
        """Every case with a context to doubt."""
        return bool(case.context)

    def score(self, case: TestCase, response: Response) -> ScoreValue:
        from halluforge.settings import SETTINGS

        shown = response.setting not in SETTINGS or SETTINGS.get(response.setting).needs_context
        if not shown:
            # a closed-book reply never saw the context, so it cannot flag it
            return ScoreValue(None, reason=f"no context shown under {response.setting}")
        found = _DETECT.search(_without_instruction(response.text))
        return ScoreValue(float(found is not None), {"phrase": found.group()} if found else {})


def _token_spans(tokens: Sequence[str]) -> list[tuple[int, int]]:
    spans, at = [], 0
    for token in tokens:
        spans.append((at, at + len(token)))
        at += len(token)
    return spans


def word_probabilities(
    tokens: Sequence[str], logprobs: Sequence[float], wanted: Sequence[str]
) -> list[float]:
    """Mean probability of the tokens covering each occurrence of a wanted word in the reply."""
    text = "".join(tokens)
    spans = _token_spans(tokens)
    targets = set(wanted)
    out = []
    for word, start, end in word_spans(text):
        if word not in targets:
            continue
        probs = [math.exp(lp) for (s, e), lp in zip(spans, logprobs, strict=False) if s < end and e > start]
        if probs:
            out.append(sum(probs) / len(probs))
    return out


class AnswerConfidence(Scorer):
    """``confidence``: mean token probability of the reply (and of its edited/original words)."""

    name: ClassVar[str] = "confidence"
    owned: ClassVar[bool] = True
    needs_logprobs: ClassVar[bool] = True

    def applies_to(self, case: TestCase) -> bool:
        """Every case of the family."""
        return True

    def score(self, case: TestCase, response: Response) -> ScoreValue:
        if not response.token_logprobs:
            return ScoreValue(None, reason="the backend returned no log-probabilities")
        probs = [math.exp(lp) for lp in response.token_logprobs]
        details: dict[str, Any] = {"tokens": len(probs)}
        if case.format == "generation" and response.tokens:
            kinds: tuple[WordKind, ...] = ("edited", "original")
            for kind in kinds:
                meta = CounterfactualMetadata.of(case)
                wanted = meta.edited_words if kind == "edited" else meta.original_words
                found = word_probabilities(response.tokens, response.token_logprobs, wanted)
                details[f"{kind}_word_prob"] = sum(found) / len(found) if found else None
                details[f"{kind}_word_hits"] = len(found)
        return ScoreValue(sum(probs) / len(probs), details)


def _edited_settings(families: Mapping[str, Any], family: str) -> tuple[str, ...]:
    spec = families.get(family)
    found = spec.options.get("edited_settings") if spec is not None else None
    return tuple(found) if found else DEFAULT_EDITED


class MisleadingRate(Metric):
    """``m_rate``: wrong with the edited context among the cases right with no context (Eq. 1)."""

    name: ClassVar[str] = "m_rate"
    requires: ClassVar[tuple[str, ...]] = ("score:accuracy",)
    higher_is_better: ClassVar[bool] = False

    def derive(self, joined: Joined, families: Mapping[str, Any]) -> list[Score]:
        rows = joined.of_metric("accuracy")
        no_context = {(s.test_case_id, s.model): s for s in rows if s.setting == NO_CONTEXT}
        out = []
        for score in rows:
            spec = families.get(score.family)
            if spec is None or self.name not in spec.metrics:
                continue
            if score.setting not in _edited_settings(families, score.family):
                continue
            before = no_context.get((score.test_case_id, score.model))
            details: dict[str, Any] = {"edited": score.value}
            value: float | None = None
            reason: str | None = None
            if score.value is None:
                reason = "response failed"
            elif before is None or before.value is None:
                reason = "no answer without context"
            elif before.value < 1:
                reason = "wrong without context (not in the denominator)"
            else:
                value = 1.0 - score.value
            inputs = [score.id, before.id if before is not None else ""]
            out.append(
                derived_score(self.name, self.name, score, value, details, inputs=inputs, reason=reason)
            )
        return out


class ReappearanceRate(Metric):
    """``r_rate`` / ``r_rate_norm``: edited words reproduced in free text (Eqs. 2 and 3)."""

    name: ClassVar[str] = "r_rate"
    requires: ClassVar[tuple[str, ...]] = ()
    higher_is_better: ClassVar[bool] = False
    single_output: ClassVar[bool] = False
    NORM: ClassVar[str] = "r_rate_norm"

    @property
    def reading(self) -> str:
        """R1 (original word in the reference, default) or R2 (in the original-context output)."""
        reading = str(self.options.get("reading", "R1")).upper()
        if reading not in ("R1", "R2"):
            from halluforge.errors import ConfigError

            raise ConfigError(f"score.options.r_rate.reading: {reading!r}", hint="use R1 or R2")
        return reading

    def derive(self, joined: Joined, families: Mapping[str, Any]) -> list[Score]:
        reading = self.reading
        responses = [r for r in joined.responses.values() if not r.turn]
        originals = {
            (r.test_case_id, r.model): r for r in responses if r.setting == ORIGINAL and r.error is None
        }
        edited: list[tuple[TestCase, Response]] = []
        for response in responses:
            case = joined.cases.get(response.test_case_id)
            spec = families.get(case.family) if case is not None else None
            if case is None or spec is None or self.name not in spec.metrics or case.format != "generation":
                continue
            if response.setting in _edited_settings(families, case.family):
                edited.append((case, response))
        # r_O per (model, setting) over term cases, for the normalised form
        o_hits: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
        for case, response in edited:
            meta = CounterfactualMetadata.of(case)
            if meta.domain == "term":
                base = self._o_base(case, originals.get((case.id, response.model)), reading)
                if base is not None:
                    tally = o_hits[(response.model, response.setting)]
                    tally[0] += sum(w in base for w in meta.original_words)
                    tally[1] += len(meta.original_words)
        out = []
        for case, response in edited:
            source = _source_score(case, response)
            original = originals.get((case.id, response.model))
            if CounterfactualMetadata.of(case).domain == "term":
                hits, total = o_hits.get((response.model, response.setting), [0, 0])
                out += self._norm_rows(
                    case, response, source, original, reading, hits / total if total else 0.0
                )
            else:
                out += self._pair_rows(case, response, source, original, reading)
        return out

    @staticmethod
    def _o_base(case: TestCase, original: Response | None, reading: str) -> set[str] | None:
        if reading == "R1":
            return set(words(case.reference or ""))
        return set(words(original.text)) if original is not None else None

    def _pair_rows(
        self, case: TestCase, response: Response, source: Score, original: Response | None, reading: str
    ) -> list[Score]:
        pe = set(words(response.text)) if response.error is None else set()
        ref = set(words(case.reference or ""))
        po = set(words(original.text)) if original is not None else None
        rows = []
        for j, (o, e) in enumerate(CounterfactualMetadata.of(case).word_pairs):
            bits: dict[str, Any] = {
                "orig": o,
                "edit": e,
                "e_in_pe": e in pe,
                "o_in_pe": o in pe,
                "o_in_ref": o in ref,
            }
            bits["o_in_po"] = (o in po) if po is not None else None
            denominator = bits["o_in_ref"] if reading == "R1" else bits["o_in_po"]
            value: float | None = None
            reason: str | None = None
            if response.error is not None:
                reason = "response failed"
            elif denominator is None:
                reason = "no response under the original context (R2)"
            elif not denominator:
                where = "reference" if reading == "R1" else "original-context output"
                reason = f"original word not in the {where}"
            else:
                value = float(bits["e_in_pe"])
            row = source.model_copy(update={"item": f"pair:{j}"})
            rows.append(
                derived_score(
                    self.name,
                    self.name,
                    row,
                    value,
                    {**bits, "reading": reading},
                    inputs=[response.id, reading],
                    reason=reason,
                )
            )
        return rows

    def _norm_rows(
        self,
        case: TestCase,
        response: Response,
        source: Score,
        original: Response | None,
        reading: str,
        rate_o: float,
    ) -> list[Score]:
        pe = set(words(response.text)) if response.error is None else set()
        rows = []
        for j, e in enumerate(CounterfactualMetadata.of(case).edited_words):
            details: dict[str, Any] = {"edit": e, "e_in_pe": e in pe, "rate_o": rate_o, "reading": reading}
            value: float | None = None
            reason: str | None = None
            if response.error is not None:
                reason = "response failed"
            elif rate_o <= 0:
                reason = "no original word occurs in the references (r_O = 0)"
            else:
                value = float(e in pe) / rate_o
            row = source.model_copy(update={"item": f"edit:{j}"})
            inputs = [response.id, reading, f"{rate_o:.6f}"]
            rows.append(
                derived_score(self.name, self.NORM, row, value, details, inputs=inputs, reason=reason)
            )
        return rows


def _source_score(case: TestCase, response: Response) -> Score:
    """A placeholder row tying derived rows to the response (R-Rate reads responses, not scores)."""
    return Score(
        id="",
        response_id=response.id,
        test_case_id=case.id,
        model=response.model,
        setting=response.setting,
        family=case.family,
        metric="r_rate",
        value=None,
    )


__all__ = [
    "AnswerConfidence",
    "ChoiceAccuracy",
    "ErrorDetection",
    "MisleadingRate",
    "ReappearanceRate",
    "WordKind",
    "parse_choice",
    "was_parsed",
    "word_prob",
    "word_probabilities",
]
