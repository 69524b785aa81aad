"""``halluforge run``, ``halluforge config show`` and ``halluforge list``."""

from __future__ import annotations

import argparse
import contextlib
import re
import time
from pathlib import Path
from typing import Any

#: seed cases of the quick main job (``halluforge run`` without a config): its table within about
#: 5 minutes on 2 busy cores (benchmarks/first_result.py); ``--full`` runs all 115 examples
QUICK_LIMIT = 10


def add_parser(subparsers: Any) -> None:
    """Register the run, config and list commands."""
    run = subparsers.add_parser(
        "run",
        help="run every stage for a config (no config: the embedded default on the bundled sample)",
        description="Load, select, forge, answer, score and report. Running the same config again "
        "resumes its run directory; --new starts a fresh one (served from the response cache).",
    )
    run.add_argument(
        "config",
        nargs="?",
        help=f"YAML run config (default: the quick main job, {QUICK_LIMIT} seed cases; --full for all)",
    )
    _add_overrides(run)
    run.add_argument(
        "--full",
        action="store_true",
        help="without a config: the whole main job (every bundled example) instead of the quick one",
    )
    run.add_argument("--run-id", help="run directory name under --output-dir (default: config hash)")
    run.add_argument("--new", action="store_true", help="start a new run directory instead of resuming")
    run.add_argument("--output-dir", help="where run directories go (default: runs)")
    run.add_argument("--generator", help="generator model address, e.g. llamacpp/smollm2-135m")
    run.add_argument("--targets", help="comma-separated target model addresses")
    run.add_argument(
        "--limit", type=int, help="at most N seed cases (examples, for families forged from examples)"
    )
    run.add_argument("--no-cache", action="store_true", help="do not read or write the response cache")
    run.add_argument(
        "--quiet", action="store_true", help="no progress bars or progress lines on the terminal"
    )
    run.add_argument(
        "--log-file",
        help="also append progress lines and the summary to this file (its folder must exist)",
    )
    run.set_defaults(handler=handle_run)

    config = subparsers.add_parser("config", help="show the resolved run config")
    config_sub = config.add_subparsers(dest="config_command", metavar="SUBCOMMAND")
    show = config_sub.add_parser("show", help="print the config after defaults, file, env and --set")
    show.add_argument("config", nargs="?")
    _add_overrides(show)
    show.set_defaults(handler=handle_config_show)

    listing = subparsers.add_parser("list", help="list registered components")
    listing.add_argument(
        "kind", choices=["backends", "families", "generators", "metrics", "scorers", "loaders", "settings"]
    )
    listing.set_defaults(handler=handle_list)
    add_rescore_parsers(subparsers)


def _add_overrides(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a config key, e.g. --set select.limit=20 (repeatable)",
    )


def _overrides(args: argparse.Namespace) -> dict[str, Any]:
    from halluforge.config import parse_override

    values = dict(parse_override(item) for item in args.overrides)
    named = {
        "output_dir": getattr(args, "output_dir", None),
        "models.generator": getattr(args, "generator", None),
        "select.limit": getattr(args, "limit", None),
        "run_id": getattr(args, "run_id", None),
    }
    values.update({k: v for k, v in named.items() if v is not None})
    targets = getattr(args, "targets", None)
    if targets:
        values["models.targets"] = [t.strip() for t in targets.split(",") if t.strip()]
    if getattr(args, "no_cache", False):
        values["cache.enabled"] = False
    return values


