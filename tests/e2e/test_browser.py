"""The report and the viewer in real headless Chromium (screenshots: see ``SHOTS`` in e2e_support).

The report opens from a file URL with every non-file request blocked; the viewer runs as
``halluforge view`` in a subprocess. Each test listens for dialogs, script errors, console
errors (a CSP violation is one) and outside requests, and fails on any.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from e2e_support import SHOTS, XSS_PAYLOADS, Watch, cli_env

from extra_skips import reason
from halluforge.records import Annotation, Response, TestCase
from halluforge.store import RunStore

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api", reason=reason("dev", "playwright")).expect


def _open_report(page: Any, run: Path) -> Watch:
    watch = Watch(page)
    page.goto((run / "report.html").as_uri())
    page.wait_for_selector("#case-browser[data-ready=true]")
    expect(page.locator(".vega:not([data-rendered])")).to_have_count(0, timeout=30_000)
    return watch


def test_report_opens_offline_with_tables_plots_and_a_drill_down(page: Any, demo_run: Path) -> None:
    watch = _open_report(page, demo_run)
    rendered = page.eval_on_selector_all(
        ".vega", "els => els.map(e => [e.dataset.rendered, !!e.querySelector('svg')])"
    )
    assert len(rendered) >= 3 and all(r == ["true", True] for r in rendered), rendered
    assert page.locator("main table").count() >= 8
    assert page.get_by_text("Test cases by provenance path").is_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "report.png"))
    # drill into a forged case: the swapped answer is highlighted in the forged context
    page.select_option("select[name=family]", "answer_swap")
    page.click(".filters button[type=submit]")
    expect(page.locator(".pager .count")).to_have_text(re.compile(r"^12 test cases"))
    page.click("#case-browser tr.row >> nth=0")
    mark = page.locator(".detail mark.edit").first
    mark.wait_for()
    case_id = page.get_attribute(".detail", "data-case-id")
    store = RunStore(demo_run)
    try:
        case = next(c for c in store.all(TestCase) if c.id == case_id)
    finally:
        store.close()
    assert mark.text_content() == case.edits[0].new
    assert page.locator(".detail mark.old").first.is_visible()
    assert page.locator(".detail .response").count() == 8
    page.locator("#cases").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "report-case.png"))
    # full-text search over replies narrows the list
    page.fill("input[name=q]", "mona lisa")
    page.click(".filters button[type=submit]")
    expect(page.locator(".pager .count")).to_have_text(re.compile(r"^1 test cases"))
    watch.assert_clean()


def _raw_get(base: str, path: str) -> str:
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        return sock.recv(200).decode("latin-1").splitlines()[0]


def test_viewer_lists_filters_and_stores_a_label(page: Any, viewer: tuple[str, Path]) -> None:
    base, runs = viewer
    watch = Watch(page, allowed_origin=base)
    page.goto(base + "/")
    page.wait_for_selector("#run-list[data-ready=true]")
    assert sorted(page.eval_on_selector_all("tr.run", "rows => rows.map(r => r.dataset.run)")) == [
        "demo",
        "xss",
    ]
    page.click("tr.run[data-run=demo] button")
    page.wait_for_selector("#case-browser[data-ready=true]")
    page.select_option("select[name=family]", "original")
    page.click(".filters button[type=submit]")
    expect(page.locator(".pager .count")).to_have_text(re.compile(r"^12 test cases"))
    page.click("#case-browser tr.row >> nth=0")
    first = page.locator(".detail .response").first
    first.wait_for()
    response_id = first.get_attribute("data-response-id")
    first.locator("input[value=hallucinated]").check()
    first.locator("textarea").fill("made up <b>bold</b>")
    first.locator("button[type=submit]").click()
    first.locator(".status.saved").wait_for()
    first.screenshot(path=str(SHOTS / "viewer-label.png"))
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / "viewer.png"))
    store = RunStore(runs / "demo")
    try:
        stored = store.all(Annotation)
    finally:
        store.close()
    assert [(a.target_id, a.label, a.note, a.who) for a in stored] == [
        (response_id, "hallucinated", "made up <b>bold</b>", "tester")
    ]
    # the server refuses a path that climbs out of the run directory, sent as is
    assert " 404 " in _raw_get(base, "/runs/demo/files/../../demo/store.sqlite")
    assert " 404 " in _raw_get(base, "/runs/demo/files/%2e%2e/%2e%2e/etc/passwd")
    watch.assert_clean()


def _no_live_markup(page: Any) -> None:
    live = page.evaluate(
        """() => {
        const bad = [];
        for (const el of document.querySelectorAll('*')) {
          for (const attr of el.attributes) {
            if (attr.name.startsWith('on')) bad.push(el.tagName + ' ' + attr.name);
            if (/^\\s*javascript:/i.test(attr.value)) bad.push(el.tagName + ' ' + attr.value);
          }
        }
        const foreign = 'iframe, object, embed, math, img:not([src^="data:"])';
        for (const el of document.querySelectorAll(foreign)) bad.push(el.tagName);
        return bad;
    }"""
    )
    assert live == []


def test_xss_payloads_stay_text_in_the_report(page: Any, xss_run: Path) -> None:
    html = (xss_run / "report.html").read_text(encoding="utf-8")
    for payload in XSS_PAYLOADS:
        if "<" in payload:
            assert payload not in html, payload
    watch = _open_report(page, xss_run)
    assert page.locator("script").count() == 5  # the two data blocks and the page's three scripts
    rows = page.locator("#case-browser tr.row")
    assert rows.count() == len(XSS_PAYLOADS)
    for i in range(rows.count()):
        rows.nth(i).click()
        page.locator(
            f'.detail[data-case-id="{rows.nth(i).get_attribute("data-case-id")}"] .text.reply'
        ).first.wait_for()
        page.locator(".detail details").first.evaluate("d => d.open = true")
        _no_live_markup(page)
    questions = page.eval_on_selector_all("#case-browser button.open", "bs => bs.map(b => b.textContent)")
    assert sorted(questions) == sorted(f"Who built {p} the tower {i}?" for i, p in enumerate(XSS_PAYLOADS))
    watch.assert_clean()


def test_xss_payloads_stay_text_in_annotation_notes(page: Any, viewer: tuple[str, Path]) -> None:
    base, runs = viewer
    watch = Watch(page, allowed_origin=base)
    page.goto(base + "/")
    page.wait_for_selector("#run-list[data-ready=true]")
    page.click("tr.run[data-run=xss] button")
    page.wait_for_selector("#case-browser[data-ready=true]")
    store = RunStore(runs / "xss")
    first_of_case = {r.test_case_id: r for r in reversed(store.all(Response))}
    store.close()
    assert len(first_of_case) == len(XSS_PAYLOADS)
    # one label per case, each carrying a payload, sent from the page as the viewer sends them
    for response, payload in zip(first_of_case.values(), XSS_PAYLOADS, strict=True):
        body = {
            "target": "response",
            "target_id": response.id,
            "label": "faithful",
            "note": payload,
            "who": payload,
        }
        status = page.evaluate(
            """([url, body]) => fetch(url, {method: 'POST', headers: {'Content-Type': 'application/json'},
                body: JSON.stringify(body)}).then(r => r.status)""",
            [f"{base}/api/runs/xss/annotations", body],
        )
        assert status == 201
    rows = page.locator("#case-browser tr.row")
    assert rows.count() == len(XSS_PAYLOADS)
    for i in range(rows.count()):
        rows.nth(i).click()
        case_id = rows.nth(i).get_attribute("data-case-id")
        page.locator(f'.detail[data-case-id="{case_id}"] .badge.human').first.wait_for()
        _no_live_markup(page)
    watch.assert_clean()
    # the labels reach the report's case data and the agreement section: still only text there
    subprocess.run([sys.executable, "-m", "halluforge.cli.main", "report", str(runs / "xss")], check=True,
                   env=cli_env(), capture_output=True)  # fmt: skip
    html = (runs / "xss" / "report.html").read_text(encoding="utf-8")
    for payload in XSS_PAYLOADS:
        if "<" in payload:
            assert payload not in html, payload
    again = _open_report(page, runs / "xss")
    page.locator("#case-browser tr.row").first.click()
    page.locator(".detail .badge.human").first.wait_for()
    _no_live_markup(page)
    again.assert_clean()
