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
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from halluforge.errors import ConfigError

DEFAULT_MODEL = "llamacpp/smollm2-135m"
ALL_SETTINGS = ("closed_book", "open_book", "few_shot", "opinion")


class ConfigModel(BaseModel):
    """Base: unknown keys are errors, never silently ignored."""

    model_config = ConfigDict(extra="forbid")


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


class ModelsConfig(ConfigModel):
    """Models per role, addressed as backend/model."""

    generator: str = DEFAULT_MODEL
    targets: list[str] = Field(default_factory=lambda: [DEFAULT_MODEL])
    judge: str | None = None


class SelectConfig(ConfigModel):
    """Seed-case selection with the generator model (AutoDebug Table 1)."""

    match: Literal["em", "hit"] = "hit"
    limit: int | None = Field(default=None, ge=1, description="at most N seed cases")
    max_tokens: int = 24


class FewShotConfig(ConfigModel):
    """Demonstrations for the few_shot setting."""

    k: int = Field(default=3, ge=1)
    demos: str = Field(default="bundled", description="'bundled', 'adversarial' or a JSONL path")


class AnswerConfig(ConfigModel):
    """How test cases are put to the target models."""

    settings: list[str] = Field(default_factory=lambda: list(ALL_SETTINGS))
    max_tokens: int = 24
    temperature: float = 0.0
    few_shot: FewShotConfig = Field(default_factory=FewShotConfig)
    include_invalid: bool = Field(default=False, description="also answer test cases that failed a check")
    include_originals: bool = Field(
        default=True, description="also answer the unperturbed examples, for before/after comparisons"
    )


class ScoreConfig(ConfigModel):
    """Metrics and their aggregation."""

    metrics: list[str] = Field(default_factory=lambda: ["em", "f1", "hit"])
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


def _default_families() -> dict[str, dict[str, Any]]:
    return {"answer_swap": {}}


class RunConfig(ConfigModel):
    """Everything a run needs; the manifest stores it so the run can be rebuilt."""

    run_id: str | None = None
    output_dir: str = "runs"
    seed: int = 0
    data: list[DataSource] = Field(default_factory=lambda: [DataSource()])
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

    def fingerprint(self) -> str:
        """A short hash of the config without its run id, used as the default run id.

        Where the run executes (``executor``) is left out: it does not change any record, so
        the same config resumes the same run with or without Ray.
        """
        data = self.model_dump(mode="json", exclude={"run_id", "executor"})
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


def _explain(model: type[BaseModel], exc: ValidationError, source: str) -> ConfigError:
    """Turn the first validation error into a one-line ConfigError."""
    error = exc.errors()[0]
    loc = tuple(error["loc"])
    where = ".".join(str(p) for p in loc) or "<root>"
    if error["type"] == "extra_forbidden":
        guess = _suggest(model, loc)
        hint = f"did you mean {guess!r}?" if guess else "remove it; see `halluforge config show`"
        return ConfigError(f"{source}: unknown key {where!r}", hint=hint)
    return ConfigError(
        f"{source}: key {where!r}: {error['msg']}", hint="see `halluforge config show` for valid values"
    )


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
    if not sep or not key:
        raise ConfigError(f"override {item!r} is not KEY=VALUE", hint="write e.g. --set select.limit=20")
    return key.strip(), yaml.safe_load(raw)


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
) -> RunConfig:
    """Build a RunConfig from defaults, an optional YAML file, the environment and overrides."""
    data: dict[str, Any] = {}
    source = "defaults"
    if path is not None:
        file = Path(path)
        source = str(file)
        if not file.is_file():
            raise ConfigError(f"config file {file} does not exist", hint="check the path")
        try:
            loaded = yaml.safe_load(file.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line = f":{mark.line + 1}" if mark is not None else ""
            raise ConfigError(f"{file}{line}: not valid YAML", hint="fix the syntax at that line") from exc
        if loaded is None:
            loaded = {}
        if not isinstance(loaded, dict):
            raise ConfigError(f"{file}: the top level must be a mapping of keys", hint="see README")
        data = loaded
    env = os.environ if environ is None else environ
    for var, dotted in ENV_KEYS.items():
        if var in env:
            value: Any = env[var]
            if dotted == "models.targets":
                value = [v.strip() for v in str(value).split(",") if v.strip()]
            _set_path(data, dotted, value)
    for dotted, value in (overrides or {}).items():
        _set_path(data, dotted, value)
    try:
        return RunConfig.model_validate(data)
    except ValidationError as exc:
        raise _explain(RunConfig, exc, source) from None


__all__ = [
    "ALL_SETTINGS",
    "DEFAULT_MODEL",
    "AnswerConfig",
    "CacheConfig",
    "DataSource",
    "ExecutorConfig",
    "FewShotConfig",
    "FilterConfig",
    "ModelsConfig",
    "RunConfig",
    "ScoreConfig",
    "SelectConfig",
    "load_config",
    "parse_override",
]
