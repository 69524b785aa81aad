"""Run configuration: a pydantic model that rejects unknown keys, loaded from YAML.

Precedence, lowest first: defaults < config file < environment (``HALLUFORGE_*``) < CLI
(``--set a.b=value`` and the named flags). Unknown keys raise :class:`ConfigError` naming the
file and the key path, with a "did you mean" suggestion.

The default config (no file) is the main job: the bundled sample, the embedded SmolLM2 model in
every role, the ``answer_swap`` family, four prompt settings, EM / F1 / hit.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator

from halluforge.errors import ConfigError, DataError
from halluforge.limits import (
    DEFAULT_MAX_TEXT_CHARS,
    check_config_size,
    compose_yaml,
    load_yaml,
    regular_file,
    yaml_hint,
)
from halluforge.problems import ConfigOrigin, InvalidInputError, Problem

DEFAULT_MODEL = "llamacpp/smollm2-135m"
#: a run id is a plain name: it becomes one folder under output_dir, never a path (matched whole,
#: with ``fullmatch``: ``$`` alone would let a trailing newline through into the folder name)
RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")


def check_run_id(value: str) -> None:
    """Reject a run id that is not a plain folder name (separators, ``..``, control characters)."""
    if not RUN_ID.fullmatch(value) or ".." in value:
        raise ConfigError(
            f"run id {value!r} is not a plain name",
            hint="use letters, digits, '.', '_' and '-' only (no '/', no '..'); "
            "choose the folder with --output-dir",
        )


ALL_SETTINGS = ("closed_book", "open_book", "few_shot", "opinion")


class ConfigModel(BaseModel):
    """Base: unknown keys are errors, never silently ignored; NaN and infinity are never numbers."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class DataSource(ConfigModel):
    """One input dataset."""

    loader: str = Field(default="bundled", description="loader name, see `halluforge list loaders`")
    path: str | None = Field(default=None, description="file, folder or dataset id")
    name: str | None = Field(default=None, description="label in reports; defaults to the file name")
    fields: dict[str, str] = Field(
        default_factory=dict, description="our field -> your column, e.g. {question: query}"
    )
    split: str | None = None
    limit: int | None = Field(default=None, ge=1, description="keep the first N examples")
    test_cases: str | None = Field(
        default=None, description="family name: the file holds ready-made test cases of it"
    )
    options: dict[str, Any] = Field(default_factory=dict)


class FilterConfig(ConfigModel):
    """The papers' source-data filters (ReEval §4.1); every drop is counted with its reason."""

    dedupe: bool = True
    min_evidence_words: int | None = 10
    max_answer_words: int | None = 5
    strip_html: bool = True
    overlapping_answers: Literal["keep_one", "keep_all"] = "keep_one"
    require_evidence: bool = True
    require_answers: bool = Field(
        default=True, description="drop examples without gold answers (false for invalid_date-only runs)"
    )
    where: dict[str, list[str]] = Field(
        default_factory=dict,
        description="keep examples whose metadata field has one of the values, e.g. {type: [bridge]}",
    )


class ModelsConfig(ConfigModel):
    """Models per role, addressed as backend/model."""

    generator: str = DEFAULT_MODEL
    targets: list[str] = Field(default_factory=lambda: [DEFAULT_MODEL], min_length=1)
    judge: str | None = None


class SelectConfig(ConfigModel):
    """Seed-case selection with the generator model (AutoDebug Table 1)."""

    match: Literal["em", "hit"] = "hit"
    limit: int | None = Field(default=None, ge=1, description="at most N seed cases")
    max_tokens: int = Field(default=24, ge=1)


class FewShotConfig(ConfigModel):
    """Demonstrations for the few_shot setting."""

    k: int = Field(default=3, ge=1)
    demos: str = Field(default="bundled", description="'bundled', 'adversarial' or a JSONL path")


class AnswerConfig(ConfigModel):
    """How test cases are put to the target models."""

    settings: list[str] = Field(default_factory=lambda: list(ALL_SETTINGS), min_length=1)
    max_tokens: int = Field(default=24, ge=1)
    temperature: float = Field(default=0.0, ge=0, le=2)
    few_shot: FewShotConfig = Field(default_factory=FewShotConfig)
    include_invalid: bool = Field(default=False, description="also answer test cases that failed a check")
    include_originals: bool = Field(
        default=True, description="also answer the unperturbed examples, for before/after comparisons"
    )


