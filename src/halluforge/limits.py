"""Bounds on everything halluforge reads, so a small hostile file cannot exhaust memory or time.

A 640-byte YAML file of nested aliases expands to gigabytes; a data path that links to
``/dev/zero`` never ends; one 50 MB question made a 1.66 GB run directory; a 5,001-digit
number, a lone surrogate or JSON nested 100,000 deep ended in a traceback; ``NaN`` was read as
a number. Every reader of user input goes through these helpers instead:

- **files**: :func:`regular_file` and :func:`regular_path` refuse anything but a regular file
  (or, where a folder is allowed, a folder): no device, FIFO or socket, also behind a symlink;
- **YAML** (config files, ``--set`` values, template files): :class:`BoundedLoader` refuses
  aliases (``*name``) before anything is expanded, nesting deeper than :data:`MAX_DEPTH`, a
  number longer than :data:`MAX_NUMBER_CHARS` characters, and ``.nan`` / ``.inf``;
- **JSON** (data files): :func:`loads_json` refuses ``NaN`` / ``Infinity`` literals, numbers
  longer than :data:`MAX_NUMBER_CHARS` characters or too large for a float, and nesting deeper
  than :data:`MAX_DEPTH`; every string in the value is then checked by :func:`text_problem`;
- **text**: :func:`text_problem` refuses a text longer than the run's
  ``limits.max_text_chars`` (:data:`DEFAULT_MAX_TEXT_CHARS` by default), a NUL character and a
  lone surrogate (which cannot be written as UTF-8).

The text bound is the run's setting; loaders take only a data source, so the load stage and
the pre-flight check set it for the duration of a read with :func:`text_limit` (a context
variable, so concurrent reads with other bounds do not mix). Each refusal is a
:class:`~halluforge.errors.DataError` or :class:`~halluforge.errors.ConfigError` that names
the file, the line or field, and the fix.
"""

from __future__ import annotations

import json
import math
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import yaml

from halluforge.errors import ConfigError, DataError

#: deepest nesting of lists and mappings accepted in a YAML or JSON value
MAX_DEPTH = 64
#: longest number literal accepted (digits, sign, point and exponent), in characters
MAX_NUMBER_CHARS = 100
#: longest text accepted in one field unless the config's ``limits.max_text_chars`` says otherwise
DEFAULT_MAX_TEXT_CHARS = 1_000_000
#: largest config file accepted, in bytes
MAX_CONFIG_BYTES = 10 * 1024 * 1024

_MAX_TEXT: ContextVar[int] = ContextVar("max_text_chars", default=DEFAULT_MAX_TEXT_CHARS)

TEXT_LIMIT_HINT = "shorten it, or raise limits.max_text_chars in the run config"


@contextmanager
def text_limit(chars: int) -> Iterator[None]:
    """Let :func:`text_problem` accept texts of up to ``chars`` characters while the block runs."""
    token = _MAX_TEXT.set(chars)
    try:
        yield
    finally:
        _MAX_TEXT.reset(token)


def max_text_chars() -> int:
    """The longest text accepted now (the run's ``limits.max_text_chars`` while it reads)."""
    return _MAX_TEXT.get()


# -- files ----------------------------------------------------------------------------------------


def _kind(mode: int) -> str:
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def regular_path(path: Path, *, folder_ok: bool = False) -> Path:
    """``path`` when it is a regular file (or, with ``folder_ok``, a folder), after symlinks.

    A link to ``/dev/zero`` or a FIFO would be read until memory runs out, or forever: such a
    path raises :class:`DataError`; a missing path raises it too ("file not found").
    """
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise DataError(
            "file not found", path=str(path), hint="check the path, relative to where you run"
        ) from None
    except OSError as exc:
        raise DataError(
            f"cannot read it ({exc.strerror or exc})", path=str(path), hint="check the path"
        ) from None
    if stat.S_ISREG(mode) or (folder_ok and stat.S_ISDIR(mode)):
        return path
    if stat.S_ISDIR(mode):
        raise DataError("is a folder, not a file", path=str(path), hint="give the path of a file")
    kind = _kind(mode)
    linked = " (behind a symlink)" if path.is_symlink() else ""
    raise DataError(
        f"is {kind}{linked}, not a regular file: it is not read",
        path=str(path),
        hint="give a regular file; copy a stream into a file first",
    )


def regular_file(path: Path) -> Path:
    """``path`` when it is a regular file (after symlinks), else :class:`DataError`."""
    return regular_path(path, folder_ok=False)


# -- text -----------------------------------------------------------------------------------------


