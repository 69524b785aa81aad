"""``halluforge view [RUNS_DIR ...]``: browse runs, drill into test cases and label them."""

from __future__ import annotations

import argparse
import errno
import getpass
import socket
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
    sock = bind(args.host, args.port)
    try:
        app = create_app(runs, who=who, hosts=allowed_hosts(args.host))
        shown = f"[{args.host}]" if ":" in args.host else args.host
        print(f"halluforge view: {len(runs)} run(s) at http://{shown}:{args.port}/  (Ctrl-C stops)")
        server = uvicorn.Server(uvicorn.Config(app, host=args.host, port=args.port, log_level="warning"))
        server.run(sockets=[sock])
    finally:
        sock.close()
    return 0


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``, or a clear ConfigError (port in use, bad address).

    Bound here rather than by uvicorn, whose own failure is a log line and ``sys.exit(1)``.
    """
    from halluforge.errors import ConfigError

    if not 0 <= port <= 65535:
        raise ConfigError(f"--port {port} is not a port number", hint="use a port from 1 to 65535")
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    except (OSError, UnicodeError) as exc:
        raise ConfigError(
            f"--host {host!r} is not an address this machine has ({exc})", hint="use 127.0.0.1"
        ) from None
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: no wait after a restart
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ConfigError(
                f"port {port} on {host} is in use by another program",
                hint=f"stop that program, or pass another port: --port {port + 1 if port < 65535 else 8765}",
            ) from None
        raise ConfigError(
            f"cannot listen on {host}:{port} ({exc.strerror or exc})", hint="choose another --host or --port"
        ) from None
    sock.set_inheritable(True)
    return sock


def build_parser_defaults() -> dict[str, Any]:
    """The defaults of ``halluforge view`` (a test reads the bind address from here)."""
    from halluforge.cli.main import build_parser

    args = build_parser(["view"]).parse_args(["view"])
    return dict(vars(args))
