"""Check everything a run needs before its run directory exists.

A run that would fail on its config, data or models should fail before it writes anything:
no half-made run directory, no manifest saying "running". :func:`check_run` looks at every
name (settings, families, loaders, scorers, metrics, backends) and its options, reads every
data source once, checks every model address and model file without loading an engine, the
output and cache folders, whether another process is running in the run directory (its lock,
:mod:`halluforge.runlock`), and whether the run directory it would resume was made by the same
config. It collects every problem and raises them together as one
:class:`~halluforge.problems.InvalidInputError`, each as ``file:line: key.path: problem (fix: ...)``.
"""

from __future__ import annotations

import difflib
import importlib
import json
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from halluforge.config import RunConfig
from halluforge.errors import ConfigError, DataError, HalluforgeError
from halluforge.manifest import resume_hash
from halluforge.problems import InvalidInputError, Problem
from halluforge.runlock import check_free


class _Collector:
    """Gathers problems; ``check`` runs one check and files its error under a key path."""

    def __init__(self, config: RunConfig) -> None:
        self.origin = config.origin
        self.problems: list[Problem] = []

    def add(self, key: str, message: str, hint: str | None = None) -> None:
        self.problems.append(Problem(self.origin.where(key), key, message, hint))

    def check(self, key: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except InvalidInputError as exc:
            self.problems.extend(exc.problems)
        except DataError as exc:
            # a data error already names its file, line and field
            self.problems.append(Problem("", "", exc.message, exc.hint))
        except HalluforgeError as exc:
            self.add(key, exc.message, exc.hint)
        except OSError as exc:
            self.add(key, f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), "check the path")
        return None


def writable_folder(path: Path, what: str) -> None:
    """Refuse a folder that is a file, or whose nearest existing parent is a file or read-only."""
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise ConfigError(f"{what} {path}: {existing} is a file, not a folder", hint="choose another folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ConfigError(
            f"{what} {path}: cannot write into {existing}", hint="choose a folder you can write"
        )


