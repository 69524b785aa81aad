"""Prompt templates as files: one template per file, ``{name}`` placeholders.

A template is named ``<group>/<name>``. The generic ones (``settings/``, ``select/``) live in
this package as ``<group>/<name>.txt``; a family's own live in its package's ``prompts/``
folder as ``<name>.txt`` (``families/answer_swap/prompts/propose.txt`` is
``answer_swap/propose``), found through the ``root`` the family passes. A user can point
``HALLUFORGE_PROMPTS_DIR`` at a folder laid out as ``<group>/<name>.txt`` to override any of them. Each
template's sha256 goes into the run manifest and into test-case provenance, so a report can
tell which wording produced which case. The wording is our own, modelled on the papers' method.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from halluforge.errors import ConfigError

_FIELD = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


@dataclass(frozen=True)
class Template:
    """A named prompt template with its hash and placeholder names."""

    name: str
    text: str

    @property
    def sha256(self) -> str:
        """Hash of the template text (first 12 hex digits)."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()[:12]

    @property
    def fields(self) -> set[str]:
        """Placeholder names used in the template."""
        return set(_FIELD.findall(self.text))

    def render(self, **values: object) -> str:
        """Fill placeholders; a missing value is a programming error, named clearly."""
        missing = self.fields - set(values)
        if missing:
            raise ConfigError(
                f"template {self.name!r} needs {sorted(missing)}",
                hint="pass every placeholder the template names",
            )
        return _FIELD.sub(lambda m: str(values[m.group(1)]), self.text).strip()


@lru_cache(maxsize=256)
def _read(name: str, override_dir: str | None, root: str | None) -> Template:
    if override_dir:
        candidate = Path(override_dir) / f"{name}.txt"
        if candidate.is_file():
            return Template(name, candidate.read_text(encoding="utf-8"))
    if root is not None:
        own = Path(root) / f"{name.rpartition('/')[2]}.txt"
        if not own.is_file():
            raise ConfigError(f"no prompt template {name!r} in {root}", hint="check the template name")
        return Template(name, own.read_text(encoding="utf-8"))
    resource = resources.files("halluforge.prompts").joinpath(f"{name}.txt")
    if not resource.is_file():
        raise ConfigError(f"no prompt template {name!r}", hint="check the template name or your prompts dir")
    return Template(name, resource.read_text(encoding="utf-8"))


def load_template(name: str, root: str | Path | None = None) -> Template:
    """Load ``<group>/<name>`` from the override dir if set, else from ``root`` or this package.

    ``root`` is a family's own ``prompts/`` folder, holding ``<name>.txt`` (built-in families and
    plugins alike keep their prompts beside their code); ``HALLUFORGE_PROMPTS_DIR`` still
    overrides them as ``<group>/<name>.txt``.
    """
    return _read(name, os.environ.get("HALLUFORGE_PROMPTS_DIR"), None if root is None else str(root))


def family_prompts(package_file: str) -> str:
    """The ``prompts/`` folder beside a family package's ``__init__.py`` (pass its ``__file__``)."""
    return str(Path(package_file).with_name("prompts"))


__all__ = ["Template", "family_prompts", "load_template"]
