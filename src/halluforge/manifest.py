"""The run manifest: everything needed to reproduce or audit a run.

``manifest.json`` records the package version, git revision, Python and platform, the seed,
the models per role, the hash of every prompt template used, the full config (secrets
redacted) and the headline counts. It is written when a run starts and again when it ends.
"""

from __future__ import annotations

import hashlib
import json
import platform
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from halluforge import __version__
from halluforge.prompts import load_template

if TYPE_CHECKING:
    from halluforge.stages.context import RunContext

#: key names whose values are secrets (``api_key``, ``token``...), but not ``max_tokens`` or ``api_key_env``
SECRET_KEY = re.compile(r"(^|_)(api_?key|key|secret|password|token)$", re.IGNORECASE)


def git_revision(path: Path | None = None) -> str | None:
    """The git commit of the source tree halluforge runs from, when it is a checkout."""
    where = path or Path(__file__).resolve().parent
    try:
        out = subprocess.run(
            ["git", "-C", str(where), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def redact(value: Any) -> Any:
    """Replace values of secret-looking keys so they never reach the manifest."""
    if isinstance(value, dict):
        return {k: ("<redacted>" if SECRET_KEY.search(str(k)) else redact(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [redact(v) for v in value]
    return value


#: config keys that do not change a run's records: resuming with other values is fine (``limits``
#: only refuses input, so a run made before it existed resumes too)
NOT_RESUMED = frozenset({"run_id", "output_dir", "cache", "max_error_rate", "limits"})


def resume_hash(config_dump: dict[str, Any]) -> str:
    """A hash of what defines a run's records (its config, secrets redacted, without :data:`NOT_RESUMED`).

    Stored in the manifest; a run directory is resumed only by a config with the same hash.
    """
    view = redact({k: v for k, v in config_dump.items() if k not in NOT_RESUMED})
    blob = json.dumps(view, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def template_hashes(ctx: RunContext) -> dict[str, str]:
    """Hashes of every template the run uses."""
    from halluforge.seed_cases import SELECT_TEMPLATES
    from halluforge.settings import setting

    hashes = {name: load_template(name).sha256 for name in SELECT_TEMPLATES}
    for name in ctx.config.answer.settings:
        for template in setting(name).templates():
            hashes[template.name] = template.sha256
    for generator in ctx.generators.values():
        hashes.update(generator.template_hashes())
    return dict(sorted(hashes.items()))


def write_manifest(ctx: RunContext, *, status: str, counts: dict[str, Any], stages: list[str]) -> Path:
    """Write ``manifest.json`` into the run directory; ``stages`` lists the stages finished so far."""
    config = ctx.config
    path = ctx.run_dir / "manifest.json"
    previous: dict[str, Any] = {}
    if path.is_file():
        previous = json.loads(path.read_text(encoding="utf-8"))
    now = datetime.now(UTC).isoformat(timespec="seconds")
    # each process that works on the run is a session: a resume adds one and keeps the first
    # start, so the run's history and total time stay whole (it overwrote them before)
    sessions: list[dict[str, Any]] = [dict(x) for x in previous.get("sessions", [])]
    if status == "running" and not stages:  # the first write of this process
        sessions.append({"started": now, "seconds": None})
    if not sessions:
        sessions.append({"started": previous.get("started", now), "seconds": None})
    if "seconds" in counts:
        sessions[-1]["seconds"] = counts["seconds"]
    manifest = {
        "run_id": config.resolved_run_id(),
        "status": status,
        "started": previous.get("started", sessions[0]["started"]),
        "updated": now,
        "sessions": sessions,
        "seconds_total": round(sum(x["seconds"] or 0 for x in sessions), 2),
        "halluforge_version": __version__,
        "git_revision": git_revision(),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "seed": config.seed,
        "models": {
            "generator": config.models.generator,
            "targets": config.models.targets,
            "judge": config.models.judge,
        },
        "templates": template_hashes(ctx),
        "stages_finished": list(stages),
        "config": redact(config.model_dump(mode="json")),
        "resume_hash": resume_hash(config.model_dump(mode="json")),
        "counts": counts,
    }
    path.write_text(json.dumps(manifest, indent=2, default=str), encoding="utf-8")
    return path


__all__ = ["NOT_RESUMED", "git_revision", "redact", "resume_hash", "template_hashes", "write_manifest"]
