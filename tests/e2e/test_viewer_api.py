"""The viewer's API over a real run store: pages, filters, drill-down, labels and what it refuses."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from extra_skips import hide, require
from halluforge.cli.main import main
from halluforge.cli.view import allowed_hosts, build_parser_defaults
from halluforge.errors import DataError
from halluforge.records import Annotation, Response, TestCase
from halluforge.store import RunStore
from halluforge.viewer.app import CSP, create_app
from halluforge.viewer.runs import find_runs

if TYPE_CHECKING:
    from fastapi.testclient import TestClient


@pytest.fixture
def run_copy(demo_run: Path, tmp_path: Path) -> Path:
    target = tmp_path / "runs" / "demo"
    shutil.copytree(demo_run, target)
    return target


@pytest.fixture
def client(run_copy: Path) -> Iterator[TestClient]:
    require("view", "fastapi")
    from fastapi.testclient import TestClient

    app = create_app(find_runs([run_copy.parent]), who="tester", hosts=allowed_hosts("127.0.0.1"))
    with TestClient(app, base_url="http://127.0.0.1:8765") as test_client:
        yield test_client


def test_lists_runs_and_pages_of_cases(client: TestClient) -> None:
    runs = client.get("/api/runs").json()
    assert runs == [{"name": "demo", "test_cases": 24, "responses": 192, "annotations": 0, "report": True}]
    first = client.get("/api/runs/demo/cases", params={"size": 10}).json()
    assert first["total"] == 24 and len(first["rows"]) == 10
    second = client.get("/api/runs/demo/cases", params={"size": 10, "page": 2}).json()
    assert len(second["rows"]) == 4
    facets = client.get("/api/runs/demo/facets").json()
    assert facets["families"] == ["answer_swap", "original"] and "mock/echo" in facets["models"]


def test_filters_narrow_the_cases(client: TestClient, run_copy: Path) -> None:
    def total(**params: str) -> int:
        return int(client.get("/api/runs/demo/cases", params=params).json()["total"])

    assert total(family="original") == 12
    assert total(path="fallback") == 12  # every answer_swap case used a rule fallback here
    assert total(path="llm") == 0
    # mock/const:Paris never gets a hit; mock/echo repeats the evidence so it always does
    assert total(model="mock/const:Paris", metric="hit", outcome="pass") == 0
    assert total(model="mock/echo", setting="open_book", metric="hit", outcome="pass") == 24
    assert total(metric="entail", outcome="none") == 24  # no NLI model: entailment not computed
    assert total(q="MONA lisa") == 2
    assert total(q="answer the question using what you know") == 24  # searches replies too
    assert client.get("/api/runs/demo/cases", params={"outcome": "maybe"}).status_code == 400


def test_case_drill_down_and_unknown_ids(client: TestClient, run_copy: Path) -> None:
    store = RunStore(run_copy)
    case = next(c for c in store.all(TestCase) if c.family == "answer_swap")
    store.close()
    found = client.get(f"/api/runs/demo/cases/{case.id}").json()
    assert found["question"] == case.question and found["edits"][0]["kind"] == "answer"
    assert len(found["responses"]) == 8 and all(r["scores"] for r in found["responses"])
    assert client.get("/api/runs/demo/cases/nope").status_code == 404
    assert client.get("/api/runs/other/cases").status_code == 404


def test_a_label_is_stored_with_who_and_when(client: TestClient, run_copy: Path) -> None:
    store = RunStore(run_copy)
    response = store.all(Response)[0]
    store.close()
    sent = client.post(
        "/api/runs/demo/annotations",
        json={"target": "response", "target_id": response.id, "label": "hallucinated", "note": "<b>x</b>"},
    )
    assert sent.status_code == 201, sent.text
    assert sent.json()["who"] == "tester" and sent.json()["test_case_id"] == response.test_case_id
    store = RunStore(run_copy)
    stored = store.all(Annotation)
    store.close()
    assert [(a.target_id, a.label, a.note, a.who) for a in stored] == [
        (response.id, "hallucinated", "<b>x</b>", "tester")
    ]
    case = client.get(f"/api/runs/demo/cases/{response.test_case_id}").json()
    mine = next(r for r in case["responses"] if r["id"] == response.id)
    assert mine["label"]["label"] == "hallucinated"


def test_bad_or_foreign_label_requests_are_refused(client: TestClient, run_copy: Path) -> None:
    store = RunStore(run_copy)
    response = store.all(Response)[0]
    store.close()
    url = "/api/runs/demo/annotations"
    body = {"target": "response", "target_id": response.id, "label": "valid"}
    assert client.post(url, json=body).status_code == 400  # a response is not valid/invalid
    body["label"] = "faithful"
    assert client.post(url, json={**body, "target_id": "nope"}).status_code == 400
    form = client.post(url, content='{"target": "response"}', headers={"Content-Type": "text/plain"})
    assert form.status_code in (415, 422)
    other_site = client.post(url, json=body, headers={"Origin": "http://evil.example"})
    assert other_site.status_code == 403
    assert client.post(url, json=body, headers={"Origin": "http://127.0.0.1:8765"}).status_code == 201


@pytest.mark.parametrize(
    "path",
    [
        "/runs/demo/files/%2e%2e/%2e%2e/etc/passwd",
        "/runs/demo/files/..%2f..%2fetc%2fpasswd",
        "/runs/demo/files/store.sqlite",
        "/runs/demo/files/nope.html",
        "/runs/%2e%2e/files/report.html",
        "/static/../store.sqlite",
        "/static/app.py",
        "/runs/demo/files/report%00.html",  # a NUL in the name: not a file, and no 500
        "/runs/demo/files/" + "a" * 5000 + ".html",  # longer than a file name may be
    ],
)
def test_only_run_result_files_are_served(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 404


@pytest.mark.parametrize("page", [2**63, 2**64, 10**30, -1])
def test_a_page_past_64_bits_is_a_client_error(client: TestClient, page: int) -> None:
    answer = client.get("/api/runs/demo/cases", params={"page": page, "size": 50})
    assert answer.status_code == 400, answer.text
    assert "page" in answer.json()["detail"]


def test_every_response_carries_the_csp(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-security-policy"] == CSP
    assert "'unsafe-inline'" not in CSP and "'unsafe-eval'" not in CSP
    report = client.get("/runs/demo/files/report.html")
    assert report.status_code == 200 and "sandbox allow-scripts" in report.headers["content-security-policy"]
    assert client.get("/api/runs").headers["x-content-type-options"] == "nosniff"


def test_foreign_host_headers_are_refused(client: TestClient) -> None:
    assert client.get("/api/runs", headers={"Host": "evil.example"}).status_code == 400


def test_binds_to_loopback_unless_told(tmp_path: Path) -> None:
    assert build_parser_defaults()["host"] == "127.0.0.1"
    assert allowed_hosts("0.0.0.0") == ["*"]
    with pytest.raises(DataError):
        find_runs([tmp_path])


def test_without_the_view_extra_the_command_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    hide(monkeypatch, "uvicorn", "fastapi")
    assert main(["view", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    (line,) = [x for x in err.splitlines() if x.startswith("error:")]
    assert "the viewer needs" in line and "pip install 'halluforge[view]'" in line