def text_problem(text: str, limit: int | None = None) -> tuple[str, str] | None:
    r"""What is wrong with one text value, as (problem, fix), or None when it is fine.

    Too long (over ``limit``, default :func:`max_text_chars`), a NUL character, or a lone
    surrogate (a ``\ud800`` escape without its pair: not Unicode, so it cannot be stored).
    """
    bound = max_text_chars() if limit is None else limit
    if len(text) > bound:
        return f"text of {len(text):,} characters is longer than limits.max_text_chars ({bound:,})", (
            TEXT_LIMIT_HINT
        )
    if "\x00" in text:
        return (
            f"contains a NUL character (\\u0000) at position {text.index(chr(0))}",
            "remove the NUL characters: they are not text",
        )
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            return (
                f"contains a lone surrogate (\\u{ord(text[exc.start]):04x}) at position {exc.start}, "
                "which is not valid Unicode",
                "fix the \\uXXXX escape: a surrogate must be followed by its pair",
            )
    return None


def check_text(text: str, *, path: str, line: int | None = None, field: str | None = None) -> None:
    """Raise :class:`DataError` naming ``path:line`` and ``field`` when :func:`text_problem` finds one."""
    problem = text_problem(text)
    if problem is not None:
        raise DataError(problem[0], path=path, line=line, field=field, hint=problem[1])


# -- JSON -----------------------------------------------------------------------------------------


class _RefusedError(ValueError):
    """A JSON literal refused while parsing (raised from the parser's hooks)."""


def _parse_int(literal: str) -> int:
    if len(literal) > MAX_NUMBER_CHARS:
        raise _RefusedError(f"a number of {len(literal):,} digits (at most {MAX_NUMBER_CHARS} are accepted)")
    return int(literal)


def _parse_float(literal: str) -> float:
    if len(literal) > MAX_NUMBER_CHARS:
        raise _RefusedError(
            f"a number of {len(literal):,} characters (at most {MAX_NUMBER_CHARS} are accepted)"
        )
    value = float(literal)
    if not math.isfinite(value):
        raise _RefusedError(f"the number {literal} is too large to be a finite number")
    return value


def _parse_constant(literal: str) -> float:
    raise _RefusedError(f"{literal} is not a JSON number (NaN and Infinity are refused)")


def check_json_value(value: Any, *, path: str, line: int | None = None, limit: int | None = None) -> None:
    """Walk a parsed JSON value (without recursion): nesting depth, and every key and string.

    Raises :class:`DataError` naming ``path:line`` and the field (``qas[0].context``).
    """
    stack: list[tuple[Any, str, int]] = [(value, "", 1)]
    while stack:
        item, where, depth = stack.pop()
        if isinstance(item, str):
            problem = text_problem(item, limit)
            if problem is not None:
                raise DataError(problem[0], path=path, line=line, field=where or None, hint=problem[1])
        elif isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise DataError(
                    f"nested deeper than {MAX_DEPTH} levels",
                    path=path,
                    line=line,
                    field=where or None,
                    hint="flatten the value; data rows need only a few levels",
                )
            if isinstance(item, dict):
                for key, child in item.items():
                    name = f"{where}.{key}" if where else str(key)
                    stack.append((key, name, depth + 1))
                    stack.append((child, name, depth + 1))
            else:
                stack.extend((child, f"{where}[{i}]", depth + 1) for i, child in enumerate(item))


_DECODER = json.JSONDecoder(parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)


def _decode(text: str, position: int, path: str, line: int | None) -> tuple[Any, int]:
    try:
        return _DECODER.raw_decode(text, position)
    except _RefusedError as exc:
        raise DataError(str(exc), path=path, line=line, hint="write an ordinary number") from None
    except RecursionError:
        raise DataError(
            f"nested deeper than {MAX_DEPTH} levels", path=path, line=line, hint="flatten the value"
        ) from None


def raw_decode_json(text: str, position: int, *, path: str, line: int | None = None) -> tuple[Any, int]:
    """``JSONDecoder.raw_decode`` at ``position`` with the bounds of :func:`loads_json`: (value, end)."""
    value, end = _decode(text, position, path, line)
    check_json_value(value, path=path, line=line)
    return value, end


