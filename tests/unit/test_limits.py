"""Bounds on input: YAML aliases and depth, JSON literals and depth, text, and regular files only."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest
import yaml

from halluforge.errors import DataError
from halluforge.limits import (
    MAX_DEPTH,
    YAMLLimitError,
    check_json_value,
    compose_yaml,
    load_yaml,
    loads_json,
    regular_file,
    regular_path,
    text_limit,
    text_problem,
)

#: the classic "billion laughs": 9 levels of 9 aliases each, about a billion strings expanded
ALIAS_BOMB = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{','.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)
)


def test_yaml_aliases_are_refused_before_expansion() -> None:
    assert len(ALIAS_BOMB) < 700
    with pytest.raises(YAMLLimitError, match=r"aliases \(\*a\)") as info:
        compose_yaml(ALIAS_BOMB)
    assert info.value.problem_mark is not None and info.value.problem_mark.line == 1  # the line of *a
    with pytest.raises(YAMLLimitError):
        load_yaml("x: &x 1\ny: *x\n")
    assert load_yaml("x: &x 1\ny: 2\n") == {"x": 1, "y": 2}  # an anchor alone is harmless


def test_yaml_depth() -> None:
    deep_ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert compose_yaml(deep_ok)[1] is not None
    for depth in (MAX_DEPTH + 1, 100_000):
        with pytest.raises(YAMLLimitError, match="nested deeper"):
            load_yaml("[" * depth + "]" * depth)


def test_yaml_numbers() -> None:
    assert load_yaml("a: 12\nb: 1.5\nc: -3\n") == {"a": 12, "b": 1.5, "c": -3}
    for text in ("t: .nan", "t: .inf", "t: -.Inf", "t: 1.0e+999"):
        with pytest.raises(YAMLLimitError, match="not a finite number"):
            load_yaml(text)
    with pytest.raises(YAMLLimitError, match="5,001 characters"):
        load_yaml("seed: " + "9" * 5001)
    with pytest.raises(yaml.YAMLError):
        load_yaml("x: !!python/object/apply:os.system [ls]")  # still the safe loader


def test_json_literals_and_numbers() -> None:
    assert loads_json('{"a": [1, 2.5, -3e2, "x"]}', path="f") == {"a": [1, 2.5, -300.0, "x"]}
    for literal in ("NaN", "Infinity", "-Infinity"):
        with pytest.raises(DataError, match=f"{literal} is not a JSON number") as info:
            loads_json(f'{{"timeout": {literal}}}', path="f.jsonl", line=3)
        assert str(info.value).startswith("f.jsonl:3: ")
    with pytest.raises(DataError, match="5,001 digits"):
        loads_json("[" + "9" * 5001 + "]", path="f")
    with pytest.raises(DataError, match="finite"):
        loads_json("[1e400]", path="f")
    with pytest.raises(json.JSONDecodeError):
        loads_json('{"a": 1} {"b": 2}', path="f")  # syntax errors stay the caller's to word


def test_json_depth() -> None:
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert loads_json(ok, path="f") is not None
    for depth in (MAX_DEPTH + 1, 100_000):  # the second would hit Python's recursion limit
        with pytest.raises(DataError, match="nested deeper"):
            loads_json("[" * depth + "]" * depth, path="f", line=1)


def test_text_in_json_values() -> None:
    with pytest.raises(DataError, match="lone surrogate") as info:
        loads_json('{"question": "q\\ud800"}', path="f.jsonl", line=2)
    assert "f.jsonl:2: field 'question'" in str(info.value)
    assert loads_json('{"q": "\\ud83d\\ude00"}', path="f") == {"q": "\U0001f600"}  # a pair is fine
    with pytest.raises(DataError, match="NUL") as info:
        loads_json('{"qas": [{"context": "a\\u0000b"}]}', path="f")
    assert "qas[0].context" in str(info.value)
    with pytest.raises(DataError, match="NUL"):
        check_json_value({"a\x00": 1}, path="f")  # keys too


def test_text_limit_is_the_runs() -> None:
    text = "x" * 20
    assert text_problem(text) is None
    with text_limit(10):
        problem = text_problem(text)
        assert (
            problem is not None
            and "20 characters" in problem[0]
            and "limits.max_text_chars (10)" in problem[0]
        )
        with pytest.raises(DataError, match=r"limits\.max_text_chars"):
            loads_json(json.dumps({"evidence": text}), path="f", line=1)
    assert text_problem(text) is None


def test_only_regular_files_are_read(tmp_path: Path) -> None:
    plain = tmp_path / "plain.jsonl"
    plain.write_text("{}\n")
    assert regular_file(plain) == plain
    link = tmp_path / "zero.jsonl"
    link.symlink_to("/dev/zero")
    with pytest.raises(DataError, match=r"is a device \(behind a symlink\)"):
        regular_file(link)
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(DataError, match="FIFO"):
        regular_file(fifo)
    with pytest.raises(DataError, match="folder"):
        regular_file(tmp_path)
    assert regular_path(tmp_path, folder_ok=True) == tmp_path
    with pytest.raises(DataError, match="file not found"):
        regular_file(tmp_path / "absent")


def test_wrapper_options_refuse_infinity() -> None:
    from halluforge.backends import split_options
    from halluforge.errors import ConfigError

    for name in ("backoff_s", "max_retry_after_s", "retries"):
        for value in (math.inf, math.nan):
            with pytest.raises(ConfigError, match=f"backends.mock.{name}"):
                split_options("mock", {name: value})


def test_a_config_file_over_ten_mib_is_refused(tmp_path: Path) -> None:
    from halluforge.config import read_yaml
    from halluforge.errors import ConfigError
    from halluforge.limits import MAX_CONFIG_BYTES

    big = tmp_path / "big.yaml"
    big.write_text("# " + "x" * MAX_CONFIG_BYTES + "\nseed: 1\n")
    with pytest.raises(ConfigError, match=r"big\.yaml: a config file of"):
        read_yaml(big)
