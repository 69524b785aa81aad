"""Records that cross stage boundaries: load → select → forge → answer → score.

Each record has a deterministic ``id`` computed from the inputs that define it (see
:func:`stable_id`), so writing the same record twice is a no-op in the run store and an
interrupted run resumes without duplicates. Names follow the glossary in ``docs/design.md``:
example, seed case, test case, setting, response, score. A backend's raw output for one
request is a :class:`Completion`; a :class:`Response` is a completion tied to a test case,
a model and a setting.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


def _encode(part: Any) -> str:
    if isinstance(part, str) and part.isascii() and part.isalnum():
        return f'"{part}"'  # what json.dumps writes for a plain word or hex id, without its overhead
    return json.dumps(part, sort_keys=True, ensure_ascii=False, default=str)


def stable_id(*parts: Any, length: int = 16) -> str:
    """Hash JSON-serialisable parts into a short hex id that is stable across runs."""
    return hashlib.sha256(_encode(parts).encode("utf-8")).hexdigest()[:length]


def id_maker(*head: Any, tail: tuple[Any, ...] = (), length: int = 16) -> Callable[..., str]:
    """A fast :func:`stable_id` for many ids that share leading (``head``) and trailing parts.

    ``id_maker("score", tail=(identity,))(response_id)`` equals
    ``stable_id("score", response_id, identity)``, but the shared parts are encoded once
    instead of once per id (scoring a 10,000-response run makes 40,000 such ids). It relies on
    :func:`json.dumps` writing a list as its items' encodings joined by ``", "``.
    """
    prefix = "[" + "".join(_encode(p) + ", " for p in head)
    suffix = "".join(", " + _encode(p) for p in tail) + "]"

    def make(*middle: Any) -> str:
        if not middle:
            return stable_id(*head, *tail, length=length)
        blob = prefix + ", ".join(_encode(p) for p in middle) + suffix
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:length]

    return make


class Record(BaseModel):
    """Base for stored records: strict about unknown fields, JSON round-trippable."""

    model_config = ConfigDict(extra="forbid")


class Example(Record):
    """One source item as loaded: a question with gold answers and, optionally, evidence."""

    id: str
    question: str
    answers: list[str] = Field(description="gold answer and its aliases; first is canonical")
    evidence: str | None = None
    title: str | None = None
    source: str = Field(default="", description="dataset name or file it came from")
    metadata: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def build(
        cls,
        question: str,
        answers: list[str],
        evidence: str | None = None,
        *,
        source: str = "",
        title: str | None = None,
        metadata: dict[str, Any] | None = None,
        id: str | None = None,
    ) -> Example:
        """Create an example whose id hashes (source, question, answers, evidence) unless given."""
        ex_id = id or stable_id("example", source, question, answers, evidence)
        return cls(
            id=ex_id,
            question=question,
            answers=answers,
            evidence=evidence,
            title=title,
            source=source,
            metadata=metadata or {},
        )


SeedBucket = Literal[
    "closed_right_open_right",
    "closed_right_open_wrong",
    "closed_wrong_open_right",
    "closed_wrong_open_wrong",
]


class SeedCase(Record):
    """An example with the generator model's zero-shot status (AutoDebug Table 1 buckets)."""

    id: str
    example: Example
    generator_model: str
    closed_book_answer: str | None = None
    open_book_answer: str | None = None
    closed_book_correct: bool | None = None
    open_book_correct: bool | None = None
    error: str | None = None

    @property
    def bucket(self) -> SeedBucket | None:
        """The status bucket, or None when either answer is missing."""
        if self.closed_book_correct is None or self.open_book_correct is None:
            return None
        closed = "right" if self.closed_book_correct else "wrong"
        opened = "right" if self.open_book_correct else "wrong"
        return f"closed_{closed}_open_{opened}"  # type: ignore[return-value]


FieldPath = Literal["llm", "fallback", "source", "rule"]


class FieldProvenance(Record):
    """How one field of a test case was produced."""

    path: FieldPath
    method: str = Field(default="", description="which prompt or fallback rule, e.g. 'span_replace'")
    attempts: int = 0
    rejected: list[str] = Field(default_factory=list, description="reasons LLM outputs were rejected")


class Provenance(Record):
    """Where a test case came from: generator model, templates, and per-field paths."""

    generator_model: str | None = None
    template_hashes: dict[str, str] = Field(default_factory=dict)
    fields: dict[str, FieldProvenance] = Field(default_factory=dict)

    @property
    def used_llm_only(self) -> bool:
        """True when the LLM produced at least one field and every other field is from the source."""
        paths = [f.path for f in self.fields.values()]
        return "llm" in paths and all(p in ("llm", "source") for p in paths)


TestCaseFormat = Literal["qa", "choice", "generation"]
OptionRole = Literal["correct", "counterfactual", "distractor", "unknown"]


class Option(Record):
    """One answer option of a ``choice`` test case, with what choosing it means.

    ``role`` says how a response that picks this option is read: ``correct`` (the true
    answer), ``counterfactual`` (the answer an edited context pushes, RECALL's "mistake"),
    ``distractor`` or ``unknown``. Rendering letters the options in their stored order.
    """

    text: str
    role: OptionRole = "unknown"