def loads_json(text: str, *, path: str, line: int | None = None) -> Any:
    """``json.loads`` with the bounds of this module; a syntax error stays a ``json.JSONDecodeError``.

    NaN / Infinity literals, over-long or infinite numbers, nesting deeper than
    :data:`MAX_DEPTH`, and strings that :func:`text_problem` refuses raise :class:`DataError`.
    """
    value, end = _decode(text, len(text) - len(text.lstrip()), path, line)
    rest = text[end:]
    if rest.strip():
        raise json.JSONDecodeError("Extra data", text, end + len(rest) - len(rest.lstrip()))
    check_json_value(value, path=path, line=line)
    return value


# -- YAML -----------------------------------------------------------------------------------------


class YAMLLimitError(yaml.composer.ComposerError):
    """A YAML input refused by a bound (alias, depth, number); carries the mark and a fix."""

    def __init__(self, problem: str, mark: Any, hint: str) -> None:
        super().__init__(None, None, problem, mark)
        self.hint = hint


class BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader with this module's bounds, checked while composing, before expansion.

    An alias (``*name``) is refused where it is met, so a file of nested aliases costs nothing;
    write the value out instead. Nesting deeper than :data:`MAX_DEPTH` is refused before the
    composer recurses into it.
    """

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        """Compose one node, refusing aliases and depth past :data:`MAX_DEPTH`."""
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise YAMLLimitError(
                f"YAML aliases (*{event.anchor}) are not accepted",
                event.start_mark,
                "write the value out instead of referring to an &anchor",
            )
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH and self.check_event(yaml.CollectionStartEvent):
                mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]
                raise YAMLLimitError(
                    f"nested deeper than {MAX_DEPTH} levels",
                    mark,
                    "flatten the value; a config needs a few levels",
                )
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_bounded_int(self, node: yaml.ScalarNode) -> int:
        """An int no longer than :data:`MAX_NUMBER_CHARS` characters."""
        if len(str(node.value)) > MAX_NUMBER_CHARS:
            raise YAMLLimitError(
                f"a number of {len(str(node.value)):,} characters (at most {MAX_NUMBER_CHARS} are accepted)",
                node.start_mark,
                "write an ordinary number",
            )
        return int(super().construct_yaml_int(node))

    def construct_bounded_float(self, node: yaml.ScalarNode) -> float:
        """A finite float no longer than :data:`MAX_NUMBER_CHARS` characters (``.nan``, ``.inf`` refused)."""
        value = float(super().construct_yaml_float(node))
        if len(str(node.value)) > MAX_NUMBER_CHARS or not math.isfinite(value):
            raise YAMLLimitError(
                f"{node.value!s:.40} is not a finite number (NaN and infinity are refused)",
                node.start_mark,
                "write an ordinary number",
            )
        return value


BoundedLoader.add_constructor("tag:yaml.org,2002:int", BoundedLoader.construct_bounded_int)
BoundedLoader.add_constructor("tag:yaml.org,2002:float", BoundedLoader.construct_bounded_float)


def compose_yaml(text: str) -> tuple[yaml.Node | None, Any]:
    """(the node tree, the data) of one YAML document, under :class:`BoundedLoader`'s bounds.

    Raises ``yaml.YAMLError`` (a :class:`YAMLLimitError` for a bound) with the mark of the
    place; the node tree holds no alias, so walking it visits each node once.
    """
    loader = BoundedLoader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    return node, data


def load_yaml(text: str) -> Any:
    """The data of one YAML document, under :class:`BoundedLoader`'s bounds."""
    return compose_yaml(text)[1]


def yaml_hint(exc: yaml.YAMLError, default: str) -> str:
    """The fix for a YAML error: a bound's own hint, else ``default``."""
    hint = getattr(exc, "hint", None)
    return hint if isinstance(hint, str) else default


def check_config_size(path: Path) -> None:
    """Refuse a config file larger than :data:`MAX_CONFIG_BYTES`."""
    size = path.stat().st_size
    if size > MAX_CONFIG_BYTES:
        raise ConfigError(
            f"{path}: a config file of {size:,} bytes (at most {MAX_CONFIG_BYTES:,} are read)",
            hint="a run config is a few hundred lines; put data in data files",
        )


__all__ = [
    "DEFAULT_MAX_TEXT_CHARS",
    "MAX_CONFIG_BYTES",
    "MAX_DEPTH",
    "MAX_NUMBER_CHARS",
    "TEXT_LIMIT_HINT",
    "BoundedLoader",
    "YAMLLimitError",
    "check_config_size",
    "check_json_value",
    "check_text",
    "compose_yaml",
    "load_yaml",
    "loads_json",
    "max_text_chars",
    "raw_decode_json",
    "regular_file",
    "regular_path",
    "text_limit",
    "text_problem",
    "yaml_hint",
]
