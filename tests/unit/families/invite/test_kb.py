"""Knowledge-base loaders: every format, malformed lines named by line, clean-up, type sets, index."""

from __future__ import annotations

import bz2
import gzip
import json
from pathlib import Path

import pytest

from extra_skips import needs
from halluforge.errors import DataError
from halluforge.families.invite.kb import (
    Triple,
    clean_term,
    entity_name,
    iter_triples,
    literal_text,
    load_type_list,
    types_from_triples,
)
from halluforge.families.invite.kb_index import KBIndex, bundled_kb

R = "http://dbpedia.org/resource/"
DBO = "http://dbpedia.org/ontology/"
GYEAR = "http://www.w3.org/2001/XMLSchema#gYear"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"

NT = f"""<{R}Paris_(film)> <{DBO}director> <{R}C%C3%A9dric_Klapisch> .
<{R}Acme_Corp> <{DBO}foundingYear> "1999"^^<{GYEAR}> .
<{R}Ada_Lovelace> <{DBO}birthDate> "1815-12-10"^^<http://www.w3.org/2001/XMLSchema#date> .
<{R}Ada_Lovelace> <{RDF_TYPE}> <{DBO}Person> .
<{R}London> <{RDF_TYPE}> <{DBO}Place> .
"""


@needs("kb")
def test_ntriples_are_parsed_and_cleaned(tmp_path: Path) -> None:
    path = tmp_path / "kb.nt"
    path.write_text(NT, encoding="utf-8")
    triples = list(iter_triples(path))
    assert triples[0] == Triple("Paris", f"{DBO}director", "Cédric Klapisch")
    assert triples[1].object == "1999"
    assert triples[2].object == "1815"
    assert types_from_triples(triples) == {"person": {"Ada Lovelace"}, "place": {"London"}}


@needs("kb")
def test_compressed_ntriples(tmp_path: Path) -> None:
    (tmp_path / "kb.nt.gz").write_bytes(gzip.compress(NT.encode()))
    (tmp_path / "kb.nt.bz2").write_bytes(bz2.compress(NT.encode()))
    assert list(iter_triples(tmp_path / "kb.nt.gz")) == list(iter_triples(tmp_path / "kb.nt.bz2"))
    assert len(list(iter_triples(tmp_path / "kb.nt.gz"))) == 5


@needs("kb")
def test_turtle_with_prefixes(tmp_path: Path) -> None:
    path = tmp_path / "kb.ttl"
    path.write_text(
        f"@prefix dbr: <{R}> .\n@prefix dbo: <{DBO}> .\n"
        "dbr:Jaws_\\(film\\) dbo:director dbr:Steven_Spielberg ;\n    dbo:musicComposer dbr:John_Williams .\n"
        'dbr:Steven_Spielberg a dbo:Person ; dbo:birthYear "1946"^^<' + GYEAR + "> .\n",
        encoding="utf-8",
    )
    triples = list(iter_triples(path))
    assert Triple("Jaws", f"{DBO}director", "Steven Spielberg") in triples
    assert Triple("Steven Spielberg", f"{DBO}birthYear", "1946") in triples
    assert types_from_triples(triples)["person"] == {"Steven Spielberg"}


