"""The KB index INVITE samples facts from, and the bundled sample KB.

:class:`KBIndex` streams the triples that :mod:`halluforge.families.invite.kb` reads once into
integer entity ids and, per predicate, two sorted arrays of 64-bit ``subject << 32 | object``
keys (:class:`PredicateFacts`), so a dump with millions of facts fits in a few bytes per fact and
"does this subject hold this object" is a binary search. Kept apart from the readers so each
module holds one concern: reading terms and formats there, sampling structures here.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

from halluforge.families.invite.kb import (
    EntityType,
    KBFormat,
    clean_raw,
    detect_format,
    is_type_predicate,
    load_type_list,
    local_name,
    raw_rows,
    type_of_class,
)

# -- an index for sampling: entity ids as ints, facts as sorted 64-bit keys ------------------------

_LOW = (1 << 32) - 1


class PredicateFacts:
    """The distinct facts of one predicate as two sorted arrays of ``id << 32 | id`` keys.

    ``by_subject`` is sorted by (subject, object) and ``by_object`` by (object, subject), so a
    fact lookup or "everything this entity is linked to" is a binary search: O(log n) time and
    16 bytes per fact, however large the predicate.
    """

    def __init__(self, name: str, by_subject: array[int], by_object: array[int]) -> None:
        self.name = name
        self.by_subject = by_subject
        self.by_object = by_object

    def __len__(self) -> int:
        return len(self.by_subject)

    def fact(self, index: int) -> tuple[int, int]:
        """Subject and object ids of the ``index``-th fact (in subject order)."""
        key = self.by_subject[index]
        return key >> 32, key & _LOW

    def has(self, subject: int, obj: int) -> bool:
        """True when the KB holds (subject, this predicate, obj)."""
        key = (subject << 32) | obj
        at = bisect_left(self.by_subject, key)
        return at < len(self.by_subject) and self.by_subject[at] == key

    def objects_of(self, subject: int, limit: int = 50) -> list[int]:
        """Object ids linked to ``subject`` by this predicate (at most ``limit``)."""
        return _linked(self.by_subject, subject, limit)

    def subjects_of(self, obj: int, limit: int = 50) -> list[int]:
        """Subject ids linked to ``obj`` by this predicate (at most ``limit``)."""
        return _linked(self.by_object, obj, limit)

    def count_objects_of(self, subject: int) -> int:
        return _count(self.by_subject, subject)

    def count_subjects_of(self, obj: int) -> int:
        return _count(self.by_object, obj)


def _linked(keys: array[int], head: int, limit: int) -> list[int]:
    start = bisect_left(keys, head << 32)
    stop = min(bisect_left(keys, (head + 1) << 32), start + limit)
    return [keys[i] & _LOW for i in range(start, stop)]


def _count(keys: array[int], head: int) -> int:
    return bisect_left(keys, (head + 1) << 32) - bisect_left(keys, head << 32)


def _sorted_keys(raw: array[int]) -> tuple[array[int], array[int]]:
    """Deduplicate and sort the (subject, object) keys; build the (object, subject) twin."""
    import numpy as np

    so = np.unique(np.frombuffer(raw, dtype=np.uint64)) if len(raw) else np.zeros(0, dtype=np.uint64)
    os_ = np.sort((so << np.uint64(32)) | (so >> np.uint64(32)))
    by_subject, by_object = array("Q"), array("Q")
    by_subject.frombytes(so.tobytes())
    by_object.frombytes(os_.tobytes())
    return by_subject, by_object


class KBIndex:
    """Facts of the chosen predicates with every entity name interned once as an int id.

    Built in one streaming pass over the KB files: triples of other predicates are dropped as
    they are read, ``rdf:type`` triples naming a person or place class feed the type sets.
    Memory is one copy of each distinct entity name plus 16 bytes per distinct fact.
    """

    def __init__(self) -> None:
        self.names: list[str] = []
        self.ids: dict[str, int] = {}
        self.facts: dict[str, PredicateFacts] = {}
        self.types: dict[EntityType, frozenset[int]] = {"person": frozenset(), "place": frozenset()}
        self.type_sources: dict[EntityType, str] = {}
        self.lines_read = 0
        self.skipped_blank = 0

    def intern(self, name: str) -> int:
        """The id of ``name``, adding it when new."""
        found = self.ids.get(name)
        if found is None:
            found = len(self.names)
            self.ids[name] = found
            self.names.append(name)
        return found

    @classmethod
    def build(
        cls,
        paths: Iterable[str | Path],
        format: KBFormat = "auto",
        *,
        predicates: Iterable[str] | None = None,
        type_lists: dict[EntityType, list[Path]] | None = None,
        types_from_kb: bool = True,
    ) -> KBIndex:
        """Stream every file once and index the wanted predicates (all when ``predicates`` is None).

        A predicate is wanted when its full IRI or its local name (``birthPlace``) is listed;
        facts are stored under the local name.
        """
        index = cls()
        wanted = None if predicates is None else {p.strip().strip("<>") for p in predicates}
        key_of: dict[str, str | None] = {}
        raw_keys: dict[str, array[int]] = {}
        typed: dict[EntityType, set[str]] = {"person": set(), "place": set()}
        intern = index.intern
        for path in paths:
            file = Path(path)
            fmt = detect_format(file) if format == "auto" else format
            from_rdf = fmt in ("nt", "ttl")
            known: dict[str, int] = {}  # raw term -> id, so each distinct term is cleaned once
            for subject, predicate, obj, is_literal in raw_rows(file, fmt):
                index.lines_read += 1
                key: str | None = key_of.get(predicate, "")
                if key == "":
                    key = _predicate_key(predicate, wanted)
                    key_of[predicate] = key
                if key is None:
                    if types_from_kb and is_type_predicate(predicate):
                        found_kind = type_of_class(obj)
                        if found_kind is not None:
                            typed[found_kind].add(clean_raw(subject, from_rdf))
                    continue
                if subject.startswith("_:") or (not is_literal and obj.startswith("_:")):
                    index.skipped_blank += 1
                    continue
                s_id = known.get(subject)
                if s_id is None:
                    name = clean_raw(subject, from_rdf)
                    s_id = known[subject] = intern(name) if name else -1
                o_id = None if is_literal else known.get(obj)
                if o_id is None:
                    name = obj if is_literal else clean_raw(obj, from_rdf)
                    o_id = intern(name) if name else -1
                    if not is_literal:
                        known[obj] = o_id
                if s_id < 0 or o_id < 0:
                    continue
                bucket = raw_keys.get(key)
                if bucket is None:
                    bucket = raw_keys[key] = array("Q")
                bucket.append((s_id << 32) | o_id)
                if len(known) > 2_000_000:  # bound the memo on huge dumps
                    known.clear()
        for key in sorted(raw_keys):
            by_subject, by_object = _sorted_keys(raw_keys.pop(key))
            index.facts[key] = PredicateFacts(key, by_subject, by_object)
        kinds: tuple[EntityType, ...] = ("person", "place")
        for kind in kinds:
            names = set(typed[kind])
            sources = ["rdf:type"] if names else []
            for list_path in (type_lists or {}).get(kind, []):
                names |= load_type_list(list_path)
                sources.append(str(list_path))
            index.types[kind] = frozenset(i for i in map(index.ids.get, names) if i is not None)
            if sources:
                index.type_sources[kind] = ", ".join(sources)
        return index

    def type_ids(self, kind: EntityType) -> frozenset[int]:
        """Ids of the entities known to be of ``kind``."""
        return self.types[kind]

    def has_type_info(self, kind: EntityType) -> bool:
        """True when a list file or rdf:type triples gave any entity of ``kind``."""
        return bool(self.types[kind])


def _predicate_key(predicate: str, wanted: set[str] | None) -> str | None:
    """The index key (local name) of a predicate, or None when it is not wanted."""
    iri = predicate.strip().strip("<>")
    if is_type_predicate(iri):
        return None
    name = local_name(iri)
    if wanted is None or iri in wanted or name in wanted:
        return name
    return None


# -- the bundled sample ------------------------------------------------------------------------


def bundled_kb_dir() -> Path:
    """Folder of the bundled sample KB (``sample_kb.nt``, ``persons.txt``, ``places.txt``)."""
    return Path(str(resources.files("halluforge.families.invite").joinpath("data", "kb")))


def bundled_kb() -> tuple[Path, dict[EntityType, Path]]:
    """The bundled sample KB file and its person/place lists, written by us from well-known facts."""
    folder = bundled_kb_dir()
    return folder / "sample_kb.nt", {"person": folder / "persons.txt", "place": folder / "places.txt"}


__all__ = ["KBIndex", "PredicateFacts", "bundled_kb", "bundled_kb_dir"]
