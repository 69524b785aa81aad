"""Knowledge-base loaders: stream :class:`Triple` records from RDF or tabular files.

INVITE builds false-premise questions from knowledge-base facts (DBpedia infobox triples). This
module reads such facts one triple at a time, so a dump with millions of lines never sits in
memory:

- **N-Triples / Turtle** (``.nt``, ``.ttl``; optionally ``.gz`` / ``.bz2`` / ``.xz``) are parsed
  with pyoxigraph, a real RDF parser (install extra ``kb``). A syntax error becomes a
  :class:`~halluforge.errors.DataError` naming ``file:line``.
- **TSV / CSV** rows ``subject, predicate, object`` (an optional header row with exactly those
  names) and **JSONL** objects with ``subject``/``predicate``/``object`` keys (or a 3-item
  list) are read line by line with the same error reporting.

Entity clean-up turns terms into the names a question shows: resource IRIs become their last
path segment, percent-decoded, with underscores as spaces; a trailing disambiguation such as
``"Paris (film)"`` becomes ``"Paris"``; typed date literals (``xsd:gYear``, ``xsd:date``, ...)
become a year string. Entity-type sets (persons, places) come from list files (one name or IRI
per line) or from ``rdf:type`` triples naming a person or place class; the generator uses them
as the per-predicate checks INVITE applies.
"""

from __future__ import annotations

import bz2
import csv
import gzip
import io
import json
import lzma
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any, Literal, NamedTuple
from urllib.parse import unquote

from halluforge.errors import ConfigError, DataError
from halluforge.limits import loads_json

KBFormat = Literal["auto", "nt", "ttl", "tsv", "csv", "jsonl"]
EntityType = Literal["person", "place"]

XSD = "http://www.w3.org/2001/XMLSchema#"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
#: literal datatypes whose value is shown as a year only (INVITE asks about years)
YEAR_TYPES = frozenset(XSD + t for t in ("gYear", "gYearMonth", "date", "dateTime", "dateTimeStamp"))
#: class names (IRI local names) that mark an entity as a person or a place in rdf:type triples
PERSON_CLASSES = frozenset({"Person"})
PLACE_CLASSES = frozenset(
    {"Place", "PopulatedPlace", "Location", "City", "Town", "Village", "Country", "Settlement", "Region"}
)
_TYPE_PREDICATES = frozenset({RDF_TYPE, "rdf:type", "type", "a"})

_DBR = "http://dbpedia.org/resource/"
_DBR_LEN = len(_DBR)
_SLOW_MARKS = ("%", ")", "__", " ", "\t", ">")
_DISAMBIGUATION = re.compile(r"\s*\([^()]*\)\s*$")
_DBPEDIA_SERIAL = re.compile(r"__(?:[A-Za-z]+__)?\d+$")
_YEAR = re.compile(r"^(-?)(\d{1,6})")
_TYPED_LITERAL = re.compile(r'^"(.*)"(?:\^\^<([^>]*)>|@[A-Za-z0-9-]+)?$', re.S)


class Triple(NamedTuple):
    """One knowledge-base fact. Subject and object are cleaned names; the predicate is as given."""

    subject: str
    predicate: str
    object: str


# -- entity clean-up ---------------------------------------------------------------------------


def local_name(iri: str) -> str:
    """The last segment of an IRI (after ``#`` or ``/``), e.g. ``dbo:birthPlace`` -> ``birthPlace``."""
    iri = iri.strip().strip("<>")
    cut = max(iri.rfind("#"), iri.rfind("/"))
    tail = iri[cut + 1 :] if cut >= 0 else iri
    return tail.rsplit(":", 1)[-1] if "://" not in tail else tail


def strip_disambiguation(name: str) -> str:
    """Drop a trailing parenthesised qualifier: ``"Paris (film)"`` -> ``"Paris"``."""
    stripped = _DISAMBIGUATION.sub("", name)
    return stripped or name


