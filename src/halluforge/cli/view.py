"""``halluforge view [RUNS_DIR ...]``: browse runs, drill into test cases and label them."""

from __future__ import annotations

import argparse
import getpass
from typing import Any

DEFAULT_HOST = "127.0.0.1"


def add_parser(subparsers: Any) -> None:
    """Register ``view``."""
    view = subparsers.add_parser(
        "view",
        help="local web viewer over run directories: pages of test cases, drill-down, human labels",
        description="Serve the given run directories (or folders of them) on 127.0.0.1. Read-only "
        "except for labels, which are stored in each run's store with who and when.",
    )
    view.add_argument(
        "runs", nargs="*", default=["runs"], help="run directories or folders of runs (default: runs)"
    )
    view.add_argument(
        "--host", default=DEFAULT_HOST, help="address to bind (default 127.0.0.1: this machine only)"
    )
    view.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    view.add_argument("--who", help="your name on labels (default: the login name)")
    view.set_defaults(handler=handle_view)


def allowed_hosts(host: str) -> list[str]:
    """Host headers the server answers: loopback names when bound to loopback, any otherwise."""
    if host in (DEFAULT_HOST, "localhost", "::1"):
        return ["127.0.0.1", "localhost", "[::1]"]
    return ["*"]


def handle_view(args: argparse.Namespace) -> int:
    """Start the viewer and serve until interrupted."""
    from halluforge.errors import ConfigError
    from halluforge.viewer.app import create_app
    from halluforge.viewer.runs import find_runs

    try:
        import uvicorn
    except ImportError as exc:
        raise ConfigError("the viewer needs uvicorn", hint="pip install 'halluforge[view]'") from exc
    runs = find_runs(args.runs)
    who = args.who or getpass.getuser()
    app = create_app(runs, who=who, hosts=allowed_hosts(args.host))
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"halluforge view: {len(runs)} run(s) at http://{shown}:{args.port}/  (Ctrl-C stops)")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


def build_parser_defaults() -> dict[str, Any]:
    """The defaults of ``halluforge view`` (a test reads the bind address from here)."""
    from halluforge.cli.main import build_parser

    args = build_parser(["view"]).parse_args(["view"])
    return dict(vars(args))