def check_resume(config: RunConfig) -> None:
    """A run directory is resumed only by the config that made it (same resume hash)."""
    run_dir = Path(config.output_dir) / config.resolved_run_id()
    if run_dir.exists() and not run_dir.is_dir():
        raise ConfigError(f"run directory {run_dir} is a file", hint="use another --run-id")
    manifest = run_dir / "manifest.json"
    if not manifest.exists():
        return
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
        stored = data.get("resume_hash") or resume_hash(data["config"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise ConfigError(
            f"{manifest} is unreadable, so run {config.resolved_run_id()!r} cannot be resumed safely",
            hint="pass --new to start a fresh run directory, or choose another --run-id",
        ) from None
    if stored != resume_hash(config.model_dump(mode="json")):
        raise ConfigError(
            f"run {config.resolved_run_id()!r} in {run_dir.parent} was made with a different config",
            hint="pass --new to start a fresh run directory, or choose another --run-id",
        )


def check_store_writable(run_dir: Path) -> None:
    """A run store to resume can be written: opened for writing (and closed), nothing changed.

    ``os.access`` says yes to root whatever the file's mode or attributes; opening the files
    read-write asks the kernel itself, so a read-only or immutable store is refused here
    instead of failing at the first write of a resumed run.
    """
    for name in ("store.sqlite", "store.sqlite-wal", "store.sqlite-shm"):
        path = run_dir / name
        if not path.exists():
            continue
        try:
            os.close(os.open(path, os.O_RDWR | os.O_CLOEXEC))
        except OSError as exc:
            raise ConfigError(
                f"run store {path} cannot be written ({exc.strerror or exc}), so the run cannot resume",
                hint="make it writable (chmod u+w), or pass --new to start a fresh run directory",
            ) from None


def check_run_dir(config: RunConfig) -> None:
    """The run directory is free (no other process holds its lock) and, if it exists, ours to resume.

    A held lock is the one problem reported: while another run writes, its manifest may be
    half-written, and the way out (wait, or ``--new``) is the same.
    """
    run_dir = Path(config.output_dir) / config.resolved_run_id()
    check_free(run_dir)
    check_resume(config)
    if run_dir.is_dir():
        check_store_writable(run_dir)


def check_cache_file(path: Path) -> None:
    """An existing response cache is a regular file SQLite can read (probed read-only, nothing written)."""
    if not path.exists():
        return
    if not path.is_file():
        raise ConfigError(f"response cache {path} is not a regular file", hint="set cache.path to a file")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            db.execute("PRAGMA schema_version").fetchone()
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        raise ConfigError(
            f"response cache {path} is not a readable SQLite database ({exc})",
            hint="delete the file, or set cache.path (or HALLUFORGE_CACHE_DIR) elsewhere",
        ) from None


def check_demos(config: RunConfig) -> None:
    """A demonstrations file named in ``answer.few_shot.demos`` reads, when a setting uses it."""
    from halluforge.limits import text_limit
    from halluforge.settings import SETTINGS, few_shot_pool

    few_shot = config.answer.few_shot
    if few_shot.demos in ("bundled", "adversarial"):
        return
    uses = [n for n in config.answer.settings if n in SETTINGS and SETTINGS.get(n).demos == "configured"]
    if uses:
        with text_limit(config.limits.max_text_chars):
            few_shot_pool(few_shot, False, [])


def _check_names(out: _Collector, config: RunConfig) -> dict[str, Any]:
    """Settings, families and their options, backends named in ``backends``; returns the generators."""
    from halluforge.backends import BACKENDS, check_decoding
    from halluforge.family import FAMILIES
    from halluforge.settings import SETTINGS, check_settings

    for index, name in enumerate(config.answer.settings):
        out.check(f"answer.settings.{index}", check_settings, [name])
        if name in SETTINGS:
            decoding = SETTINGS.get(name).decoding
            for address in dict.fromkeys(config.models.targets):
                out.check(f"answer.settings.{index}", check_decoding, name, decoding, address)
    generators: dict[str, Any] = {}
    for name, options in config.families.items():
        spec = out.check(f"families.{name}", FAMILIES.get, name)
        if spec is not None:
            generator = out.check(f"families.{name}", spec.build_generator, options or {})
            if generator is not None:
                generators[name] = generator
    for name in config.backends:
        out.check(f"backends.{name}", BACKENDS.get, name)
    from halluforge.data import ready_family

    has_ready = any(ready_family(source) for source in config.data)
    if not config.data and (not generators or any(g.needs_examples for g in generators.values())):
        out.add("data", "is empty, which leaves nothing to do", "give at least one data source")
    if not config.families and not has_ready:
        out.add(
            "families",
            "no family to forge and no ready-made test cases: nothing to do",
            "name a family (see `halluforge list families`) or a data source with test_cases",
        )
    return generators


def _check_data(out: _Collector, config: RunConfig, skip_loaders: set[str] | None = None) -> None:
    """Every data source: loader name and options, ready-made family, and one full read."""
    from halluforge.data import LOADERS, loader_options
    from halluforge.family import FAMILIES
    from halluforge.stages.load import read_source

    for index, source in enumerate(config.data):
        key = f"data.{index}"
        if out.check(f"{key}.loader", LOADERS.get, source.loader) is None:
            continue
        if source.test_cases and out.check(f"{key}.test_cases", FAMILIES.get, source.test_cases) is None:
            continue
        accepted = loader_options(source.loader)
        unknown = sorted(set(source.options) - set(accepted)) if accepted is not None else []
        for name in unknown:
            out.add(
                f"{key}.options.{name}",
                f"the {source.loader} loader has no option {name!r}",
                f"it takes {', '.join(accepted or ()) or 'no options'}",
            )
        if not unknown and key not in (skip_loaders or set()):  # a loader missing its extra reads nothing
            out.check(key, read_source, source, config.limits.max_text_chars)


def _missing_for(out: _Collector, key: str, what: str, extras: tuple[str, ...], wanted: list[str]) -> None:
    """File one problem when ``extras`` are not all installed; collect them for the one install line."""
    from halluforge.requirements import install_line, missing_extras

    missing = missing_extras(extras)
    if missing:
        wanted.extend(missing)
        gone = ", ".join(m for mods in missing.values() for m in mods)
        names = ", ".join(missing)
        out.add(key, f"{what} needs the {names} extra ({gone} not installed)", install_line(missing))


def _check_requirements(out: _Collector, config: RunConfig) -> list[str]:
    """Every component's declared extras and packages (families, scorers, metrics, loaders, executor).

    Returns the extras found missing, for the one install line :func:`check_run` adds.
    """
    from halluforge.data import LOADER_EXTRAS, ready_family
    from halluforge.family import FAMILIES
    from halluforge.metrics import SCORERS
    from halluforge.metrics.layer import METRICS
    from halluforge.requirements import installed

    wanted: list[str] = []
    families = {name: f"families.{name}" for name in config.families}
    for index, source in enumerate(config.data):
        if (ready := ready_family(source)) and ready not in families:
            families[ready] = f"data.{index}.test_cases"
        _missing_for(
            out,
            f"data.{index}.loader",
            f"the {source.loader} loader",
            LOADER_EXTRAS.get(source.loader, ()),
            wanted,
        )
    metric_names = list(config.score.metrics)
    for name, key in families.items():
        if name not in FAMILIES:
            continue  # an unknown family is reported by _check_names
        spec = FAMILIES.get(name)
        _missing_for(out, key, f"the {name} family", spec.brings.extras, wanted)
        metric_names += [*spec.scorers, *spec.metrics]
        if spec.brings.needs:
            module, _, attr = spec.brings.needs.partition(":")
            hook = getattr(importlib.import_module(module), attr)
            for package in hook(config.families.get(name) or {}):
                if not installed(package.module):
                    out.add(
                        key,
                        f"the {name} family needs the {package.module} package, not installed",
                        package.install,
                    )
    for name in dict.fromkeys(metric_names):
        cls: Any = SCORERS.get(name) if name in SCORERS else METRICS.get(name) if name in METRICS else None
        if cls is not None and cls.extras:
            where = config.score.metrics.index(name) if name in config.score.metrics else None
            key = f"score.metrics.{where}" if where is not None else "score.metrics"
            _missing_for(out, key, f"the {name} metric", tuple(cls.extras), wanted)
    if config.executor.kind == "ray":
        _missing_for(out, "executor.kind", "the Ray executor", ("ray",), wanted)
    return wanted


def _check_services(out: _Collector, config: RunConfig, generators: dict[str, Any]) -> None:
    """Reach each remote model server once (only addresses that passed every other check)."""
    from halluforge.services import check_reachable

    flagged = {p.key for p in out.problems}
    for key, error in check_reachable(
        {k: a for k, a in _addresses(config, generators) if k not in flagged},
        lambda backend: dict(config.backends.get(backend, {})),
    ):
        out.add(key, error.message, error.hint)


def _addresses(config: RunConfig, generators: dict[str, Any]) -> list[tuple[str, str]]:
    """(key path, model address) of every model the run will ask, first use of each address."""
    models = config.models
    pairs = [(f"models.targets.{i}", a) for i, a in enumerate(models.targets)]
    if generators:
        pairs.append(("models.generator", models.generator))
    if models.judge:
        pairs.append(("models.judge", models.judge))
    first: dict[str, str] = {}
    for key, address in pairs:
        first.setdefault(address, key)
    return [(key, address) for address, key in first.items()]


def _check_models(out: _Collector, config: RunConfig, generators: dict[str, Any]) -> None:
    """Every model address the run will use, with its backend's options, without loading any."""
    models = config.models
    addresses: list[tuple[str, str]] = [(f"models.targets.{i}", a) for i, a in enumerate(models.targets)]
    if generators:
        addresses.append(("models.generator", models.generator))
    if models.judge:
        addresses.append(("models.judge", models.judge))
    checked: set[str] = set()
    for key, address in addresses:
        if address not in checked:
            checked.add(address)
            _check_address(out, config, key, address)


def _check_address(out: _Collector, config: RunConfig, key: str, address: str) -> None:
    """One model address and its backend's options, without loading the model."""
    from halluforge.backends import ModelSpec, check_backend

    spec = out.check(key, ModelSpec.parse, address)
    if spec is not None:
        out.check(key, check_backend, address, dict(config.backends.get(spec.backend, {})))


def _check_scores(out: _Collector, config: RunConfig) -> None:
    """Metric names, their options, each scorer's own option check, and the scorers derived metrics need."""
    from halluforge.data import ready_family
    from halluforge.family import FAMILIES
    from halluforge.metrics import SCORERS
    from halluforge.metrics.layer import METRICS, derived_for, missing_scorers

    names = sorted({*SCORERS.names(), *METRICS.names()})

    def known(name: str) -> None:
        if name not in names:
            close = difflib.get_close_matches(name, names, n=1)
            hint = (
                f"did you mean {close[0]!r}?" if close else "see `halluforge list scorers` and `list metrics`"
            )
            raise ConfigError(f"unknown metric {name!r}", hint=hint)

    for index, name in enumerate(config.score.metrics):
        out.check(f"score.metrics.{index}", known, name)
    scorers = [n for n in config.score.metrics if n in SCORERS]
    families = {
        name: FAMILIES.get(name)
        for name in [*config.families, *(ready_family(s) or "" for s in config.data)]
        if name in FAMILIES
    }
    for spec in families.values():
        scorers.extend(spec.scorers)
    for name in config.score.options:
        out.check(f"score.options.{name}", known, name)
    for name in dict.fromkeys([*scorers, *(n for n in config.score.options if n in SCORERS)]):
        options = config.score.options.get(name, {})
        if not isinstance(options, dict):
            out.add(f"score.options.{name}", "must be a mapping of option names to values")
            continue
        cls = SCORERS.get(name)
        out.check(f"score.options.{name}", cls.check_config, options, has_judge=bool(config.models.judge))
    known_names = [n for n in config.score.metrics if n in names]
    derived = out.check("score.metrics", derived_for, known_names, families) or []
    options = {k: v for k, v in config.score.options.items() if isinstance(v, dict)}
    for metric, scorer in out.check("score.metrics", missing_scorers, scorers, derived, options) or []:
        out.add(
            "score.metrics",
            f"{metric} needs {scorer} scores, and no scorer named {scorer} runs",
            f"add {scorer} to score.metrics"
            + (f" or change score.options.{metric}" if metric in options else ""),
        )


def collect_problems(config: RunConfig) -> list[Problem]:
    """Every problem with a run's config, data, models and folders (empty when it can start)."""
    from halluforge.backends import default_cache_path

    out = _Collector(config)
    out.check("output_dir", writable_folder, Path(config.output_dir), "output folder")
    if config.cache.enabled:
        cache = Path(config.cache.path) if config.cache.path else default_cache_path()
        out.check("cache.path", writable_folder, cache.parent, "cache folder")
        out.check("cache.path", check_cache_file, cache)
    out.check("run_id", check_run_dir, config)
    generators = _check_names(out, config)
    out.check("answer.few_shot.demos", check_demos, config)
    _check_scores(out, config)
    _check_models(out, config, generators)
    missing = _check_requirements(out, config)
    _check_data(out, config, skip_loaders={p.key.split(".loader")[0] for p in out.problems})
    if len(set(missing)) > 1:  # several extras missing: one line that installs them all
        from halluforge.requirements import install_line

        out.add("", f"to install everything missing at once: {install_line(missing)}")
    _check_services(out, config, generators)
    return out.problems


def check_rescore(config: RunConfig) -> None:
    """The checks that matter when an existing run is scored again: metrics, options, judge model."""
    out = _Collector(config)
    _check_scores(out, config)
    if config.models.judge:
        _check_address(out, config, "models.judge", config.models.judge)
    if out.problems:
        raise InvalidInputError(out.problems)


def check_run(config: RunConfig) -> None:
    """Raise every problem at once (:class:`InvalidInputError`) or return when the run can start."""
    problems = collect_problems(config)
    if problems:
        raise InvalidInputError(problems)


__all__ = [
    "check_cache_file",
    "check_demos",
    "check_rescore",
    "check_resume",
    "check_run",
    "check_run_dir",
    "check_store_writable",
    "collect_problems",
    "writable_folder",
]
