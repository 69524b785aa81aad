"""The viewer's web app (FastAPI): runs, pages of test cases, drill-down and annotations.

Routes (all under one origin, bound to 127.0.0.1 unless ``--host`` says otherwise):

- ``GET /`` the viewer page; ``GET /static/{name}`` its own stylesheet and scripts;
- ``GET /api/runs``; ``GET /api/runs/{run}/facets``; ``GET /api/runs/{run}/cases`` (filters
  and ``page``); ``GET /api/runs/{run}/cases/{id}``; ``GET /api/runs/{run}/annotations``;
- ``POST /api/runs/{run}/annotations`` the only write: one label, stored in the run store;
- ``GET /runs/{run}/files/{name}`` the run's own result files (report.html, summary.md, ...).

Safety: only run directories named on the command line are served, and in them only files
whose resolved path stays inside the run directory and whose suffix is a result file's (a
``..`` path gets 404). Every page carries a Content-Security-Policy that allows only the
viewer's own scripts and styles (``report.html`` keeps its own hash-based policy and is
sandboxed). The API returns JSON only; the page shows data as text. A write must be JSON from
this origin, so another site cannot post a label through the user's browser, and the Host
header must be the one served (no DNS rebinding).
"""

# no `from __future__ import annotations`: FastAPI reads the handlers' annotations at runtime,
# and the FastAPI names are imported inside create_app (lazily, behind the `view` extra)
import contextlib
import datetime as dt
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from halluforge.errors import DataError
from halluforge.reports.html import asset
from halluforge.viewer.runs import Filters, RunIndex


class LabelIn(BaseModel):
    """What the viewer page sends to label a response or a test case."""

    model_config = ConfigDict(extra="forbid")

    target: str
    target_id: str
    label: str
    note: str = ""
    who: str = ""


CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
#: report.html checks its own inline scripts by hash; it runs sandboxed, away from the API
REPORT_CSP = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
    "base-uri 'none'; form-action 'none'; sandbox allow-scripts"
)
STATIC = {"style.css": "text/css", "cases.js": "text/javascript", "viewer.js": "text/javascript"}
RUN_FILES = {
    ".html": "text/html",
    ".md": "text/markdown",
    ".json": "application/json",
    ".jsonl": "text/plain",
}


def _static(name: str) -> str:
    if name == "viewer.js":
        from importlib import resources

        return resources.files("halluforge.viewer").joinpath("viewer.js").read_text(encoding="utf-8")
    return asset(name)


def create_app(runs: dict[str, Path], *, who: str = "anonymous", hosts: list[str] | None = None) -> Any:
    """The FastAPI app over ``runs`` (name -> run directory); ``who`` is the default annotator."""
    try:
        from fastapi import FastAPI, HTTPException, Request
        from fastapi.middleware.trustedhost import TrustedHostMiddleware
        from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
    except ImportError as exc:
        from halluforge.errors import ConfigError

        raise ConfigError(
            "the viewer needs FastAPI and uvicorn", hint="pip install 'halluforge[view]'"
        ) from exc
    indexes = {name: RunIndex(name, path) for name, path in runs.items()}

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        yield
        for index in indexes.values():
            index.close()

    app = FastAPI(title="halluforge view", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    app.state.indexes = indexes
    if hosts:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=hosts)

    @app.middleware("http")
    async def headers(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        response = await call_next(request)
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Cache-Control"] = "no-store"
        return response

    def index_of(run: str) -> RunIndex:
        if run not in indexes:
            raise HTTPException(404, "no such run")
        return indexes[run]

    @app.exception_handler(DataError)
    async def bad_input(request: Request, exc: DataError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    @app.get("/", response_class=HTMLResponse)
    def page() -> HTMLResponse:
        from importlib import resources

        text = resources.files("halluforge.viewer").joinpath("viewer.html").read_text(encoding="utf-8")
        return HTMLResponse(text)

    @app.get("/static/{name}")
    def static(name: str) -> Response:
        if name not in STATIC:
            raise HTTPException(404)
        return Response(_static(name), media_type=STATIC[name])

    @app.get("/api/config")
    def config() -> dict[str, str]:
        return {"who": who}

    @app.get("/api/runs")
    def list_runs() -> list[dict[str, Any]]:
        return [
            {"name": name, **index.counts(), "report": (index.run_dir / "report.html").is_file()}
            for name, index in indexes.items()
        ]

    @app.get("/api/runs/{run}/facets")
    def facets(run: str) -> dict[str, list[str]]:
        return index_of(run).facets()

    @app.get("/api/runs/{run}/cases")
    def cases(
        run: str,
        family: str = "",
        model: str = "",
        setting: str = "",
        metric: str = "",
        outcome: str = "",
        path: str = "",
        q: str = "",
        page: int = 0,
        size: int = 50,
    ) -> dict[str, Any]:
        filters = Filters(family, model, setting, metric, outcome, path, q)
        return index_of(run).page(filters, page, size)

    @app.get("/api/runs/{run}/cases/{case_id}")
    def case(run: str, case_id: str) -> dict[str, Any]:
        found = index_of(run).case(case_id)
        if found is None:
            raise HTTPException(404, "no such test case")
        return found

    @app.get("/api/runs/{run}/annotations")
    def annotations(run: str) -> list[dict[str, Any]]:
        return [a.model_dump(mode="json") for a in index_of(run).annotations()]

    @app.post("/api/runs/{run}/annotations", status_code=201)
    async def annotate(run: str, request: Request) -> dict[str, Any]:
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            raise HTTPException(415, "send JSON")
        origin = request.headers.get("origin")
        if origin is not None and origin.split("://", 1)[-1] != request.headers.get("host"):
            raise HTTPException(403, "labels are accepted from the viewer's own page only")
        try:
            body = LabelIn.model_validate_json(await request.body())
        except ValidationError as exc:
            raise HTTPException(400, f"bad label: {exc.errors()[0]['msg']}") from None
        when = dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")
        note = index_of(run).annotate(
            body.target, body.target_id, body.label, body.note[:5000], (body.who or who)[:200], when
        )
        return note.model_dump(mode="json")

    @app.get("/runs/{run}/files/{name:path}")
    def run_file(run: str, name: str) -> FileResponse:
        root = index_of(run).run_dir.resolve()
        try:  # a NUL or an over-long name cannot be a run file: 404, not a 500 from the OS
            target = (root / name).resolve()
            served = target.is_relative_to(root) and target.is_file() and target.suffix in RUN_FILES
        except (ValueError, OSError):
            served = False
        if not served:
            raise HTTPException(404)
        headers = {"Content-Security-Policy": REPORT_CSP if target.suffix == ".html" else CSP}
        return FileResponse(target, media_type=RUN_FILES[target.suffix], headers=headers)

    return app


__all__ = ["CSP", "REPORT_CSP", "create_app"]