class LazyLog:
    """A log file opened (for appending) at the first line written, so a refused run creates nothing."""

    def __init__(self, path: str) -> None:
        from halluforge.errors import ConfigError

        self.path = Path(path)
        if self.path.is_dir() or not self.path.parent.is_dir():
            raise ConfigError(
                f"--log-file {self.path}: not a file in an existing folder", hint="create the folder first"
            )
        self._handle: Any = None

    def write(self, text: str) -> int:
        """Append text, opening the file on first use."""
        if self._handle is None:
            self._handle = self.path.open("a", encoding="utf-8")
        return int(self._handle.write(text))

    def flush(self) -> None:
        """Flush to disk (if opened)."""
        if self._handle is not None:
            self._handle.flush()

    def close(self) -> None:
        """Close the file (if opened)."""
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def quick_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The run's overrides; without a config file and without ``--full``, the quick main job's limit.

    The quick job is the main job on the first :data:`QUICK_LIMIT` seed cases; a ``--limit``
    or ``--set select.limit=`` given on the command line wins, and ``--full`` drops the limit.
    """
    from halluforge.errors import ConfigError

    values = _overrides(args)
    if getattr(args, "full", False) and args.config:
        raise ConfigError(
            "--full is for the main job without a config file",
            hint=f"drop --full (a config runs as written), or drop {args.config}",
        )
    if args.config is None and not getattr(args, "full", False):
        values.setdefault("select.limit", QUICK_LIMIT)
    return values


def handle_run(args: argparse.Namespace) -> int:
    """Run the pipeline with bars (a terminal) or progress lines (a log), then print the summary."""
    import sys

    from rich.console import Console

    from halluforge.cli.progress import LogProgress, RichProgress, TeeProgress
    from halluforge.config import load_config
    from halluforge.pipeline import run_pipeline
    from halluforge.reports.console import first_screen, print_report
    from halluforge.reports.markdown import render_markdown

    config = load_config(args.config, quick_overrides(args))
    if args.new:
        config = config.model_copy(update={"run_id": f"{config.resolved_run_id()}-{int(time.time())}"})
    log = LazyLog(args.log_file) if args.log_file else None
    console = Console(stderr=True)
    out = Console()
    started = time.perf_counter()
    bars = RichProgress(console) if not args.quiet and console.is_terminal else None
    streams: list[Any] = [] if args.quiet or bars is not None else [sys.stderr]
    if log is not None:
        streams.append(log)
    sinks: list[Any] = [p for p in (bars, LogProgress(streams) if streams else None) if p is not None]
    try:
        with bars if bars is not None else contextlib.nullcontext():
            result = run_pipeline(config, TeeProgress(*sinks))
        print_report(first_screen(result.report), out)
        footer = footer_lines(result, time.perf_counter() - started, quick=quick_job(args, config))
        for line in footer:
            out.print(line, soft_wrap=True, markup=False, highlight=False)
        if log is not None:
            log.write("\n" + render_markdown(first_screen(result.report)) + "\n" + "\n".join(footer) + "\n")
    finally:
        if log is not None:
            log.close()
    return 0


def quick_job(args: argparse.Namespace, config: Any) -> bool:
    """Whether this is the quick main job (no config, no --full, the quick limit in force)."""
    return args.config is None and not getattr(args, "full", False) and config.select.limit == QUICK_LIMIT


def footer_lines(result: Any, seconds: float, *, quick: bool = False) -> list[str]:
    """The last lines of a run: forge errors with their reasons, counts, and where to look next."""
    from halluforge.stages.report import HTML_FILE

    counts = result.counts
    lines: list[str] = []
    errors = counts.get("forge_errors") or {}
    if errors:
        total = sum(errors.values())
        lines.append(f"forge errors: {total} input(s) errored; they are tried again when the run resumes:")
        lines += [f"  {n} x {reason}" for reason, n in sorted(errors.items(), key=lambda kv: (-kv[1], kv[0]))]
    lines.append(
        f"responses: {counts.get('responses', 0)} (cached {counts.get('responses_cached', 0)}, "
        f"failed {counts.get('responses_failed', 0)})  wall time: {seconds:.1f}s"
    )
    if quick:
        lines.append(
            f"this was the quick main job ({QUICK_LIMIT} seed cases); "
            "`halluforge run --full` runs every bundled example"
        )
    lines.append(f"run directory: {result.run_dir}  (counts and analyses: {result.run_dir / 'summary.md'})")
    lines.append(f"report: {result.run_dir / HTML_FILE}")
    lines.append(f"browse and label: halluforge view {result.run_dir}")
    return lines


def handle_config_show(args: argparse.Namespace) -> int:
    """Print the resolved config as YAML."""
    import yaml

    from halluforge.config import load_config

    config = load_config(args.config, _overrides(args))
    print(yaml.safe_dump(resolved_view(config), sort_keys=False), end="")
    return 0


def resolved_view(config: Any) -> dict[str, Any]:
    """The config with every default spelled out, families' generator options and backends included.

    Each configured family shows its generator's options with their defaults; each backend the
    run uses (or that has options) shows the retry, concurrency and back-off defaults its
    wrappers apply, plus the options given for it.
    """
    from halluforge.backends import ModelSpec, split_options
    from halluforge.family import FAMILIES

    data: dict[str, Any] = config.model_dump(mode="json")
    for name, options in config.families.items():
        generator = FAMILIES.get(name).build_generator(options or {})
        if generator is not None:
            data["families"][name] = generator.options.model_dump(mode="json")
    models = config.models
    addresses = [models.generator, *models.targets, *([models.judge] if models.judge else [])]
    used = {ModelSpec.parse(address).backend for address in addresses}
    for backend in sorted(used | set(config.backends)):
        wrappers, own = split_options(backend, dict(config.backends.get(backend, {})))
        data["backends"][backend] = {**wrappers, **own}
    return data


def handle_list(args: argparse.Namespace) -> int:
    """Print the names registered for one kind of component, each with one line on what it is."""
    rows = _listing(args.kind)
    width = max((len(name) for name, _ in rows), default=0)
    for name, about in rows:
        print(f"{name:<{width}}  {about}".rstrip())
    return 0


def _listing(kind: str) -> list[tuple[str, str]]:
    """Each registered name of ``kind``, with what it is and the install line if its extra is missing."""
    import inspect
    import sys

    from halluforge.backends import BACKENDS
    from halluforge.data import LOADER_EXTRAS, LOADERS
    from halluforge.family import FAMILIES
    from halluforge.metrics import SCORERS
    from halluforge.metrics.layer import METRICS
    from halluforge.requirements import install_line, missing_extras
    from halluforge.settings import SETTINGS

    registries: dict[str, list[str]] = {
        "backends": BACKENDS.names(),
        "families": FAMILIES.names(),
        "generators": [n for n in FAMILIES.names() if FAMILIES.get(n).generator],
        "metrics": METRICS.names(),
        "scorers": SCORERS.names(),
        "loaders": LOADERS.names(),
        "settings": SETTINGS.names(),
    }

    def about(name: str) -> str:
        extras: tuple[str, ...] = ()
        if kind in ("families", "generators"):
            family = FAMILIES.get(name)
            text, extras = family.title.removeprefix(f"{name}: "), tuple(family.brings.extras)
        elif kind == "settings":
            setting = SETTINGS.get(name)
            text = f"{setting.method} / {setting.block}: {setting.description}"
        elif kind == "backends":
            # each backend's module says what it is; each but the mock needs the extra of its name
            module = sys.modules[BACKENDS.get(name).__module__]
            text = (module.__doc__ or "").strip().split("\n")[0]
            extras = () if name == "mock" else (name,)
        else:
            item: Any = {"scorers": SCORERS.get, "metrics": METRICS.get, "loaders": LOADERS.get}[kind](name)
            text = (inspect.getdoc(item) or "").split("\n")[0]
            text = re.sub(rf"^``{re.escape(name)}``:\s*|^``<metric>_\w+``:\s*", "", text)
            extras = tuple(getattr(item, "extras", ()) or LOADER_EXTRAS.get(name, ()))
        missing = missing_extras(extras)
        return f"{text}  [not installed: {install_line(missing)}]" if missing else text

    return [(name, about(name)) for name in registries[kind]]


def add_rescore_parsers(subparsers: Any) -> None:
    """Register ``halluforge score RUN_DIR`` and ``halluforge report RUN_DIR``."""
    score = subparsers.add_parser(
        "score", help="re-score an existing run (e.g. with an NLI model) without asking any model again"
    )
    score.add_argument("run_dir")
    _add_overrides(score)
    score.set_defaults(handler=handle_score)
    report = subparsers.add_parser(
        "report", help="rebuild the summary, report.html and exports of a run from its store"
    )
    report.add_argument("run_dir")
    report.add_argument(
        "--html", action="store_true", help="print the path of the self-contained report.html"
    )
    report.add_argument(
        "--max-cases",
        type=int,
        help="test cases embedded in report.html (default 1000; past it a sample that keeps every family)",
    )
    report.set_defaults(handler=handle_report, overrides=[])


def _print_result(result: Any) -> None:
    from rich.console import Console

    from halluforge.reports.console import print_report

    out = Console()
    print_report(result.report, out)
    out.print(f"run directory: {result.run_dir}")


def handle_score(args: argparse.Namespace) -> int:
    """Re-run the score and report stages."""
    from halluforge.pipeline import rescore_run

    _print_result(rescore_run(args.run_dir, _overrides(args), scores=True))
    return 0


def handle_report(args: argparse.Namespace) -> int:
    """Re-run the report stage."""
    from halluforge.errors import ConfigError
    from halluforge.pipeline import rescore_run
    from halluforge.stages.report import HTML_FILE

    if args.max_cases is not None and args.max_cases < 0:
        raise ConfigError(
            f"--max-cases must be 0 or more, got {args.max_cases}", hint="e.g. --max-cases 2000"
        )
    result = rescore_run(args.run_dir, scores=False, max_cases=args.max_cases)
    _print_result(result)
    if args.html:
        print(f"html report: {result.run_dir / HTML_FILE}")
    return 0