class ScoreConfig(ConfigModel):
    """Metrics and their aggregation."""

    metrics: list[str] = Field(default_factory=lambda: ["em", "f1", "hit"], min_length=1)
    bootstrap: int = Field(default=1000, ge=0)
    confidence: float = Field(default=0.95, gt=0, lt=1)
    nli_model: str | None = Field(default=None, description="hub id or local path of an NLI model")
    options: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="options per metric, e.g. {premise_judge: {modes: [rule]}}"
    )


class CacheConfig(ConfigModel):
    """The response cache."""

    enabled: bool = True
    path: str | None = None


class ExecutorConfig(ConfigModel):
    """Where the forge and answer stages' work runs: this process, or workers on a Ray cluster."""

    kind: Literal["local", "ray"] = "local"
    address: str | None = Field(
        default=None,
        description="Ray cluster to join: 'auto', 'ray://head:10001'; unset starts one on this machine",
    )
    workers: int = Field(default=2, ge=1, description="Ray actors, each opening its own model engine")
    resources_per_worker: dict[str, float] = Field(
        default_factory=lambda: {"CPU": 1.0}, description="per actor, e.g. {CPU: 4, GPU: 1}"
    )
    engines: list[str] = Field(
        default_factory=lambda: ["llamacpp", "hf", "vllm"],
        description="backends whose engines run on the workers; others stay in the driver",
    )
    slots_per_worker: int | None = Field(
        default=None, ge=1, description="batches in flight per worker; default: the backend's concurrency"
    )
    forge_chunk: int = Field(default=8, ge=1, description="forge units shipped to a worker at once")
    max_attempts: int = Field(default=3, ge=1, description="tries of one batch when workers are lost")


class LimitsConfig(ConfigModel):
    """Bounds on the input a run reads (see :mod:`halluforge.limits` for the fixed ones)."""

    max_text_chars: int = Field(
        default=DEFAULT_MAX_TEXT_CHARS,
        ge=1,
        description="longest text accepted in one field of the data (question, evidence, ...)",
    )


def _default_families() -> dict[str, dict[str, Any]]:
    return {"answer_swap": {}}


class RunConfig(ConfigModel):
    """Everything a run needs; the manifest stores it so the run can be rebuilt."""

    run_id: str | None = Field(
        default=None, description="run directory name under output_dir: letters, digits, '.', '_', '-'"
    )
    output_dir: str = "runs"
    seed: int = Field(default=0, ge=0)
    data: list[DataSource] = Field(
        default_factory=lambda: [DataSource()],
        description="may be empty only when every family forges from its own inputs (a KB, records)",
    )
    filters: FilterConfig = Field(default_factory=FilterConfig)
    models: ModelsConfig = Field(default_factory=ModelsConfig)
    select: SelectConfig = Field(default_factory=SelectConfig)
    families: dict[str, dict[str, Any]] = Field(default_factory=lambda: _default_families())
    answer: AnswerConfig = Field(default_factory=AnswerConfig)
    score: ScoreConfig = Field(default_factory=ScoreConfig)
    backends: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="options per backend name, e.g. {openai: {concurrency: 16}}"
    )
    cache: CacheConfig = Field(default_factory=CacheConfig)
    executor: ExecutorConfig = Field(default_factory=ExecutorConfig)
    max_error_rate: float = Field(default=0.5, ge=0, le=1)
    limits: LimitsConfig = Field(default_factory=LimitsConfig)

    _origin: ConfigOrigin | None = PrivateAttr(default=None)

    @field_validator("run_id")
    @classmethod
    def _run_id_is_a_name(cls, value: str | None) -> str | None:
        if value is not None:
            check_run_id(value)
        return value

    @property
    def origin(self) -> ConfigOrigin:
        """Where the config's keys were written (file and YAML lines), for error messages."""
        return self._origin or ConfigOrigin()

    def fingerprint(self) -> str:
        """A short hash of the config without its run id, used as the default run id.

        Where the run executes (``executor``) is left out: it does not change any record, so
        the same config resumes the same run with or without Ray. Input bounds (``limits``)
        only refuse input, so they are left out too (and run ids made before them still hold).
        """
        data = self.model_dump(mode="json", exclude={"run_id", "executor", "limits"})
        blob = json.dumps(data, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:10]

    def resolved_run_id(self) -> str:
        """The run id: the configured one, or one derived from the config so reruns resume."""
        return self.run_id or f"run-{self.fingerprint()}"