def entity_name(iri: str) -> str:
    """Turn a resource IRI into the name a question shows.

    DBpedia resources keep everything after ``/resource/`` (names may contain ``/``), other IRIs
    their last segment; then percent-decoding, underscores to spaces, DBpedia's serial suffixes
    (``__1``, ``__CareerStation__3``) and disambiguation suffixes removed.
    """
    if iri.startswith(_DBR):  # the common case, kept fast for big dumps
        tail = iri[_DBR_LEN:]
        if tail and not any(mark in tail for mark in _SLOW_MARKS):
            return tail.replace("_", " ")
    iri = iri.strip().strip("<>")
    marker = iri.find("/resource/")
    tail = iri[marker + 10 :] if marker >= 0 else local_name(iri)
    if "%" in tail:
        tail = unquote(tail)
    tail = _DBPEDIA_SERIAL.sub("", tail).replace("_", " ").strip()
    if tail.endswith(")"):
        tail = strip_disambiguation(tail)
    return " ".join(tail.split())


def year_text(value: str) -> str:
    """The year of a date-like literal: ``"1952-03-11"`` -> ``"1952"``, ``"-0044"`` -> ``"44 BC"``."""
    match = _YEAR.match(value.strip())
    if match is None:
        return value.strip()
    year = int(match.group(2))
    return f"{year} BC" if match.group(1) else str(year)


def literal_text(value: str, datatype: str | None = None) -> str:
    """The shown text of a literal: date types become a year, anything else stays as written."""
    if datatype and datatype.strip("<>") in YEAR_TYPES:
        return year_text(value)
    return " ".join(value.split())


def clean_term(raw: str) -> str:
    """Clean one term written as text (TSV/CSV/JSONL): an IRI, a quoted literal or a plain name.

    ``<http://...>`` and bare ``http(s)://`` IRIs go through :func:`entity_name`; N-Triples-style
    literals (``"1952"^^<...#gYear>``, ``"x"@en``) through :func:`literal_text`; a plain name
    keeps its text, with underscores as spaces when it has no spaces (``Barack_Obama``) and
    without a trailing disambiguation.
    """
    text = raw.strip()
    if (text.startswith("<") and text.endswith(">")) or text.startswith(("http://", "https://")):
        return entity_name(text)
    if text.startswith('"'):
        match = _TYPED_LITERAL.match(text)
        if match:
            return literal_text(match.group(1), match.group(2))
        return text.strip('"').strip()
    if "_" in text and " " not in text and "\t" not in text:
        text = text.replace("_", " ")
    if "  " in text or "\t" in text:
        text = " ".join(text.split())
    return strip_disambiguation(text) if text.endswith(")") else text


def is_type_predicate(predicate: str) -> bool:
    """True for ``rdf:type`` written as an IRI, a CURIE, ``type`` or Turtle's ``a``."""
    return predicate.strip().strip("<>") in _TYPE_PREDICATES


def type_of_class(cls: str) -> EntityType | None:
    """Map a class (IRI or cleaned name) to ``person`` / ``place`` when it is one of those."""
    name = local_name(cls) if ("/" in cls or "#" in cls) else cls.strip()
    if name in PERSON_CLASSES:
        return "person"
    if name in PLACE_CLASSES:
        return "place"
    return None


# -- opening files -----------------------------------------------------------------------------


