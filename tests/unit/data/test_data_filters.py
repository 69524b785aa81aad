"""The ReEval §4.1 filters: each step, each reason counted, deterministic choices."""

from __future__ import annotations

from halluforge.config import FilterConfig
from halluforge.data.filters import (
    apply_filters,
    count_reasons,
    overlapping_core,
)
from halluforge.records import Example

LONG = "This passage is long enough to pass the evidence length check of ten words."


def ex(question: str, answers: list[str], evidence: str | None = LONG, **metadata: object) -> Example:
    return Example.build(question, answers, evidence, source="t", metadata=dict(metadata))


def test_html_is_stripped_from_kept_evidence() -> None:
    evidence = 'Netflix said the <a href="u">hit show</a> returns for a second season next year, as expected.'
    kept, skips = apply_filters([ex("q", ["hit show"], evidence)], FilterConfig())
    assert skips == []
    assert kept[0].evidence == "Netflix said the hit show returns for a second season next year, as expected."


def test_each_reason_is_counted() -> None:
    examples = [
        ex("q1", ["Paris"]),
        ex("q1", ["Paris"]),  # duplicate
        ex("q2", ["Rome"], None),  # no evidence
        ex("q3", ["Oslo"], "far too short"),  # evidence too short
        ex("q4", ["a very long answer of many words"]),  # too long
        ex("q5", ["Paris", "London"]),  # two different answers
        ex("q6", ["1871", "1871 A.D."]),  # overlapping: kept
    ]
    kept, skips = apply_filters(examples, FilterConfig())
    assert [e.question for e in kept] == ["q1", "q6"]
    assert count_reasons(skips) == {
        "duplicate": 1,
        "no_evidence": 1,
        "evidence_too_short": 1,
        "answer_too_long": 1,
        "non_overlapping_answers": 1,
    }
    assert {s.stage for s in skips} == {"load"}
    assert skips[0].item == examples[1].id
    assert len({s.id for s in skips}) == len(skips)


def test_duplicates_are_compared_after_html_stripping_and_case_folding() -> None:
    a = ex(
        "Who wrote it",
        ["Austen"],
        "Jane <b>Austen</b> wrote the novel in the early nineteenth century in England.",
    )
    b = ex(
        "who wrote it", ["austen"], "Jane Austen wrote the novel in the early nineteenth century in England."
    )
    kept, skips = apply_filters([a, b], FilterConfig())
    assert len(kept) == 1 and [s.reason for s in skips] == ["duplicate"]
    kept, skips = apply_filters([a, b], FilterConfig(dedupe=False))
    assert len(kept) == 2 and skips == []


def test_long_aliases_are_dropped_but_the_example_stays() -> None:
    kept, skips = apply_filters([ex("q", ["the United Kingdom of Great Britain", "UK"])], FilterConfig())
    assert skips == []
    assert kept[0].answers == ["UK"]
    assert kept[0].metadata["answers_before_filter"] == ["the United Kingdom of Great Britain", "UK"]


def test_overlapping_answers_keep_the_shortest() -> None:
    assert overlapping_core(["1871 A.D.", "1871", "in 1871"]) == "1871"
    assert overlapping_core(["Jane Austen", "Austen"]) == "Austen"
    assert overlapping_core(["Paris", "London"]) is None
    # word runs, not substrings: "art" is not inside "party"
    assert overlapping_core(["party", "art"]) is None
    kept, _ = apply_filters([ex("q", ["1871 A.D.", "1871"])], FilterConfig())
    assert kept[0].answers == ["1871"]


def test_keep_all_and_aliases_disable_the_overlap_rule() -> None:
    kept, skips = apply_filters([ex("q", ["Paris", "London"])], FilterConfig(overlapping_answers="keep_all"))
    assert skips == [] and kept[0].answers == ["Paris", "London"]
    kept, skips = apply_filters(
        [ex("q", ["George Orwell", "Eric Blair"], answers_are_aliases=True)], FilterConfig()
    )
    assert skips == [] and kept[0].answers == ["George Orwell", "Eric Blair"]


def test_thresholds_are_configurable_and_can_be_disabled() -> None:
    short = ex("q", ["Oslo"], "only five words in here")
    kept, skips = apply_filters([short], FilterConfig(min_evidence_words=5))
    assert len(kept) == 1
    kept, skips = apply_filters([short], FilterConfig(min_evidence_words=None))
    assert len(kept) == 1
    kept, skips = apply_filters(
        [ex("q", ["six words in this long answer"])], FilterConfig(max_answer_words=None)
    )
    assert len(kept) == 1
    kept, skips = apply_filters([ex("q", ["Rome"], None)], FilterConfig(require_evidence=False))
    assert len(kept) == 1 and skips == []