def _suggest(model: type[BaseModel], loc: tuple[int | str, ...]) -> str | None:
    """Find the closest valid key for an unknown key at ``loc``."""
    current: Any = model
    for part in loc[:-1]:
        if isinstance(part, int):
            continue
        fields = getattr(current, "model_fields", None)
        if not fields or part not in fields:
            return None
        annotation = fields[part].annotation
        args = getattr(annotation, "__args__", None)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            current = annotation
        elif args:
            candidates = [a for a in args if isinstance(a, type) and issubclass(a, BaseModel)]
            if not candidates:
                return None
            current = candidates[0]
        else:
            return None
    names = list(getattr(current, "model_fields", {}))
    close = difflib.get_close_matches(str(loc[-1]), names, n=1)
    return close[0] if close else None


def _problem(model: type[BaseModel], error: Any, origin: ConfigOrigin) -> Problem:
    """One pydantic error as a Problem naming the YAML line and key path."""
    loc = tuple(error["loc"])
    key = ".".join(str(p) for p in loc)
    where = origin.where(key)
    if error["type"] == "extra_forbidden":
        guess = _suggest(model, loc)
        hint = f"did you mean {guess!r}?" if guess else "remove it; see `halluforge config show`"
        return Problem(where, key, "unknown key", hint)
    if error["type"] == "too_short":
        return Problem(where, key, "is empty, which leaves nothing to do", "give at least one entry")
    message = str(error["msg"])
    ctx = error.get("ctx") or {}
    if "error" in ctx and isinstance(ctx["error"], ConfigError):
        inner = ctx["error"]
        return Problem(where, key, inner.message, inner.hint)
    return Problem(where, key, f"{message} (got {error.get('input')!r})", "see `halluforge config show`")


def _explain(model: type[BaseModel], exc: ValidationError, origin: ConfigOrigin) -> InvalidInputError:
    """Every validation error at once, each with its YAML line and key path."""
    return InvalidInputError([_problem(model, error, origin) for error in exc.errors()])


def read_yaml(path: Path) -> tuple[Any, dict[str, int]]:
    """Parse a YAML file: its data and the line of every key path; duplicate keys are errors.

    The lines come from the composed node tree (``start_mark``), so an error can point at the
    line where the user wrote the key. The file is parsed once, under the bounds of
    :class:`~halluforge.limits.BoundedLoader`: aliases are refused before anything is
    expanded (so the walk below visits each node once), and so are deep nesting, over-long
    numbers, NaN and infinity. Only a regular file of at most 10 MiB is read.
    """
    if path.is_dir():
        raise ConfigError(f"{path} is a directory, not a config file", hint="give the path of a YAML file")
    if not path.exists():
        raise ConfigError(f"config file {path} does not exist", hint="check the path")
    try:
        regular_file(path)
    except DataError as exc:
        raise ConfigError(f"config file {exc.message}", hint=exc.hint) from None
    check_config_size(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{path}: not UTF-8 text (byte {exc.start})", hint="save the file as UTF-8"
        ) from None
    try:
        node, data = compose_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "not valid YAML"
        context, context_mark = getattr(exc, "context", None), getattr(exc, "context_mark", None)
        if context and context_mark is not None:
            problem += f" ({context} started at line {context_mark.line + 1})"
        hint = yaml_hint(exc, "fix the YAML syntax at that line")
        raise ConfigError(f"{path}{line}: {problem}", hint=hint) from None
    lines: dict[str, int] = {}
    problems: list[Problem] = []

    def walk(current: yaml.Node | None, prefix: str) -> None:
        if isinstance(current, yaml.MappingNode):
            seen: set[str] = set()
            for key_node, value_node in current.value:
                name = str(key_node.value)
                key = f"{prefix}.{name}" if prefix else name
                line = key_node.start_mark.line + 1
                if name in seen:
                    problems.append(Problem(f"{path}:{line}", key, "duplicate key", "keep one of them"))
                seen.add(name)
                lines.setdefault(key, line)
                walk(value_node, key)
        elif isinstance(current, yaml.SequenceNode):
            for index, item in enumerate(current.value):
                key = f"{prefix}.{index}" if prefix else str(index)
                lines.setdefault(key, item.start_mark.line + 1)
                walk(item, key)

    walk(node, "")
    if problems:
        raise InvalidInputError(problems)
    return data, lines