EditKind = Literal["answer", "entity", "date", "fact", "other"]


class Edit(Record):
    """One change a family made to a text: ``old`` became ``new`` in ``field``.

    ``kind`` says what was changed: the ``answer`` (answer swapping), an ``entity`` (a false
    premise), a ``date``, another ``fact`` (RECALL's non-answer edits).
    ``start``/``end`` are character offsets of the first occurrence of ``new`` in the edited
    field, when it occurs, so a report can highlight it and a judge can read what was changed
    without re-parsing the text.
    """

    field: Literal["context", "question", "reference"] = "context"
    kind: EditKind = "other"
    old: str
    new: str
    start: int | None = None
    end: int | None = None

    @classmethod
    def locate(
        cls, field: Literal["context", "question", "reference"], kind: EditKind, old: str, new: str, text: str
    ) -> Edit:
        """An edit whose span is the first occurrence of ``new`` in ``text`` (none when absent)."""
        start = text.find(new) if new else -1
        if start < 0:
            return cls(field=field, kind=kind, old=old, new=new)
        return cls(field=field, kind=kind, old=old, new=new, start=start, end=start + len(new))


class Claim(Record):
    """One statement a correct answer must satisfy (ABCD's decomposed claims)."""

    id: str
    text: str
    provenance: FieldProvenance | None = None


class TestCase(Record):
    """One forged item, ready to be put to target models.

    ``format`` says what kind of reply is expected: ``qa`` (a short answer), ``choice`` (one
    of ``options``, lettered when rendered) or ``generation`` (free text written from a
    record or passage, compared with ``reference``). ``metadata`` holds the family's own
    fields; its family spec declares a pydantic model for them.
    """

    __test__ = False  # keep pytest from collecting this class

    id: str
    family: str
    question: str
    context: str | None = None
    expected: list[str] = Field(default_factory=list, description="answers a faithful model gives")
    original_answers: list[str] = Field(default_factory=list, description="gold before perturbation")
    original_context: str | None = None
    reference: str | None = Field(default=None, description="reference text (e.g. premise rejection)")
    format: TestCaseFormat = "qa"
    options: list[Option] = Field(default_factory=list)
    edits: list[Edit] = Field(default_factory=list, description="what the family changed, with spans")
    claims: list[Claim] = Field(default_factory=list)
    parent_seed: str | None = None
    parent_example: str | None = None
    variant: str | None = Field(default=None, description="sub-kind within a family, if any")
    provenance: Provenance = Field(default_factory=Provenance)
    checks: dict[str, bool] = Field(default_factory=dict)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @property
    def valid(self) -> bool:
        """A test case is valid when every recorded check passed."""
        return all(self.checks.values())


class Message(Record):
    """One chat message."""

    role: Literal["system", "user", "assistant"]
    content: str


class Request(Record):
    """One call to a backend: messages plus the options that change the output."""

    id: str = ""
    messages: list[Message]
    max_tokens: int = 64
    temperature: float = 0.0
    top_p: float = 1.0
    seed: int = 0
    stop: list[str] = Field(default_factory=list)
    logprobs: bool = False
    #: a decoding method other than the backend's usual one (``"dola"``); None for the usual
    decoding: str | None = None

    def output_key(self) -> dict[str, Any]:
        """The fields that change a model's output (used by the cache key).

        ``decoding`` joins the key only when set, so the keys of ordinary requests (and the
        responses already cached under them) stay as they were.
        """
        return self.model_dump(exclude={"id"} if self.decoding else {"id", "decoding"})


class Usage(Record):
    """Token counts reported by the backend, when it reports them."""

    prompt_tokens: int = 0
    completion_tokens: int = 0


class Completion(Record):
    """A backend's raw output for one request."""

    request_id: str = ""
    text: str = ""
    tokens: list[str] | None = None
    token_logprobs: list[float] | None = None
    usage: Usage = Field(default_factory=Usage)
    latency_s: float = 0.0
    finish_reason: str | None = None
    error: str | None = None
    error_type: str | None = None
    retry_after_s: float | None = None  # the wait a rate-limited or busy server asked for
    cached: bool = False

    @property
    def ok(self) -> bool:
        """True when the call produced an output rather than an error."""
        return self.error is None


class Response(Record):
    """One model's answer to one test case under one setting.

    ``messages`` is the whole conversation the model saw, ending with its own reply
    (``text``). A setting's answer plan can have several turns: a later turn's response names
    the response it continues in ``parent_id`` and its turn in ``turn`` (empty for the first).
    ``tokens`` and ``token_logprobs`` are filled when the request asked for log-probabilities
    and the backend returns them.
    """

    id: str
    test_case_id: str
    model: str
    setting: str
    turn: str = ""
    parent_id: str | None = None
    messages: list[Message] = Field(default_factory=list)
    text: str = ""
    tokens: list[str] | None = None
    token_logprobs: list[float] | None = None
    usage: Usage = Field(default_factory=Usage)
    latency_s: float = 0.0
    error: str | None = None
    cached: bool = False

    @model_validator(mode="before")
    @classmethod
    def _legacy_prompt(cls, data: Any) -> Any:
        """Rows written before responses kept messages stored only the prompt: rebuild them."""
        if isinstance(data, dict) and "prompt" in data:
            data = dict(data)
            prompt = data.pop("prompt")
            if not data.get("messages"):
                data["messages"] = [{"role": "user", "content": prompt}]
                if data.get("error") is None:
                    data["messages"].append({"role": "assistant", "content": data.get("text", "")})
        return data

    @property
    def prompt(self) -> str:
        """The last message the model was given (the prompt of this turn)."""
        asked = [m.content for m in self.messages if m.role != "assistant"]
        return asked[-1] if asked else ""


