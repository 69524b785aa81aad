"""The false_premise generator: the no-existing-fact guarantee, determinism, type checks, slots."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from extra_skips import needs
from halluforge.errors import ConfigError
from halluforge.families.invite.false_premise import FalsePremise
from halluforge.families.invite.kb import iter_triples
from halluforge.family import FAMILIES
from halluforge.forge.base import ForgeContext
from halluforge.records import Skip, TestCase

R = "http://dbpedia.org/resource/"
DBO = "http://dbpedia.org/ontology/"


@pytest.fixture(params=["tsv", pytest.param("nt", marks=needs("kb"))])
def kb_format(request: pytest.FixtureRequest) -> str:
    """The random KB as TSV (read in a core install) and as N-Triples (read with the kb extra)."""
    return str(request.param)


def _random_kb(folder: Path, seed: int, fmt: str = "nt", n_facts: int = 300) -> Path:
    """A small random KB over three predicates, dense enough that many swaps hit real facts."""
    rng = random.Random(seed)
    persons = [f"Person_{i}" for i in range(25)]
    things = [f"Work_{i}" for i in range(20)]
    places = [f"Town_{i}" for i in range(8)]
    lines = []
    for _ in range(n_facts):
        kind = rng.randrange(3)
        if kind == 0:
            s, p, o = rng.choice(persons), "spouse", rng.choice(persons)
        elif kind == 1:
            s, p, o = rng.choice(things), "director", rng.choice(persons)
        else:
            s, p, o = rng.choice(persons), "birthPlace", rng.choice(places)
        lines.append(f"<{R}{s}> <{DBO}{p}> <{R}{o}> ." if fmt == "nt" else f"{R}{s}\t{DBO}{p}\t{R}{o}")
    path = folder / f"kb.{fmt}"
    path.write_text("\n".join(lines) + "\n")
    (folder / "persons.txt").write_text("\n".join(persons) + "\n")
    (folder / "places.txt").write_text("\n".join(places) + "\n")
    return path


def _generator(folder: Path, fmt: str = "nt", **options: object) -> FalsePremise:
    raw = {
        "kb": str(folder / f"kb.{fmt}"),
        "types": {"person": str(folder / "persons.txt"), "place": str(folder / "places.txt")},
        "predicates": ["spouse", "director", "birthPlace"],
        "per_predicate": 15,
        **options,
    }
    generator = FalsePremise.from_config(raw)
    assert isinstance(generator, FalsePremise)
    return generator


@pytest.mark.parametrize("kb_seed", range(6))
@pytest.mark.parametrize("swap", ["template", "subject", "object", "both"])
def test_no_generated_fact_is_in_the_kb(tmp_path: Path, kb_seed: int, swap: str, kb_format: str) -> None:
    path = _random_kb(tmp_path, kb_seed, kb_format)
    facts = {(t.subject, t.predicate.rsplit("/", 1)[-1], t.object) for t in iter_triples(path)}
    made = [
        c
        for c in _generator(tmp_path, kb_format, swap=swap).generate(seed=kb_seed)
        if isinstance(c, TestCase)
    ]
    assert len(made) >= 20
    for case in made:
        meta = case.metadata
        new_fact = (meta["original_subject"], meta["predicate"], meta["original_object"])
        side = meta["swapped_side"]
        new_fact = (
            (meta["swapped_entity"], new_fact[1], new_fact[2])
            if side == "subject"
            else (new_fact[0], new_fact[1], meta["swapped_entity"])
        )
        assert new_fact not in facts
        assert (meta["original_subject"], meta["predicate"], meta["original_object"]) in facts
        assert meta["swapped_entity"] not in (meta["original_subject"], meta["original_object"])
        assert case.valid and case.checks["fact_absent"]
        assert meta["swapped_entity"] in case.question and meta["swapped_entity"] in (case.reference or "")


def test_same_seed_same_output_and_other_seed_differs(tmp_path: Path, kb_format: str) -> None:
    _random_kb(tmp_path, 1, kb_format)
    first = list(_generator(tmp_path, kb_format).generate(seed=3))
    again = list(_generator(tmp_path, kb_format).generate(seed=3))
    other = list(_generator(tmp_path, kb_format).generate(seed=4))
    assert first == again
    assert [c.id for c in first] != [c.id for c in other]


def test_pipeline_path_matches_generate_in_any_order(tmp_path: Path, kb_format: str) -> None:
    _random_kb(tmp_path, 2, kb_format)
    generator = _generator(tmp_path, kb_format)
    ctx = ForgeContext(llm=None, seed=5)
    slots = generator.inputs(ctx)
    assert len({generator.input_id(s) for s in slots}) == len(slots)

    async def forge_reversed() -> list[TestCase | Skip]:
        out: list[TestCase | Skip] = []
        for slot in reversed(slots):
            out.extend(await generator.forge_one(slot, ctx))
        return out

    reversed_cases = asyncio.run(forge_reversed())
    assert list(reversed(reversed_cases)) == list(_generator(tmp_path, kb_format).generate(seed=5))


def test_type_checks_keep_persons_and_places_apart(tmp_path: Path, kb_format: str) -> None:
    _random_kb(tmp_path, 3, kb_format)
    persons = set((tmp_path / "persons.txt").read_text().replace("_", " ").split("\n")) - {""}
    places = set((tmp_path / "places.txt").read_text().replace("_", " ").split("\n")) - {""}
    for case in _generator(tmp_path, kb_format).generate(seed=0):
        assert isinstance(case, TestCase)
        meta = case.metadata
        if meta["predicate"] == "birthPlace":  # subject swapped, must be a person
            assert meta["swapped_entity"] in persons and meta["original_object"] in places
        if meta["predicate"] == "director":  # object swapped, must be a person
            assert meta["swapped_side"] == "object" and meta["swapped_entity"] in persons
        assert case.checks.get("same_type") is True


@needs("kb")
def test_type_check_excludes_entities_of_the_wrong_type(tmp_path: Path) -> None:
    lines = [f"<{R}Work_{i}> <{DBO}director> <{R}Person_{i % 5}> ." for i in range(40)]
    lines += [f"<{R}Work_{i}> <{DBO}director> <{R}Studio_{i}> ." for i in range(40, 80)]
    (tmp_path / "kb.nt").write_text("\n".join(lines) + "\n")
    (tmp_path / "persons.txt").write_text("\n".join(f"Person_{i}" for i in range(5)) + "\n")
    (tmp_path / "places.txt").write_text("")
    made = [
        c
        for c in _generator(tmp_path, predicates=["director"], per_predicate=30).generate()
        if isinstance(c, TestCase)
    ]
    assert len(made) == 30
    assert all(c.metadata["swapped_entity"].startswith("Person") for c in made)
    assert all(c.metadata["original_object"].startswith("Person") for c in made)


def test_metadata_links_and_question_shape(tmp_path: Path, kb_format: str) -> None:
    _random_kb(tmp_path, 4, kb_format)
    case = next(c for c in _generator(tmp_path, kb_format).generate() if isinstance(c, TestCase))
    meta = case.metadata
    assert case.family == "false_premise" and case.expected == [] and case.variant == meta["predicate"]
    assert case.question == meta["invalid_question"] != meta["valid_question"]
    assert meta["replaced_entity"] in meta["valid_question"]
    assert meta["new_entity_link_count"] >= len(meta["new_entity_links"]) >= 1
    assert case.provenance.fields["question"].path == "rule"
    assert "false_premise/templates.yaml" in case.provenance.template_hashes


@needs("kb")
def test_shortfall_is_reported_not_dropped(tmp_path: Path) -> None:
    (tmp_path / "kb.nt").write_text(
        f"<{R}A> <{DBO}spouse> <{R}B> .\n<{R}C> <{DBO}spouse> <{R}D> .\n<{R}E> <{DBO}spouse> <{R}F> .\n"
    )
    (tmp_path / "persons.txt").write_text("A\nB\nC\nD\nE\nF\n")
    (tmp_path / "places.txt").write_text("")
    out = list(_generator(tmp_path, predicates=["spouse", "author"], per_predicate=5).generate())
    cases = [c for c in out if isinstance(c, TestCase)]
    skips = [c for c in out if isinstance(c, Skip)]
    assert len(cases) == 3
    assert len(skips) == 2
    assert any("'spouse' has 3 usable facts" in s.reason for s in skips)
    assert any("'author' has 0 usable facts" in s.reason for s in skips)


def test_user_templates_extend_ours(tmp_path: Path, kb_format: str) -> None:
    _random_kb(tmp_path, 5, kb_format)
    extra = tmp_path / "mine.yaml"
    extra.write_text(
        "spouse:\n  swap: object\n  types: {object: person}\n  templates:\n"
        "    - question: 'How many children do {subject} and {object} have together?'\n"
        "      answer: '{subject} and {object} were never a couple.'\n"
    )
    made = [
        c
        for c in _generator(tmp_path, kb_format, templates=str(extra), predicates=["spouse"]).generate()
        if isinstance(c, TestCase)
    ]
    assert made and all(c.question.startswith("How many children") for c in made)
    assert all(c.metadata["swapped_side"] == "object" for c in made)


def test_bad_options_and_templates(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no template for 'nationality'"):
        FalsePremise.from_config({"predicates": ["nationality"]}).wanted_predicates()
    bad = tmp_path / "bad.yaml"
    bad.write_text("spouse:\n  templates:\n    - question: 'no placeholders'\n      answer: 'x {subject}'\n")
    with pytest.raises(ConfigError, match="template 1 field 'question'"):
        FalsePremise.from_config({"templates": str(bad)})


@needs("kb")  # the bundled sample KB is N-Triples
def test_bundled_default_covers_many_predicates() -> None:
    generator = FAMILIES.get("false_premise").generator_class().from_config({"per_predicate": 4})
    assert isinstance(generator, FalsePremise)
    cases = [c for c in generator.generate(seed=0) if isinstance(c, TestCase)]
    assert len({c.variant for c in cases}) >= 12
    assert all(c.valid for c in cases)
