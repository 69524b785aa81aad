"""The run store: one SQLite database (WAL) per run directory, append-only by id.

Each stage writes its records under a deterministic id (a hash of the inputs that define the
record). ``INSERT OR IGNORE`` makes writing a record twice a no-op, which is what lets an
interrupted run resume without duplicates. Writes happen in transactions of many rows. A
failed response is stored with its error (failures are data) and is retried on the next run,
replacing the failed row.

Layout of ``runs/<run-id>/``::

    store.sqlite      the records, one table per kind
    manifest.json     versions, git revision, seeds, models per role, template hashes, config
    summary.json      aggregates with confidence intervals (written by the report stage)
    summary.md        tables shaped like the papers'
    test_cases.jsonl  exports
    responses.jsonl
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TypeVar, cast

from halluforge.errors import StoreError
from halluforge.records import Annotation, Example, Record, Response, Score, SeedCase, Skip, TestCase

R = TypeVar("R", bound=Record)
Stored = Example | SeedCase | TestCase | Response | Score | Skip | Annotation

KINDS: dict[str, type[Record]] = {
    "examples": Example,
    "seed_cases": SeedCase,
    "test_cases": TestCase,
    "responses": Response,
    "scores": Score,
    "skips": Skip,
    "annotations": Annotation,  # human labels: no stage clears them, so they survive re-runs
}
SCHEMA_VERSION = 1
#: kinds whose parsed records the store keeps: read by several stages of a run, written only by it
MEMO_KINDS = frozenset({"test_cases", "responses", "scores"})


class _Memo:
    """Parsed records of one kind, in insertion order, up to the last row read (``seq``)."""

    def __init__(self, version: int) -> None:
        self.version = version
        self.seq = 0
        self.records: list[Record] = []


class RunStore:
    """Typed access to one run's SQLite database."""

    def __init__(self, run_dir: str | Path) -> None:
        self.run_dir = Path(run_dir)
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.path = self.run_dir / "store.sqlite"
        self._lock = threading.Lock()
        self._memo: dict[str, _Memo] = {}
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS done "
                "(stage TEXT NOT NULL, key TEXT NOT NULL, PRIMARY KEY (stage, key))"
            )
            for kind in KINDS:
                self._db.execute(
                    f"CREATE TABLE IF NOT EXISTS {kind} ("
                    "seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT UNIQUE NOT NULL, "
                    "failed INTEGER NOT NULL DEFAULT 0, data TEXT NOT NULL)"
                )
            row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif int(row[0]) != SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path} has store schema {row[0]}, this version reads {SCHEMA_VERSION}",
                    hint="use a new --run-id or the halluforge version that wrote it",
                )
            self._db.commit()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open run store {self.path}: {exc}", hint="use a new --run-id") from exc

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """Turn SQLite's refusal to write (a read-only file or folder, a full disk) into a StoreError."""
        try:
            yield
        except sqlite3.OperationalError as exc:
            raise StoreError(
                f"cannot write the run store {self.path}: {exc}",
                hint="make the run directory and its store.sqlite writable, or pass --new",
            ) from exc

    @staticmethod
    def _kind(cls: type[Record]) -> str:
        for kind, record_cls in KINDS.items():
            if record_cls is cls:
                return kind
        raise StoreError(f"no table for records of type {cls.__name__}")

    def put(self, records: Sequence[Stored], *, replace_failed: bool = True) -> int:
        """Write records in one transaction; existing ids are kept unless the stored row failed.

        Returns the number of rows written.
        """
        if not records:
            return 0
        cls = type(records[0])
        kind = self._kind(cls)
        if issubclass(cls, Response):  # only responses can fail
            rows = [(str(r.id), int(bool(cast(Response, r).error)), r.model_dump_json()) for r in records]
        else:
            rows = [(str(r.id), 0, r.model_dump_json()) for r in records]
        kept = kind in MEMO_KINDS
        with self._lock, self._writing():
            with self._db:
                last = self._last_seq(kind) if kept else 0
                before = self._db.total_changes
                if replace_failed:
                    self._db.executemany(
                        f"UPDATE {kind} SET failed=?, data=? WHERE id=? AND failed=1",
                        [(f, d, i) for i, f, d in rows],
                    )
                updated = self._db.total_changes - before
                self._db.executemany(
                    f"INSERT OR IGNORE INTO {kind} (id, failed, data) VALUES (?, ?, ?)", rows
                )
                written = self._db.total_changes - before
                fresh = (
                    kept and not updated and written == len(rows) and self._last_seq(kind) == last + written
                )
            if kept:
                self._remember(kind, records, last, fresh=fresh)
            return written

    def _last_seq(self, kind: str) -> int:
        (seq,) = self._db.execute(f"SELECT COALESCE(MAX(seq), 0) FROM {kind}").fetchone()
        return int(seq)

    def _remember(self, kind: str, records: Sequence[Stored], last: int, *, fresh: bool) -> None:
        """Keep the records just inserted as parsed, when they are exactly the new rows.

        They are when every record was inserted, in order (none ignored, none replacing a
        failed row), and the memo held every row before them (or the table was empty).
        Otherwise the memo is dropped and the next read parses the table again.
        """
        memo = self._memo.get(kind)
        if memo is None and last == 0 and fresh:
            (version,) = self._db.execute("PRAGMA data_version").fetchone()
            memo = self._memo[kind] = _Memo(version)
        if memo is None:
            return
        if not fresh or memo.seq != last:
            del self._memo[kind]
            return
        memo.records.extend(records)
        memo.seq = last + len(records)

    def mark_done(self, stage: str, keys: Sequence[str]) -> None:
        """Record that these inputs of a stage are finished (so a resumed run skips them)."""
        with self._lock, self._writing(), self._db:
            self._db.executemany("INSERT OR IGNORE INTO done VALUES (?, ?)", [(stage, k) for k in keys])

    def done_keys(self, stage: str) -> set[str]:
        """Inputs of a stage already finished."""
        with self._lock:
            return {row[0] for row in self._db.execute("SELECT key FROM done WHERE stage=?", (stage,))}

    def ids(self, cls: type[Record], *, include_failed: bool = True) -> set[str]:
        """Ids already stored for a record type (failed rows optional)."""
        kind = self._kind(cls)
        sql = f"SELECT id FROM {kind}" + ("" if include_failed else " WHERE failed=0")
        with self._lock:
            return {row[0] for row in self._db.execute(sql)}

    def iter(self, cls: type[R]) -> Iterator[R]:
        """Records of one type in insertion order (parsed one at a time unless the store keeps them)."""
        kind = self._kind(cls)
        if kind in MEMO_KINDS:
            return iter(self.all(cls))
        with self._lock:
            rows = self._db.execute(f"SELECT data FROM {kind} ORDER BY seq").fetchall()
        return (cls.model_validate_json(data) for (data,) in rows)

    def all(self, cls: type[R]) -> list[R]:
        """All records of one type, in insertion order.

        Test cases, responses and scores are parsed once per store: the score, derive and
        report steps each read all of them, and parsing was most of a warm re-run's time.
        Later calls parse only rows inserted since, and parse everything again when rows
        changed in place (a failed response replaced) or another connection wrote to the
        database (SQLite's ``data_version``). The records are shared: do not mutate them.
        """
        kind = self._kind(cls)
        if kind not in MEMO_KINDS:
            return list(self.iter(cls))
        with self._lock:
            (version,) = self._db.execute("PRAGMA data_version").fetchone()
            memo = self._memo.get(kind)
            if memo is None or memo.version != version:
                memo = self._memo[kind] = _Memo(version)
            rows = self._db.execute(
                f"SELECT seq, data FROM {kind} WHERE seq > ? ORDER BY seq", (memo.seq,)
            ).fetchall()
            if rows:
                memo.records.extend(cls.model_validate_json(data) for _, data in rows)
                memo.seq = rows[-1][0]
            return cast(list[R], list(memo.records))

    def count(self, cls: type[Record]) -> int:
        """Number of stored records of one type."""
        kind = self._kind(cls)
        with self._lock:
            (n,) = self._db.execute(f"SELECT COUNT(*) FROM {kind}").fetchone()
        return int(n)

    def index_by(self, cls: type[Record], *fields: str) -> None:
        """Add an index on JSON fields of a record table (the viewer pages and filters by them).

        The indexed expressions are ``json_extract(data,'$.<field>')``; a query must spell
        them the same way for SQLite to use the index.
        """
        if not fields or not all(f.isidentifier() for f in fields):
            raise StoreError(f"cannot index by {fields!r}: not field names")
        kind = self._kind(cls)
        columns = ", ".join(f"json_extract(data,'$.{f}')" for f in fields)
        with self._lock, self._db:
            self._db.execute(f"CREATE INDEX IF NOT EXISTS {kind}_by_{'_'.join(fields)} ON {kind}({columns})")

    def discard(self, cls: type[Record], ids: Sequence[str]) -> int:
        """Delete records by id (skips of inputs about to be tried again); returns rows deleted.

        Only record kinds the store does not keep parsed may be discarded: test cases,
        responses and scores are never deleted (a run only adds to them).
        """
        kind = self._kind(cls)
        if kind in MEMO_KINDS:
            raise StoreError(f"records of type {cls.__name__} are never deleted")
        if not ids:
            return 0
        with self._lock, self._writing(), self._db:
            before = self._db.total_changes
            self._db.executemany(f"DELETE FROM {kind} WHERE id=?", [(i,) for i in ids])
            return self._db.total_changes - before

    def export_jsonl(self, cls: type[Record], path: str | Path) -> int:
        """Write one JSON object per line, in insertion order; returns the number of lines.

        The stored text is each record's ``model_dump_json()``, so it is written as it is,
        without parsing every row into a model and dumping it again.
        """
        kind = self._kind(cls)
        with self._lock:
            rows = self._db.execute(f"SELECT data FROM {kind} ORDER BY seq").fetchall()
        with open(path, "w", encoding="utf-8") as handle:
            handle.writelines(data + "\n" for (data,) in rows)
        return len(rows)

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()


__all__ = ["KINDS", "RunStore"]
