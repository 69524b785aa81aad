"""What is wrong with a run's inputs, and where: the problem report of config reading and preflight.

Config reading (:mod:`halluforge.config`) and the checks before writing
(:mod:`halluforge.preflight`) both collect :class:`Problem` records, each naming its place
(``file:line`` through :class:`ConfigOrigin`, or the ``--set`` flag or environment variable that
set the key), and raise them together as one :class:`InvalidInputError`, so a user fixes every
problem in one pass.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field

from halluforge.errors import ConfigError


@dataclass(frozen=True)
class ConfigOrigin:
    """Where a config came from: its file and the line of each key path (``answer.max_tokens``)."""

    file: str | None = None
    lines: Mapping[str, int] = dc_field(default_factory=dict)
    #: key paths set outside the file, with where: ``--set`` or the environment variable
    outside: Mapping[str, str] = dc_field(default_factory=dict)

    def where(self, key: str) -> str:
        """``file:line`` of a key path (or of its closest written parent), or the file, or ``config``."""
        parts = key.split(".") if key else []
        for end in range(len(parts), 0, -1):
            label = self.outside.get(".".join(parts[:end]))
            if label is not None:
                return label
        below = [label for path, label in self.outside.items() if key and path.startswith(key + ".")]
        if below:  # e.g. --set seed.x=1 made `seed` a mapping
            return below[0]
        if self.file is None:
            return "config"
        while parts:
            line = self.lines.get(".".join(parts))
            if line is not None:
                return f"{self.file}:{line}"
            parts.pop()
        return self.file


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a run's inputs: where, which key, what, and how to fix it."""

    where: str
    key: str
    message: str
    hint: str | None = None

    def __str__(self) -> str:
        text = (
            (f"{self.where}: " if self.where else "") + (f"{self.key}: " if self.key else "") + self.message
        )
        return f"{text} (fix: {self.hint})" if self.hint else text


class InvalidInputError(ConfigError):
    """Every problem found in a run's config, data and models, reported together."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        if len(self.problems) == 1:
            message = str(self.problems[0])
        else:
            files = dict.fromkeys(p.where.split(":")[0] for p in self.problems if p.where)
            where = f" in {', '.join(files)}" if files else ""
            message = f"{len(self.problems)} problems{where}; nothing was started:\n" + "\n".join(
                f"  {p}" for p in self.problems
            )
        super().__init__(message)


__all__ = ["ConfigOrigin", "InvalidInputError", "Problem"]
