"""Render a run's report as one self-contained HTML file (``report.html``).

The page holds the report model's sections (every table, caption and note, escaped with
:func:`html.escape`), the plots of :mod:`halluforge.reports.plots` drawn offline by the Vega
bundle that ``vl-convert-python`` ships, and a case browser (:mod:`halluforge.reports.cases`,
``assets/cases.js``) with filters and a per-case drill-down. Nothing is fetched: styles,
scripts and data are inline, so the file opens from disk, attached to a ticket or a paper.

Security: dataset text and model output are untrusted. Tables are escaped here; case and plot
data go into ``<script type="application/json">`` blocks with ``<``, ``>`` and ``&`` written
as JSON escapes, so no text can close the block; the browser code puts data in the page only
as text nodes. A Content-Security-Policy in the page allows exactly the page's own inline
scripts (by hash): an injected ``<script>`` or event-handler attribute would not run even
if one got through, and Vega runs with its expression interpreter (no ``eval``).
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import os
from collections.abc import Mapping
from importlib import resources
from typing import Any, cast

from halluforge.errors import ConfigError
from halluforge.family import Family
from halluforge.reports.model import Paragraph, Report, Section, Table
from halluforge.reports.plots import Plot
from halluforge.reports.sections import ReportInputs

_BUNDLE: dict[str, str] = {}


def asset(name: str) -> str:
    """One of the report's own static files (``reports/assets/``)."""
    return resources.files("halluforge.reports").joinpath("assets", name).read_text(encoding="utf-8")


