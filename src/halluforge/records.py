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
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


def stable_id(*parts: Any, length: int = 16) -> str:
    """Hash JSON-serialisable parts into a short hex id that is stable across runs."""
    blob = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:length]


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


class TestCase(Record):
    """One forged item, ready to be put to target models."""

    __test__ = False  # keep pytest from collecting this class

    id: str
    family: str
    question: str
    context: str | None = None
    expected: list[str] = Field(default_factory=list, description="answers a faithful model gives")
    original_answers: list[str] = Field(default_factory=list, description="gold before perturbation")
    original_context: str | None = None
    reference: str | None = Field(default=None, description="reference text (e.g. premise rejection)")
    options: list[str] = Field(default_factory=list)
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

    def output_key(self) -> dict[str, Any]:
        """The fields that change a model's output (used by the cache key)."""
        return self.model_dump(exclude={"id"})


class Usage(Record):
    """Token counts reported by the backend, when it reports them."""

    prompt_tokens: int = 0
    completion_tokens: int = 0


class Completion(Record):
    """A backend's raw output for one request."""

    request_id: str = ""
    text: str = ""
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
    """One model's answer to one test case under one setting."""

    id: str
    test_case_id: str
    model: str
    setting: str
    prompt: str = ""
    text: str = ""
    token_logprobs: list[float] | None = None
    usage: Usage = Field(default_factory=Usage)
    latency_s: float = 0.0
    error: str | None = None
    cached: bool = False


class Score(Record):
    """One metric's value for one response."""

    id: str
    response_id: str
    test_case_id: str
    model: str
    setting: str
    family: str
    metric: str
    value: float | None = Field(description="None when the metric could not be computed")
    details: dict[str, Any] = Field(default_factory=dict)


class Skip(Record):
    """An input item that was not used, with the reason: nothing is dropped silently."""

    id: str
    stage: str
    reason: str
    item: str = Field(default="", description="what was skipped: an id, a file:line, a question")


__all__ = [
    "Completion",
    "Example",
    "FieldPath",
    "FieldProvenance",
    "Message",
    "Provenance",
    "Record",
    "Request",
    "Response",
    "Score",
    "SeedBucket",
    "SeedCase",
    "Skip",
    "TestCase",
    "Usage",
    "stable_id",
]