def detect_format(path: str | Path) -> Literal["nt", "ttl", "tsv", "csv", "jsonl"]:
    """Guess the format from the file name (compression suffixes ignored)."""
    name = Path(path).name.lower()
    for suffix in (".gz", ".bz2", ".xz"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    for ext, fmt in ((".nt", "nt"), (".ttl", "ttl"), (".tsv", "tsv"), (".tab", "tsv"), (".csv", "csv")):
        if name.endswith(ext):
            return fmt  # type: ignore[return-value]
    if name.endswith((".jsonl", ".ndjson", ".json")):
        return "jsonl"
    raise DataError(
        "cannot tell the knowledge-base format from the file name",
        path=str(path),
        hint="name it .nt/.ttl/.tsv/.csv/.jsonl or set format: nt|ttl|tsv|csv|jsonl",
    )


def _open_binary(path: Path) -> IO[bytes]:
    if not path.is_file():
        raise DataError("knowledge-base file does not exist", path=str(path), hint="check the kb path")
    name = path.name.lower()
    if name.endswith(".gz"):
        return gzip.open(path, "rb")  # type: ignore[return-value]
    if name.endswith(".bz2"):
        return bz2.open(path, "rb")
    if name.endswith(".xz"):
        return lzma.open(path, "rb")
    return path.open("rb")


def _pyoxigraph() -> Any:
    try:
        import pyoxigraph
    except ImportError as exc:
        raise ConfigError(
            "reading N-Triples/Turtle needs pyoxigraph",
            hint='pip install "halluforge[kb]"',
        ) from exc
    return pyoxigraph


# -- raw rows: (subject, predicate, object, object_is_literal) ------------------------------------

RawRow = tuple[str, str, str, bool]


def _rdf_rows(path: Path, fmt: Literal["nt", "ttl"]) -> Iterator[RawRow]:
    """Stream RDF triples: IRIs stay raw (cleaned later), literals are turned into text now."""
    # the file first: a wrong path is named as such, with or without the kb extra
    with _open_binary(path) as handle:
        ox = _pyoxigraph()
        rdf_format = ox.RdfFormat.N_TRIPLES if fmt == "nt" else ox.RdfFormat.TURTLE
        literal_cls, blank_cls = ox.Literal, ox.BlankNode
        try:
            for quad in ox.parse(handle, format=rdf_format):
                subject, obj = quad.subject, quad.object
                s_text = "_:" + subject.value if isinstance(subject, blank_cls) else subject.value
                if isinstance(obj, literal_cls):
                    yield s_text, quad.predicate.value, literal_text(obj.value, obj.datatype.value), True
                elif isinstance(obj, blank_cls):
                    yield s_text, quad.predicate.value, "_:" + obj.value, False
                else:
                    yield s_text, quad.predicate.value, obj.value, False
        except SyntaxError as exc:
            reason = str(exc.msg if hasattr(exc, "msg") else exc)
            raise DataError(
                f"not valid {'N-Triples' if fmt == 'nt' else 'Turtle'}: {reason}",
                path=str(path),
                line=exc.lineno,
                hint="fix or remove that line (one '<s> <p> <o> .' statement per line)",
            ) from None


def _text_lines(path: Path) -> Iterator[tuple[int, str]]:
    with _open_binary(path) as raw, io.TextIOWrapper(raw, encoding="utf-8", errors="strict") as handle:
        try:
            yield from enumerate(handle, start=1)
        except UnicodeDecodeError as exc:
            raise DataError("not UTF-8 text", path=str(path), hint="re-encode the file as UTF-8") from exc


def _is_header(cells: list[str]) -> bool:
    return [c.strip().lower() for c in cells] == ["subject", "predicate", "object"]


def _tabular_rows(path: Path, fmt: Literal["tsv", "csv"]) -> Iterator[RawRow]:
    """Stream TSV/CSV rows of exactly three cells; a header row ``subject,predicate,object`` is skipped."""
    delimiter = "\t" if fmt == "tsv" else ","
    for number, line in _text_lines(path):
        if not line.strip() or line.startswith("#"):
            continue
        cells = (
            next(csv.reader([line], delimiter=delimiter)) if fmt == "csv" else line.rstrip("\r\n").split("\t")
        )
        if number == 1 and _is_header(cells):
            continue
        if len(cells) != 3 or not all(c.strip() for c in cells):
            raise DataError(
                f"expected 3 non-empty {fmt.upper()} cells (subject, predicate, object), found {len(cells)}",
                path=str(path),
                line=number,
                hint=f"write one fact per line as subject{delimiter!r}predicate{delimiter!r}object",
            )
        yield cells[0], cells[1], cells[2], False


def _jsonl_rows(path: Path) -> Iterator[RawRow]:
    """Stream JSON lines: ``{"subject": .., "predicate": .., "object": ..}`` or ``[s, p, o]``."""
    for number, line in _text_lines(path):
        if not line.strip():
            continue
        try:
            data = loads_json(line, path=str(path), line=number)
        except json.JSONDecodeError as exc:
            raise DataError(
                f"not valid JSON ({exc.msg})", path=str(path), line=number, hint="one JSON object per line"
            ) from None
        if isinstance(data, list) and len(data) == 3:
            cells = data
        elif isinstance(data, dict):
            cells = []
            for key in ("subject", "predicate", "object"):
                if key not in data:
                    raise DataError(
                        "missing key",
                        path=str(path),
                        line=number,
                        field=key,
                        hint='write {"subject": ..., "predicate": ..., "object": ...}',
                    )
                cells.append(data[key])
        else:
            raise DataError(
                "expected an object with subject/predicate/object or a 3-item list",
                path=str(path),
                line=number,
                hint='write {"subject": ..., "predicate": ..., "object": ...}',
            )
        if not all(isinstance(c, str | int) and str(c).strip() for c in cells):
            raise DataError(
                "subject, predicate and object must be non-empty strings",
                path=str(path),
                line=number,
                hint="fill every field",
            )
        yield str(cells[0]), str(cells[1]), str(cells[2]), False


def raw_rows(path: str | Path, format: KBFormat = "auto") -> Iterator[RawRow]:
    """Stream ``(subject, predicate, object, object_is_literal)`` with terms not yet cleaned.

    RDF literals are already turned into text (their datatype is known only here); everything
    else is passed through :func:`entity_name` / :func:`clean_term` by the caller, which can
    then clean each distinct term once.
    """
    file = Path(path)
    fmt = detect_format(file) if format == "auto" else format
    if fmt in ("nt", "ttl"):
        return _rdf_rows(file, fmt)
    if fmt in ("tsv", "csv"):
        return _tabular_rows(file, fmt)
    if fmt == "jsonl":
        return _jsonl_rows(file)
    raise ConfigError(f"unknown knowledge-base format {format!r}", hint="use nt, ttl, tsv, csv or jsonl")


def clean_raw(term: str, from_rdf: bool) -> str:
    """Clean one raw subject/object term from :func:`raw_rows` (not a literal)."""
    if from_rdf:
        return term if term.startswith("_:") else entity_name(term)
    return clean_term(term)


def iter_triples(path: str | Path, format: KBFormat = "auto", *, clean: bool = True) -> Iterator[Triple]:
    """Stream the triples of one knowledge-base file, with subject and object cleaned by default."""
    file = Path(path)
    fmt = detect_format(file) if format == "auto" else format
    from_rdf = fmt in ("nt", "ttl")
    for subject, predicate, obj, is_literal in raw_rows(file, fmt):
        if clean:
            subject = clean_raw(subject, from_rdf)
            obj = obj if is_literal else clean_raw(obj, from_rdf)
        yield Triple(subject, predicate.strip().strip("<>"), obj)


# -- entity types ------------------------------------------------------------------------------


def load_type_list(path: str | Path) -> set[str]:
    """Read an entity-type list: one name or IRI per line; blank lines and ``#`` comments skipped."""
    names: set[str] = set()
    for _number, line in _text_lines(Path(path)):
        text = line.strip()
        if text and not text.startswith("#"):
            names.add(clean_term(text))
    return names


def types_from_triples(triples: Iterable[Triple]) -> dict[EntityType, set[str]]:
    """Collect persons and places from ``rdf:type`` triples whose class is a person/place class."""
    found: dict[EntityType, set[str]] = {"person": set(), "place": set()}
    for triple in triples:
        if is_type_predicate(triple.predicate):
            kind = type_of_class(triple.object)
            if kind is not None:
                found[kind].add(triple.subject)
    return found


__all__ = [
    "EntityType",
    "KBFormat",
    "RawRow",
    "Triple",
    "clean_raw",
    "clean_term",
    "detect_format",
    "entity_name",
    "is_type_predicate",
    "iter_triples",
    "literal_text",
    "load_type_list",
    "local_name",
    "raw_rows",
    "strip_disambiguation",
    "type_of_class",
    "types_from_triples",
    "year_text",
]
