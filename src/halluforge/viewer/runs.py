"""Pages of test cases read straight from a run's SQLite store, for the viewer.

A :class:`RunIndex` opens one run directory. Lists are SQL queries over the stored JSON
(``json_extract``), one page at a time, so the whole run is never loaded. On first open it adds
expression indexes to the store (:data:`INDEXES`: rows by test case; responses by model and
setting; scores by metric, model, setting and value; test cases by family), which change no
record and make filters and filter choices index scans; building them is a one-time cost
(seconds on a run of 100,000 responses, see ``benchmarks/viewer.py``). Reads go through a
read-only connection; the one write the viewer makes, an :class:`~halluforge.records.Annotation`,
goes through :class:`~halluforge.store.RunStore` like every other record.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from halluforge.errors import DataError
from halluforge.records import LABELS, Annotation, Record, Response, Score, TestCase
from halluforge.reports.cases import case_payload, latest_labels
from halluforge.store import RunStore

PATHS = ("llm", "fallback", "rule", "source")
OUTCOMES = ("pass", "fail", "none")
PAGE_SIZE = 50
#: the last page a request may ask for (page x size must fit SQLite's 64-bit OFFSET)
MAX_PAGE = 1_000_000_000
#: expression indexes the viewer adds to a store on first open (record, JSON fields)
INDEXES: tuple[tuple[type[Record], tuple[str, ...]], ...] = (
    (Response, ("test_case_id",)),
    (Score, ("test_case_id",)),
    (Annotation, ("test_case_id",)),
    (TestCase, ("family",)),
    (Response, ("model", "setting", "test_case_id")),
    (Score, ("metric", "model", "setting", "value", "test_case_id")),
)
#: the expression of RunStore.index_by(..., "test_case_id"): queries must spell it the same way
_CASE = "json_extract(data,'$.test_case_id')"


@dataclass(frozen=True)
class Filters:
    """What the case list is filtered by; empty fields do not filter."""

    family: str = ""
    model: str = ""
    setting: str = ""
    metric: str = ""
    outcome: str = ""
    path: str = ""
    q: str = ""

    def check(self) -> None:
        """Reject values the query cannot use, naming the field."""
        if self.outcome and self.outcome not in OUTCOMES:
            raise DataError(f"unknown outcome {self.outcome!r}", field="outcome", hint="pass, fail or none")
        if self.path and self.path not in PATHS:
            raise DataError(f"unknown provenance path {self.path!r}", field="path", hint=", ".join(PATHS))


def find_runs(paths: Iterable[str | Path]) -> dict[str, Path]:
    """Run directories by name: each path is a run directory or a folder of them."""
    found: dict[str, Path] = {}
    for raw in paths:
        path = Path(raw).resolve()
        if not path.is_dir():
            raise DataError("no such folder", path=str(raw), hint="pass a run directory or a folder of runs")
        candidates = [path] if (path / "store.sqlite").is_file() else sorted(path.iterdir())
        for run in candidates:
            if not (run / "store.sqlite").is_file():
                continue
            name, n = run.name, 2
            while name in found:
                name, n = f"{run.name}-{n}", n + 1
            found[name] = run
    if not found:
        raise DataError(
            "no run directories (folders with store.sqlite) found",
            path=", ".join(str(p) for p in paths),
            hint="run `halluforge run` first or pass runs/<run-id>",
        )
    return found


class RunIndex:
    """Paged, filtered reads of one run's test cases, and its annotations."""

    def __init__(self, name: str, run_dir: Path) -> None:
        self.name = name
        self.run_dir = run_dir
        self.store = RunStore(run_dir)  # creates the annotations table in older runs
        for record, fields in INDEXES:
            self.store.index_by(record, *fields)
        self._db = sqlite3.connect(f"file:{self.store.path}?mode=ro", uri=True, check_same_thread=False)
        self._lock = threading.Lock()
        self._facets: dict[str, list[str]] | None = None

    def close(self) -> None:
        """Close both connections."""
        with self._lock:
            self._db.close()
        self.store.close()

    def _rows(self, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, tuple(params)).fetchall()

    def counts(self) -> dict[str, int]:
        """How many test cases, responses and annotations the run holds."""
        return {
            "test_cases": self.store.count(TestCase),
            "responses": self.store.count(Response),
            "annotations": self.store.count(Annotation),
        }

    def facets(self) -> dict[str, list[str]]:
        """Filter choices: families, models, settings, metrics, provenance paths (computed once)."""
        if self._facets is None:

            def distinct(table: str, field: str) -> list[str]:
                sql = f"SELECT DISTINCT json_extract(data,'$.{field}') FROM {table}"
                return sorted(str(v) for (v,) in self._rows(sql) if v is not None)

            models = distinct("responses", "model")
            # per model, so the (model, setting, ...) index answers it instead of a table scan
            settings = {
                str(v)
                for model in models
                for (v,) in self._rows(
                    "SELECT DISTINCT json_extract(data,'$.setting') FROM responses "
                    "WHERE json_extract(data,'$.model') = ?",
                    [model],
                )
                if v is not None
            }
            self._facets = {
                "families": distinct("test_cases", "family"),
                "models": models,
                "settings": sorted(settings),
                "metrics": distinct("scores", "metric"),
                "paths": list(PATHS),
            }
        return self._facets

    def _where(self, f: Filters) -> tuple[str, list[Any]]:
        f.check()
        where: list[str] = []
        params: list[Any] = []
        if f.family:
            where.append("json_extract(t.data,'$.family') = ?")
            params.append(f.family)
        if f.path:
            # stored JSON escapes quotes inside texts, so this can only match a provenance key
            where.append("instr(t.data, ?) > 0")
            params.append(f'"path":"{f.path}"')
        if f.q:
            text = (
                "lower(json_extract(t.data,'$.question') || ' ' "
                "|| ifnull(json_extract(t.data,'$.context'),'') || ' ' "
                "|| ifnull(json_extract(t.data,'$.original_context'),''))"
            )
            reply = "lower(json_extract(data,'$.text'))"
            replied = f"SELECT {_CASE} FROM responses WHERE instr({reply}, ?) > 0"
            where.append(f"(instr({text}, ?) > 0 OR t.id IN ({replied}))")
            params += [f.q.lower(), f.q.lower()]
        scoped: list[str] = []
        scoped_params: list[Any] = []
        for name in ("model", "setting"):
            value = getattr(f, name)
            if value:
                scoped.append(f"json_extract(data,'$.{name}') = ?")
                scoped_params.append(value)
        if f.metric or f.outcome:
            if f.metric:
                scoped.append("json_extract(data,'$.metric') = ?")
                scoped_params.append(f.metric)
            if f.outcome:
                value = "json_extract(data,'$.value')"
                scoped.append(
                    {"pass": f"{value} >= 0.5", "fail": f"{value} < 0.5", "none": f"{value} IS NULL"}[
                        f.outcome
                    ]
                )
            where.append(f"t.id IN (SELECT {_CASE} FROM scores WHERE {' AND '.join(scoped)})")
            params += scoped_params
        elif scoped:
            where.append(f"t.id IN (SELECT {_CASE} FROM responses WHERE {' AND '.join(scoped)})")
            params += scoped_params
        return (" WHERE " + " AND ".join(where)) if where else "", params

    def page(self, filters: Filters, page: int = 0, size: int = PAGE_SIZE) -> dict[str, Any]:
        """One page of matching test cases (id, family, variant, question, valid) and the total."""
        if not 0 <= page <= MAX_PAGE or not 1 <= size <= 500:  # SQLite's OFFSET is a 64-bit integer
            raise DataError(f"page must be 0 to {MAX_PAGE:,} and size between 1 and 500", field="page")
        where, params = self._where(filters)
        (total,) = self._rows(f"SELECT COUNT(*) FROM test_cases t{where}", params)[0]
        rows = self._rows(
            "SELECT t.id, json_extract(t.data,'$.family'), json_extract(t.data,'$.variant'), "
            f"json_extract(t.data,'$.question'), json_extract(t.data,'$.checks') FROM test_cases t{where} "
            "ORDER BY t.seq LIMIT ? OFFSET ?",
            [*params, size, page * size],
        )
        return {
            "total": int(total),
            "size": size,
            "page": page,
            "rows": [
                {
                    "id": case_id,
                    "family": family,
                    "variant": variant,
                    "question": question,
                    "valid": all(json.loads(checks or "{}").values()),
                }
                for case_id, family, variant, question, checks in rows
            ],
        }

    def case(self, case_id: str) -> dict[str, Any] | None:
        """One test case's drill-down payload, or None when the run has no such case."""
        found = self._rows("SELECT data FROM test_cases WHERE id = ?", [case_id])
        if not found:
            return None
        case = TestCase.model_validate_json(found[0][0])
        responses = [
            Response.model_validate_json(d)
            for (d,) in self._rows(f"SELECT data FROM responses WHERE {_CASE} = ? ORDER BY seq", [case_id])
        ]
        scores = [
            Score.model_validate_json(d)
            for (d,) in self._rows(f"SELECT data FROM scores WHERE {_CASE} = ? ORDER BY seq", [case_id])
        ]
        return case_payload(case, responses, scores, latest_labels(self.annotations(case_id)))

    def annotations(self, case_id: str | None = None) -> list[Annotation]:
        """Every annotation of the run (or of one test case), oldest first."""
        sql, params = "SELECT data FROM annotations", []
        if case_id is not None:
            sql, params = f"{sql} WHERE {_CASE} = ?", [case_id]
        return [Annotation.model_validate_json(d) for (d,) in self._rows(sql + " ORDER BY seq", params)]

    def annotate(self, target: str, target_id: str, label: str, note: str, who: str, when: str) -> Annotation:
        """Store a label of a response or a test case of this run; unknown ids are refused."""
        if target not in LABELS:
            raise DataError(f"unknown target {target!r}", field="target", hint="response or test_case")
        if target == "response":
            found = self._rows(f"SELECT {_CASE} FROM responses WHERE id = ?", [target_id])
        else:
            found = self._rows("SELECT id FROM test_cases WHERE id = ?", [target_id])
        if not found:
            raise DataError(f"this run has no {target} {target_id!r}", field="target_id")
        if label not in LABELS[target]:
            raise DataError(
                f"a {target} label is one of {', '.join(LABELS[target])}, got {label!r}", field="label"
            )
        note_ = Annotation.build(
            target,  # type: ignore[arg-type]
            target_id,
            str(found[0][0]),
            label,
            who=who,
            when=when,
            note=note,
        )
        self.store.put([note_])
        return note_


__all__ = ["INDEXES", "OUTCOMES", "PAGE_SIZE", "PATHS", "Filters", "RunIndex", "find_runs"]