def script_json(data: Any) -> str:
    r"""JSON that is safe inside a ``<script type="application/json">`` block.

    ``<``, ``>`` and ``&`` become ``\\u003c``-style escapes, so ``</script>`` or ``<!--`` in
    any string cannot end or change the block; ``JSON.parse`` reads them back unchanged.
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (
        text.replace("&", "\\u0026")
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def inline_script(code: str) -> str:
    """JavaScript made safe to inline: a ``</script`` or ``<!--`` inside it is escaped."""
    return code.replace("</script", "<\\/script").replace("</SCRIPT", "<\\/SCRIPT").replace("<!--", "<\\!--")


def vega_bundle() -> str | None:
    """The Vega, Vega-Lite and vega-embed bundle of ``vl-convert-python``, or None when absent.

    Building it takes seconds, so it is cached in memory and under the halluforge cache
    folder (``$HALLUFORGE_CACHE_DIR``, else ``~/.cache/halluforge``) per vl-convert version.
    """
    try:
        from importlib.metadata import version

        import vl_convert
    except ImportError:
        return None
    key = version("vl-convert-python")
    if key in _BUNDLE:
        return _BUNDLE[key]
    from halluforge.backends.cache import default_cache_path

    path = default_cache_path().parent / "vega" / f"bundle-{key}.js"
    if path.is_file():
        bundle = path.read_text(encoding="utf-8")
    else:
        bundle = str(cast(Any, vl_convert).javascript_bundle())  # its stub wrongly requires a snippet
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(bundle, encoding="utf-8")
            tmp.replace(path)
        except OSError:
            pass  # a read-only cache only costs the next report the build time
    _BUNDLE[key] = bundle
    return bundle


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def render_table(table: Table) -> str:
    """One report table as HTML, with its heading, caption and notes."""
    parts = []
    if table.title:
        parts.append(f"<h3>{_e(table.title)}</h3>")
    heads = "".join(
        f'<th class="{"num" if table.alignment(i) == "right" else ""}">{_e(c)}</th>'
        for i, c in enumerate(table.columns)
    )
    strong = set(table.strong)
    body = []
    for r, row in enumerate(table.rows):
        cells = []
        for c, value in enumerate(row):
            text = f"<strong>{_e(value)}</strong>" if (r, c) in strong else _e(value)
            cells.append(f'<td class="{"num" if table.alignment(c) == "right" else ""}">{text}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    parts.append(f"<table><thead><tr>{heads}</tr></thead><tbody>{''.join(body)}</tbody></table>")
    if table.caption:
        parts.append(f'<p class="caption">{_e(table.caption)}</p>')
    if table.notes:
        parts.append('<ul class="notes">' + "".join(f"<li>{_e(n)}</li>" for n in table.notes) + "</ul>")
    return "\n".join(parts)


def render_block(block: Paragraph | Table) -> str:
    """One block of a section as HTML."""
    if isinstance(block, Table):
        return render_table(block)
    text = _e(block.text)
    return f"<p><strong>{text}</strong></p>" if block.strong else f"<p>{text}</p>"


def render_section(section: Section, anchor: str) -> str:
    """A section: its heading and its blocks."""
    level = min(max(section.level, 2), 4)
    blocks = "\n".join(render_block(b) for b in section.blocks)
    return f'<section id="{anchor}"><h{level}>{_e(section.title)}</h{level}>\n{blocks}</section>'


def _csp(scripts: list[str]) -> str:
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode("utf-8")).digest()).decode() + "'"
        for s in scripts
    )
    return (
        f"default-src 'none'; script-src {hashes}; style-src 'unsafe-inline'; img-src data:; "
        "base-uri 'none'; form-action 'none'"
    )


def render_html(
    report: Report,
    *,
    plots: list[Plot],
    cases: dict[str, Any] | None,
    plot_note: str | None = None,
) -> str:
    """The whole report page: sections, plots and the case browser, with no external resource."""
    sections = [render_section(s, f"s{i}") for i, s in enumerate(report.sections)]
    nav = [f'<a href="#s{i}">{_e(s.title)}</a>' for i, s in enumerate(report.sections)]
    bundle = vega_bundle() if plots else None
    plot_html = []
    if plots and bundle is None:
        plot_note = plot_note or "Plots need vl-convert-python: pip install 'halluforge[report]'."
    for i, plot in enumerate(plots if bundle else []):
        plot_html.append(
            f'<figure class="plot"><figcaption><strong>{_e(plot.title)}</strong></figcaption>'
            f'<div class="vega" id="plot-{i}"></div><figcaption>{_e(plot.caption)}</figcaption></figure>'
        )
    note_html = f'<p class="muted">{_e(plot_note)}</p>' if plot_note else ""
    plots_section = (
        f'<section id="plots"><h2>Plots</h2>{note_html}'
        f'<div class="plots">{"".join(plot_html)}</div></section>'
    )
    cases_section = ""
    nav.insert(0, '<a href="#plots">Plots</a>')
    if cases is not None:
        nav.append('<a href="#cases">Test cases</a>')
        shown = f"{cases['shown']:,} of {cases['total']:,}"
        note = (
            f"Showing {shown} test cases: a deterministic sample that keeps every family (raise it with "
            "`halluforge report RUN_DIR --html --max-cases N`, or page through all of them with "
            "`halluforge view RUN_DIR`)."
            if cases["sampled"]
            else f"All {cases['total']:,} test cases."
        )
        cases_section = (
            f'<section id="cases"><h2>Test cases</h2><p class="muted" id="case-note">{_e(note)}</p>'
            '<div id="case-browser"></div></section>'
        )
    scripts = [inline_script(bundle)] if bundle else []
    scripts += [inline_script(asset("cases.js")), inline_script(asset("report.js"))]
    specs = [p.spec for p in plots] if bundle else []
    data_blocks = [f'<script type="application/json" id="hf-plots">{script_json(specs)}</script>']
    if cases is not None:
        data_blocks.append(f'<script type="application/json" id="hf-cases">{script_json(cases)}</script>')
    return "\n".join(
        [
            "<!doctype html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{_csp(scripts)}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{_e(report.title)}</title>",
            f"<style>{asset('style.css')}</style>",
            "</head><body>",
            f'<header class="top"><h1>{_e(report.title)}</h1><nav>{"".join(nav)}</nav></header>',
            "<main>",
            plots_section,
            *sections,
            cases_section,
            "</main>",
            *data_blocks,
            *(f"<script>{s}</script>" for s in scripts),
            "</body></html>",
        ]
    )


def report_page(
    inputs: ReportInputs, report: Report, families: Mapping[str, Family], *, max_cases: int | None = None
) -> str:
    """``report.html`` of a run: the report, its plots (when Altair is installed) and the case browser."""
    from halluforge.reports.cases import MAX_CASES, report_cases
    from halluforge.reports.plots import run_plots

    joined = inputs.joined
    note = None
    try:
        plots = run_plots(inputs.summary, joined, families, report.figures.get("analyses", {}))
    except ConfigError as exc:
        plots, note = [], f"No plots: {exc}"
    browser = report_cases(
        list(joined.cases.values()),
        joined.responses.values(),
        joined.scores,
        inputs.annotations,
        max_cases=MAX_CASES if max_cases is None else max_cases,
    )
    return render_html(report, plots=plots, cases=browser, plot_note=note)


__all__ = [
    "asset",
    "inline_script",
    "render_html",
    "render_table",
    "report_page",
    "script_json",
    "vega_bundle",
]