@needs("kb")
def test_malformed_ntriples_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "bad.nt"
    path.write_text(NT + f"<{R}A> <{DBO}director> not_an_iri .\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        list(iter_triples(path))
    assert info.value.line == 6
    assert "bad.nt:6" in str(info.value)


@needs("kb")
def test_malformed_turtle_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "bad.ttl"
    path.write_text(f'@prefix dbo: <{DBO}> .\n<{R}A> dbo:director <{R}B> .\n<{R}C> dbo:x "open .\n')
    with pytest.raises(DataError, match=r"bad\.ttl:3"):
        list(iter_triples(path))


def test_tsv_csv_jsonl(tmp_path: Path) -> None:
    (tmp_path / "kb.tsv").write_text(
        "subject\tpredicate\tobject\nBarack_Obama\tspouse\tMichelle_Obama\n"
        f"<{R}Jaws_(film)>\t<{DBO}director>\t<{R}Steven_Spielberg>\n"
    )
    (tmp_path / "kb.csv").write_text(
        'Barack Obama,spouse,Michelle Obama\n"Paris, Texas",director,Wim Wenders\n'
    )
    (tmp_path / "kb.jsonl").write_text(
        json.dumps({"subject": "Barack Obama", "predicate": "spouse", "object": "Michelle Obama"})
        + "\n"
        + json.dumps(["Acme", "foundingYear", f'"2001"^^<{GYEAR}>'])
        + "\n"
    )
    assert list(iter_triples(tmp_path / "kb.tsv")) == [
        Triple("Barack Obama", "spouse", "Michelle Obama"),
        Triple("Jaws", f"{DBO}director", "Steven Spielberg"),
    ]
    assert list(iter_triples(tmp_path / "kb.csv"))[1] == Triple("Paris, Texas", "director", "Wim Wenders")
    assert list(iter_triples(tmp_path / "kb.jsonl"))[1] == Triple("Acme", "foundingYear", "2001")


@pytest.mark.parametrize(
    ("name", "text", "line"),
    [
        ("bad.tsv", "a\tb\tc\nonly\ttwo\n", 2),
        ("bad.csv", "a,b,c\na,b,c\na,,c\n", 3),
        ("bad.jsonl", '{"subject": "a", "predicate": "b", "object": "c"}\n{"subject": "a"\n', 2),
        ("bad2.jsonl", '{"subject": "a", "predicate": "b"}\n', 1),
    ],
)
def test_malformed_tabular_lines_are_named(tmp_path: Path, name: str, text: str, line: int) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(DataError) as info:
        list(iter_triples(path))
    assert info.value.line == line
    assert f"{name}:{line}" in str(info.value)


def test_missing_file_and_unknown_extension(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="does not exist"):
        list(iter_triples(tmp_path / "nope.nt"))
    with pytest.raises(DataError, match="format"):
        list(iter_triples(tmp_path / "kb.xml"))


def test_entity_clean_up() -> None:
    assert entity_name(f"{R}Who_Killed_the_Electric_Car%3F") == "Who Killed the Electric Car?"
    assert entity_name(f"{R}AC/DC") == "AC/DC"
    assert entity_name(f"{R}Queen_(band)") == "Queen"
    assert entity_name(f"{R}John_Smith__CareerStation__3") == "John Smith"
    assert literal_text("-0044", GYEAR) == "44 BC"
    assert literal_text("2001-05-01T10:00:00", "http://www.w3.org/2001/XMLSchema#dateTime") == "2001"
    assert literal_text("42", "http://www.w3.org/2001/XMLSchema#integer") == "42"
    assert clean_term("Barack_Obama") == "Barack Obama"
    assert clean_term("Paris (film)") == "Paris"
    assert clean_term("snake_case name") == "snake_case name"


def test_type_list_accepts_names_and_iris(tmp_path: Path) -> None:
    path = tmp_path / "persons.txt"
    path.write_text(f"# persons\n{R}Ada_Lovelace\nAlan Turing\n\n<{R}Grace_Hopper>\n")
    assert load_type_list(path) == {"Ada Lovelace", "Alan Turing", "Grace Hopper"}


@needs("kb")
def test_index_keeps_wanted_predicates_and_types(tmp_path: Path) -> None:
    path = tmp_path / "kb.nt"
    path.write_text(NT + f"<{R}Paris_(film)> <{DBO}director> <{R}C%C3%A9dric_Klapisch> .\n")
    index = KBIndex.build([path], predicates=["director", f"{DBO}foundingYear"])
    assert sorted(index.facts) == ["director", "foundingYear"]
    assert len(index.facts["director"]) == 1  # the duplicate line is one fact
    s, o = index.facts["director"].fact(0)
    assert (index.names[s], index.names[o]) == ("Paris", "Cédric Klapisch")
    assert index.facts["director"].has(s, o) and not index.facts["director"].has(o, s)
    assert index.facts["director"].objects_of(s) == [o] and index.facts["director"].subjects_of(o) == [s]
    assert index.types["person"] == frozenset()  # Ada is typed, but not in any indexed fact


@needs("kb")
def test_bundled_kb_size_and_coverage() -> None:
    kb_file, lists = bundled_kb()
    triples = list(iter_triples(kb_file))
    predicates = {t.predicate.rsplit("/", 1)[-1] for t in triples}
    assert len(set(triples)) >= 400
    assert len(predicates) >= 12
    persons, places = load_type_list(lists["person"]), load_type_list(lists["place"])
    assert len(persons) >= 100 and len(places) >= 50
    assert "Steven Spielberg" in persons and "Paris" in places


def test_missing_pyoxigraph_names_the_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from halluforge.errors import ConfigError

    path = tmp_path / "kb.nt"
    path.write_text(NT)
    monkeypatch.setitem(sys.modules, "pyoxigraph", None)
    with pytest.raises(ConfigError, match=r'pip install "halluforge\[kb\]"'):
        list(iter_triples(path))
    with pytest.raises(DataError, match="does not exist"):  # a wrong path is named before the extra
        list(iter_triples(tmp_path / "nope.nt"))
