from pathlib import Path

import pytest

from halluforge.errors import StoreError
from halluforge.records import Example, Response, stable_id
from halluforge.store import RunStore


def _response(n: int, error: str | None = None) -> Response:
    return Response(id=f"r{n}", test_case_id="t", model="m", setting="open_book", text=str(n), error=error)


def test_put_is_idempotent(tmp_path: Path) -> None:
    store = RunStore(tmp_path)
    assert store.put([_response(1), _response(2)]) == 2
    assert store.put([_response(1), _response(2)]) == 0
    assert store.count(Response) == 2
    assert [r.id for r in store.all(Response)] == ["r1", "r2"]


def test_failed_rows_are_replaced_successes_kept(tmp_path: Path) -> None:
    store = RunStore(tmp_path)
    store.put([_response(1, error="boom")])
    assert store.ids(Response, include_failed=False) == set()
    store.put([_response(1)])
    (row,) = store.all(Response)
    assert row.error is None
    store.put([_response(1, error="late failure")])
    (row,) = store.all(Response)
    assert row.error is None


def test_reopen_keeps_rows_and_done_marks(tmp_path: Path) -> None:
    store = RunStore(tmp_path)
    example = Example.build("q?", ["a"], "evidence", source="s")
    store.put([example])
    store.mark_done("forge:x", ["k1", "k1", "k2"])
    store.close()
    again = RunStore(tmp_path)
    assert again.all(Example) == [example]
    assert again.done_keys("forge:x") == {"k1", "k2"}


def test_export_jsonl(tmp_path: Path) -> None:
    store = RunStore(tmp_path)
    store.put([_response(1), _response(2)])
    out = tmp_path / "r.jsonl"
    assert store.export_jsonl(Response, out) == 2
    assert len(out.read_text().splitlines()) == 2


def test_corrupt_store_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "store.sqlite").write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match=r"store\.sqlite"):
        RunStore(tmp_path)


def test_stable_id_is_deterministic() -> None:
    assert stable_id("a", 1, ["x"]) == stable_id("a", 1, ["x"])
    assert stable_id("a", 1) != stable_id("a", 2)


def test_export_writes_the_stored_json_and_failed_flags(tmp_path: Path) -> None:
    import json

    store = RunStore(tmp_path / "run")
    ok = Response(id="r1", test_case_id="t", model="m", setting="open_book", text="Paris")
    bad = Response(id="r2", test_case_id="t", model="m", setting="open_book", error="Timeout: slow")
    store.put([ok, bad])
    assert store.ids(Response, include_failed=False) == {"r1"}
    out = tmp_path / "responses.jsonl"
    assert store.export_jsonl(Response, out) == 2
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [Response.model_validate(r) for r in rows] == [ok, bad]
    # a retried response replaces the failed row, and only the failed one
    fixed = bad.model_copy(update={"error": None, "text": "Lyon"})
    store.put([fixed, ok.model_copy(update={"text": "changed"})])
    assert {r.id: r.text for r in store.iter(Response)} == {"r1": "Paris", "r2": "Lyon"}


def test_parsed_records_follow_inserts_replacements_and_other_connections(tmp_path: Path) -> None:
    """The store keeps parsed responses between reads; they must never go stale."""
    store = RunStore(tmp_path)
    store.put([_response(1, error="boom"), _response(2)])
    first = store.all(Response)
    assert [(r.id, r.error) for r in first] == [("r1", "boom"), ("r2", None)]
    assert store.all(Response)[1] is first[1]  # parsed once
    store.put([_response(3)])
    assert [r.id for r in store.all(Response)] == ["r1", "r2", "r3"]
    store.put([_response(1)])  # replaces the failed row in place
    assert [(r.id, r.error) for r in store.all(Response)] == [("r1", None), ("r2", None), ("r3", None)]
    store.put([_response(2), _response(4)])  # r2 is ignored, r4 inserted
    assert [r.id for r in store.all(Response)] == ["r1", "r2", "r3", "r4"]
    other = RunStore(tmp_path)  # e.g. the viewer, or a second process
    other.put([_response(5)])
    other._db.execute('UPDATE responses SET data=replace(data, \'"text":"3"\', \'"text":"three"\')')
    other._db.commit()
    other.close()
    assert [r.text for r in store.all(Response)] == ["1", "2", "three", "4", "5"]


def test_records_written_to_an_empty_table_are_read_back_without_parsing(tmp_path: Path) -> None:
    store = RunStore(tmp_path)
    written = [_response(1), _response(2)]
    store.put(written)
    read = store.all(Response)
    assert read == written and read[0] is written[0]
    assert read is not store.all(Response)  # callers get their own list