#: the keys of :attr:`Score.details` the core reads, behind :attr:`Score.reason` and
#: :attr:`Score.derived_by` (stored in ``details`` so runs made before still read the same)
REASON_KEY, DERIVED_KEY = "reason", "derived"


class Score(Record):
    """One metric's value for one response, or for one item of it (``item``, e.g. a claim id).

    Scores of derived metrics (computed over joined rows, such as normalized entailment or the
    both-variants rule) are stored like any other; their ``details`` name the rows they read,
    and :attr:`derived_by` the metric that made them. :attr:`reason` says why a value is
    missing (or, for a value given by a rule such as "no answer counts as false", why it is
    that value). ``details`` holds each metric's own extra figures.
    """

    id: str
    response_id: str
    test_case_id: str
    model: str
    setting: str
    family: str
    metric: str
    item: str | None = None
    value: float | None = Field(description="None when the metric could not be computed")
    details: dict[str, Any] = Field(default_factory=dict)

    @property
    def reason(self) -> str | None:
        """Why the value is missing (or what rule gave it), if the scorer said."""
        found = self.details.get(REASON_KEY)
        return None if found is None else str(found)

    @property
    def derived_by(self) -> str | None:
        """The derived metric that made this row, or None for a scorer's row."""
        found = self.details.get(DERIVED_KEY)
        return None if found is None else str(found)

    @staticmethod
    def details_with(
        details: dict[str, Any], *, reason: str | None = None, derived_by: str | None = None
    ) -> dict[str, Any]:
        """``details`` with the reason and the deriving metric filed under their keys."""
        out = {k: v for k, v in details.items() if k not in (REASON_KEY, DERIVED_KEY)}
        if reason is not None:
            out[REASON_KEY] = reason
        if derived_by is not None:
            out[DERIVED_KEY] = derived_by
        return out


AnnotationTarget = Literal["response", "test_case"]
AnnotationLabel = Literal["hallucinated", "faithful", "valid", "invalid", "unsure"]
#: the labels a person may give each kind of target
LABELS: dict[str, tuple[str, ...]] = {
    "response": ("hallucinated", "faithful", "unsure"),
    "test_case": ("valid", "invalid", "unsure"),
}


class Annotation(Record):
    """A person's label of a response (hallucinated / faithful) or a forged test case (valid / invalid).

    Annotations are appended, never overwritten: the newest one per (target, annotator) is the
    label in force, so a change of mind keeps its history. ``who`` and ``when`` (UTC, ISO 8601)
    say who gave it; the id hashes everything, so the same label sent twice is stored once.
    """

    id: str
    target: AnnotationTarget
    target_id: str
    test_case_id: str
    label: AnnotationLabel
    note: str = ""
    who: str
    when: str

    @model_validator(mode="after")
    def _label_fits_target(self) -> Annotation:
        if self.label not in LABELS[self.target]:
            allowed = ", ".join(LABELS[self.target])
            raise ValueError(f"a {self.target} label is one of {allowed}, got {self.label!r}")
        return self

    @classmethod
    def build(
        cls,
        target: AnnotationTarget,
        target_id: str,
        test_case_id: str,
        label: str,
        *,
        who: str,
        when: str,
        note: str = "",
    ) -> Annotation:
        """An annotation whose id hashes all its fields."""
        return cls.model_validate(
            {
                "id": stable_id("annotation", target, target_id, label, note, who, when),
                "target": target,
                "target_id": target_id,
                "test_case_id": test_case_id,
                "label": label,
                "note": note,
                "who": who,
                "when": when,
            }
        )


class Skip(Record):
    """An input item that was not used, with the reason: nothing is dropped silently."""

    id: str
    stage: str
    reason: str
    item: str = Field(default="", description="what was skipped: an id, a file:line, a question")


__all__ = [
    "DERIVED_KEY",
    "LABELS",
    "REASON_KEY",
    "Annotation",
    "AnnotationLabel",
    "AnnotationTarget",
    "Claim",
    "Completion",
    "Edit",
    "EditKind",
    "Example",
    "FieldPath",
    "FieldProvenance",
    "Message",
    "Option",
    "OptionRole",
    "Provenance",
    "Record",
    "Request",
    "Response",
    "Score",
    "SeedBucket",
    "SeedCase",
    "Skip",
    "TestCase",
    "TestCaseFormat",
    "Usage",
    "id_maker",
    "stable_id",
]
