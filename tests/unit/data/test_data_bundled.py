"""The bundled sample and demos: size, shape and the properties the forge relies on."""

from __future__ import annotations

from collections import Counter

from halluforge.config import DataSource, FilterConfig
from halluforge.data import LOADERS
from halluforge.data.bundled import load_bundled, load_demos
from halluforge.data.filters import apply_filters

ANSWER_TYPES = {"person", "place", "date", "number", "other"}


def _sample() -> list:
    return list(load_bundled(DataSource()))


def test_sample_is_large_enough_with_unique_ids_and_questions() -> None:
    sample = _sample()
    assert len(sample) >= 100
    assert len({e.id for e in sample}) == len(sample)
    assert len({e.question for e in sample}) == len(sample)
    assert all(e.id.startswith("hf-sample-") for e in sample)


def test_evidence_length_and_answer_in_evidence() -> None:
    for example in _sample():
        assert example.evidence is not None
        words = len(example.evidence.split())
        assert 40 <= words <= 150, (example.id, words)
        assert example.answers[0] in example.evidence, example.id
        assert all(len(a.split()) <= 5 for a in example.answers), example.id


def test_questions_are_natural_questions_style() -> None:
    for example in _sample():
        assert example.question == example.question.lower(), example.id
        assert not example.question.rstrip().endswith("?"), example.id


def test_answer_types_are_varied() -> None:
    counts = Counter(e.metadata["answer_type"] for e in _sample())
    assert set(counts) <= ANSWER_TYPES
    assert sum(1 for n in counts.values() if n >= 12) >= 4, counts


def test_answers_sit_at_varied_positions_in_the_evidence() -> None:
    thirds: Counter[int] = Counter()
    for example in _sample():
        assert example.evidence is not None
        thirds[min(2, 3 * example.evidence.index(example.answers[0]) // len(example.evidence))] += 1
    assert all(thirds[i] >= 15 for i in range(3)), thirds


def test_limit_and_registry_entry() -> None:
    loader = LOADERS.get("bundled")
    assert [e.id for e in loader(DataSource(limit=5))] == [f"hf-sample-00{i}" for i in range(1, 6)]


def test_the_sample_passes_the_papers_filters_untouched() -> None:
    sample = _sample()
    kept, skips = apply_filters(sample, FilterConfig())
    assert skips == []
    assert [e.answers for e in kept] == [e.answers for e in sample]


def test_demos_do_not_overlap_the_sample() -> None:
    demos = load_demos()
    assert len(demos) == 8
    assert not {d.question for d in demos} & {e.question for e in _sample()}
    for demo in demos:
        assert demo.evidence is not None and demo.answers[0] in demo.evidence
