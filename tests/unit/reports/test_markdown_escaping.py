"""Every cell of ``summary.md`` is Markdown- and HTML-escaped: checked by rendering it with a
real CommonMark parser (markdown-it-py, which rich already depends on) and reading the HTML."""

from __future__ import annotations

import re

import pytest

from halluforge.reports.markdown import cell_text, render_markdown
from halluforge.reports.model import Paragraph, Report, Section, Table

markdown_it = pytest.importorskip("markdown_it")

HOSTILE = [
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script>",
    "[click](javascript:alert(1))",
    "![pic](http://x/y.png)",
    "**bold** and *em* and _em_",
    "`code` | extra | columns",
    "~~struck~~ &amp; &lt;b&gt;",
    "line one\nline two\r\n| --- |",
    "back\\slash\\|pipe",
]


def _html(markdown: str) -> str:
    return str(markdown_it.MarkdownIt("commonmark").enable("table").enable("strikethrough").render(markdown))


def _report(texts: list[str]) -> Report:
    table = Table(
        title="Scores",
        columns=["model", "value"],
        rows=[[text, "0.5 [0.2, 0.7]"] for text in texts],
        notes=texts,
    )
    return Report(
        title="halluforge summary",
        sections=[Section(title="Results", blocks=[table, *(Paragraph(text=t) for t in texts)])],
    )


def test_no_tag_link_emphasis_or_column_comes_from_a_cell() -> None:
    html = _html(render_markdown(_report(HOSTILE)))
    for tag in ("<img", "<script", "<a ", "<strong>", "<em>", "<code>", "<s>", "<del>", "<b>"):
        assert tag not in html, tag
    rows = re.findall(r"<tr>(.*?)</tr>", html, flags=re.DOTALL)
    assert len(rows) == 1 + len(HOSTILE)
    for row in rows:
        assert len(re.findall(r"<t[dh][ >]", row)) == 2  # no cell grows a column


def test_cells_read_back_as_the_original_text() -> None:
    html = _html(render_markdown(_report(HOSTILE)))
    # the browser shows the text as given (line breaks become spaces)
    shown = re.findall(r"<td>(.*?)</td>", html)
    originals = [" ".join(t.splitlines()) for t in HOSTILE]
    unescaped = [
        s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
        for s in shown
    ]
    for original in originals:
        assert original in unescaped


def test_ordinary_text_stays_readable() -> None:
    assert cell_text("closed_book") == "closed_book"
    assert cell_text("0.437 [0.41, 0.46]") == "0.437 [0.41, 0.46]"
    assert cell_text("-0.5") == "-0.5"
    assert cell_text("llamacpp/smollm2-135m") == "llamacpp/smollm2-135m"