def _set_path(data: dict[str, Any], dotted: str, value: Any) -> None:
    node = data
    parts = dotted.split(".")
    for part in parts[:-1]:
        child = node.setdefault(part, {})
        if not isinstance(child, dict):
            raise ConfigError(f"cannot set {dotted!r}: {part!r} is not a mapping")
        node = child
    node[parts[-1]] = value


def parse_override(item: str) -> tuple[str, Any]:
    """Parse ``a.b=value``; the value is read as YAML so numbers and lists work."""
    key, sep, raw = item.partition("=")
    if not sep or not key.strip():
        raise ConfigError(f"override {item!r} is not KEY=VALUE", hint="write e.g. --set select.limit=20")
    try:
        return key.strip(), load_yaml(raw)
    except yaml.YAMLError as exc:
        problem = getattr(exc, "problem", None) or "not valid YAML"
        raise ConfigError(
            f"--set {key.strip()}: the value {raw!r} is not valid YAML ({problem})",
            hint=yaml_hint(exc, "quote it or close its brackets, e.g. --set 'answer.settings=[open_book]'"),
        ) from None


ENV_KEYS = {
    "HALLUFORGE_OUTPUT_DIR": "output_dir",
    "HALLUFORGE_SEED": "seed",
    "HALLUFORGE_GENERATOR": "models.generator",
    "HALLUFORGE_TARGETS": "models.targets",
}


def load_config(
    path: str | Path | None = None,
    overrides: dict[str, Any] | None = None,
    environ: dict[str, str] | None = None,
    stored: tuple[str, dict[str, Any]] | None = None,
) -> RunConfig:
    """Build a RunConfig from defaults, an optional YAML file, the environment and overrides.

    ``stored`` is (where, data) of a config kept elsewhere (a run's manifest), used instead of
    a file; errors in it name ``where``.
    """
    data: dict[str, Any] = {}
    origin = ConfigOrigin()
    if stored is not None:
        origin, data = ConfigOrigin(stored[0]), dict(stored[1])
    elif path is not None:
        file = Path(path)
        loaded, lines = read_yaml(file)
        if loaded is None:
            raise ConfigError(
                f"{file}: the config file is empty",
                hint="add keys (see `halluforge config show`), or run without a file for the default job",
            )
        if not isinstance(loaded, dict):
            raise ConfigError(f"{file}: the top level must be a mapping of keys", hint="see README")
        data = loaded
        origin = ConfigOrigin(str(file), lines)
    env = os.environ if environ is None else environ
    outside: dict[str, str] = {}
    for var, dotted in ENV_KEYS.items():
        if var in env:
            value: Any = env[var]
            if dotted == "models.targets":
                value = [v.strip() for v in str(value).split(",") if v.strip()]
            _set_path(data, dotted, value)
            outside[dotted] = f"environment {var}"
    for dotted, value in (overrides or {}).items():
        _set_path(data, dotted, value)
        outside[dotted] = "--set"
    origin = ConfigOrigin(origin.file, origin.lines, outside)
    try:
        config = RunConfig.model_validate(data)
    except ValidationError as exc:
        raise _explain(RunConfig, exc, origin) from None
    config._origin = origin
    return config


__all__ = [
    "ALL_SETTINGS",
    "DEFAULT_MODEL",
    "RUN_ID",
    "AnswerConfig",
    "CacheConfig",
    "ConfigOrigin",
    "DataSource",
    "ExecutorConfig",
    "FewShotConfig",
    "FilterConfig",
    "InvalidInputError",
    "LimitsConfig",
    "ModelsConfig",
    "Problem",
    "RunConfig",
    "ScoreConfig",
    "SelectConfig",
    "check_run_id",
    "load_config",
    "parse_override",
    "read_yaml",
]
