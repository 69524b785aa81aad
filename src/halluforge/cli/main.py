"""Entry point of the ``halluforge`` command.

The CLI is thin: each command group lives in its own module under ``halluforge.cli`` and
exposes ``add_parser(subparsers)``; a handler parses, calls the library, prints. Modules are
imported here but keep heavy imports inside their handlers, so ``halluforge --help`` is
instant. Any :class:`~halluforge.errors.HalluforgeError` or ``OSError`` is printed as one
``error:`` line without a traceback and exits with its code (2 for user errors); any other
exception is a bug, printed the same way with exit code 1. ``--debug`` adds the traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
import traceback
from collections.abc import Sequence

from halluforge import __version__
from halluforge.errors import HalluforgeError

#: command-group modules; each defines add_parser(subparsers). Families add their own
#: (:attr:`halluforge.family.Components.commands`, e.g. INVITE's ``judge``) after these.
COMMAND_MODULES = (
    "halluforge.cli.run",
    "halluforge.cli.index",
    "halluforge.cli.export",
    "halluforge.cli.view",
)


#: the commands the built-in groups define (checked by a test), so a command line that names
#: one builds its parser without loading every family spec
BUILT_IN = frozenset({"run", "config", "list", "score", "report", "index", "export", "view"})


def command_modules(argv: Sequence[str] | None = None) -> list[str]:
    """The built-in command groups, then each family's, each once.

    Family specs are read only when ``argv`` does not name a built-in command (help, a family's
    own command such as ``judge``, or a typo that wants a "did you mean").
    """
    found = list(COMMAND_MODULES)
    command = next((a for a in (argv or ()) if not a.startswith("-")), None)
    if command in BUILT_IN:
        return found
    from halluforge.family import all_families

    for spec in all_families():
        found += [m for m in spec.brings.commands if m not in found]
    return found


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser with every command group ``argv`` may need (all of them without ``argv``)."""
    parser = argparse.ArgumentParser(
        prog="halluforge",
        description="Forge adversarial test cases from your data and measure how LLMs hallucinate.",
    )
    parser.add_argument("--version", action="version", version=f"halluforge {__version__}")
    parser.add_argument("--debug", action="store_true", help="show the traceback of an error")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in command_modules(argv):
        importlib.import_module(name).add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the process exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 0
    try:
        return int(handler(args) or 0)
    except HalluforgeError as exc:
        return _fail(args, exc, f"error: {exc}", exc.exit_code)
    except BrokenPipeError:
        # the reader went away (`halluforge list scorers | head`): stop quietly, as Unix tools do
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:
        where = f": {exc.filename}" if exc.filename else ""
        return _fail(
            args, exc, f"error: {exc.strerror or exc}{where} (fix: check the path and its permissions)", 2
        )
    except KeyboardInterrupt:
        print("interrupted: run the same command again to resume", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug: still one line, the traceback behind --debug
        message = f"error: internal error {type(exc).__name__}: {exc} (fix: rerun with --debug and report it)"
        return _fail(args, exc, message, 1)


def _fail(args: argparse.Namespace, exc: BaseException, line: str, code: int) -> int:
    """Print the error as one line (plus the traceback with ``--debug``); return the exit code."""
    if getattr(args, "debug", False):
        traceback.print_exception(exc, file=sys.stderr)
    print(line, file=sys.stderr)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
