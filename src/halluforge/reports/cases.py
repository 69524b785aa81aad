"""The per-case record the drill-down shows: a test case with its responses, scores and labels.

One plain dict per test case (``case_payload``) feeds the HTML report's case browser, the
viewer's case pages and its annotation form, so both show the same thing: the question, the
original and the forged context with the family's edits (and their spans), the expected
answers, the provenance of each generated field (LLM or which rule fallback, with the reasons
LLM proposals were rejected), the validity checks, every model's response per setting with
its whole conversation, each score with its reason, and the human labels in force.

The report embeds at most ``max_cases`` test cases: past that, :func:`sample_cases` keeps a
deterministic sample that represents every family, and the report says so.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from halluforge.metrics.joined import latest_scores
from halluforge.records import Annotation, Response, Score, TestCase

#: test cases the HTML report embeds by default; the viewer pages through all of them
MAX_CASES = 1000


def latest_labels(annotations: Iterable[Annotation]) -> dict[tuple[str, str], Annotation]:
    """The label in force per (target, target id): the newest by time, then by storage order."""
    latest: dict[tuple[str, str], Annotation] = {}
    for note in annotations:
        key = (note.target, note.target_id)
        if key not in latest or note.when >= latest[key].when:
            latest[key] = note
    return latest


def _label(note: Annotation) -> dict[str, Any]:
    return {"label": note.label, "note": note.note, "who": note.who, "when": note.when}


def _score(score: Score) -> dict[str, Any]:
    return {"metric": score.metric, "item": score.item, "value": score.value, "reason": score.reason}


def case_payload(
    case: TestCase,
    responses: Sequence[Response],
    scores: Sequence[Score],
    labels: Mapping[tuple[str, str], Annotation] | None = None,
) -> dict[str, Any]:
    """One test case with its responses, their latest scores and the labels in force."""
    labels = labels or {}
    by_response: dict[str, list[Score]] = defaultdict(list)
    for score in latest_scores(scores):
        by_response[score.response_id].append(score)
    out = case.model_dump(
        mode="json",
        include={
            "id",
            "family",
            "variant",
            "question",
            "context",
            "original_context",
            "expected",
            "original_answers",
            "reference",
            "format",
            "options",
            "edits",
            "claims",
            "checks",
            "metadata",
            "provenance",
        },
    )
    out["valid"] = case.valid
    case_label = labels.get(("test_case", case.id))
    out["label"] = _label(case_label) if case_label else None
    out["responses"] = [
        {
            "id": r.id,
            "model": r.model,
            "setting": r.setting,
            "turn": r.turn,
            "text": r.text,
            "error": r.error,
            "messages": [m.model_dump() for m in r.messages],
            "latency_s": round(r.latency_s, 3),
            "cached": r.cached,
            "scores": [_score(s) for s in by_response.get(r.id, [])],
            "label": _label(labels[("response", r.id)]) if ("response", r.id) in labels else None,
        }
        for r in responses
    ]
    return out


def sample_cases(cases: Sequence[TestCase], max_cases: int) -> list[TestCase]:
    """At most ``max_cases`` cases: all of them, or the first of each family in turn (by id).

    Ids are hashes, so sorting by id is a deterministic shuffle; taking families in turn keeps
    a small family visible next to a large one.
    """
    if len(cases) <= max_cases:
        return list(cases)
    by_family: dict[str, list[TestCase]] = defaultdict(list)
    for case in sorted(cases, key=lambda c: c.id):
        by_family[case.family].append(case)
    chosen: list[TestCase] = []
    queues = [list(reversed(v)) for _, v in sorted(by_family.items())]
    while len(chosen) < max_cases:
        for queue in queues:
            if queue and len(chosen) < max_cases:
                chosen.append(queue.pop())
    keep = {c.id for c in chosen}
    return [c for c in cases if c.id in keep]


def facets(payloads: Iterable[Mapping[str, Any]]) -> dict[str, list[str]]:
    """The filter choices of a set of case payloads: families, models, settings, metrics, paths."""
    found: dict[str, set[str]] = defaultdict(set)
    for case in payloads:
        found["families"].add(case["family"])
        for prov in case["provenance"]["fields"].values():
            found["paths"].add(prov["path"])
        for response in case["responses"]:
            found["models"].add(response["model"])
            found["settings"].add(response["setting"])
            found["metrics"].update(s["metric"] for s in response["scores"])
    return {k: sorted(found[k]) for k in ("families", "models", "settings", "metrics", "paths")}


def report_cases(
    cases: Sequence[TestCase],
    responses: Iterable[Response],
    scores: Iterable[Score],
    annotations: Iterable[Annotation] = (),
    *,
    max_cases: int = MAX_CASES,
) -> dict[str, Any]:
    """The case browser's data: the (sampled) case payloads, their facets and what was left out."""
    chosen = sample_cases(cases, max_cases)
    keep = {c.id for c in chosen}
    mine: dict[str, list[Response]] = defaultdict(list)
    for response in responses:
        if response.test_case_id in keep:
            mine[response.test_case_id].append(response)
    their_scores: dict[str, list[Score]] = defaultdict(list)
    for score in scores:
        if score.test_case_id in keep:
            their_scores[score.test_case_id].append(score)
    labels = latest_labels(annotations)
    payloads = [case_payload(c, mine[c.id], their_scores[c.id], labels) for c in chosen]
    return {
        "total": len(cases),
        "shown": len(payloads),
        "sampled": len(payloads) < len(cases),
        "facets": facets(payloads),
        "cases": payloads,
    }


__all__ = ["MAX_CASES", "case_payload", "facets", "latest_labels", "report_cases", "sample_cases"]
