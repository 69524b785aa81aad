"""One generic registry for pluggable components: generators, scorers, backends, loaders.

Entries are lazy ``"module:attr"`` strings so that ``halluforge --help`` never imports torch or
llama_cpp. Third-party packages add entries through the entry-point group
``halluforge.<kind>`` (for example ``halluforge.backends``). A registry may also draw entries
from a *source*, a function read once on first use: the scorer, metric, section and loader
registries draw the components each family spec brings, so a family registers once. Asking for
an unknown name raises :class:`~halluforge.errors.RegistryError` with a "did you mean" suggestion.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from typing import Generic, TypeVar

from halluforge.errors import RegistryError

T = TypeVar("T")


class Registry(Generic[T]):
    """Maps names to lazily imported objects of one kind."""

    def __init__(
        self,
        kind: str,
        entries: dict[str, str] | None = None,
        *,
        source: Callable[[], Mapping[str, str]] | None = None,
    ) -> None:
        self.kind = kind
        self._paths: dict[str, str] = dict(entries or {})
        self._objects: dict[str, T] = {}
        self._imported: dict[str, T] = {}  # by "module:attr" path, so a re-pointed name never goes stale
        self._entry_points_read = False
        self._source = source

    def register(self, name: str, target: str | T) -> None:
        """Add an entry: a ``"module:attr"`` path or the object itself."""
        if isinstance(target, str):
            self._paths[name] = target
            self._objects.pop(name, None)
        else:
            self._objects[name] = target
            self._paths.pop(name, None)

    def unregister(self, name: str) -> None:
        """Remove an entry (tests that register a component take it out again)."""
        self._paths.pop(name, None)
        self._objects.pop(name, None)

    def _read_entry_points(self) -> None:
        if self._entry_points_read:
            return
        self._entry_points_read = True
        for ep in entry_points(group=f"halluforge.{self.kind}"):
            self._paths.setdefault(ep.name, ep.value)

    def _sourced(self) -> Mapping[str, str]:
        """The entries the source gives now (read on every lookup, so a family added later counts)."""
        return self._source() if self._source is not None else {}

    def names(self) -> list[str]:
        """All registered names, sorted."""
        self._read_entry_points()
        return sorted(set(self._paths) | set(self._objects) | set(self._sourced()))

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self.names()

    def get(self, name: str) -> T:
        """Return the object registered under ``name``, importing it on first use."""
        if name in self._objects:
            return self._objects[name]
        self._read_entry_points()
        path = self._paths.get(name) or self._sourced().get(name)
        if path is None:
            close = difflib.get_close_matches(name, self.names(), n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"choose one of: {', '.join(self.names())}"
            raise RegistryError(f"unknown {self.kind} {name!r}", hint=hint)
        if path not in self._imported:
            module_name, _, attr = path.partition(":")
            self._imported[path] = getattr(importlib.import_module(module_name), attr)
        return self._imported[path]


__all__ = ["Registry"]
