"""``halluforge run`` without a config is the quick main job; ``--full`` is the whole one."""

from __future__ import annotations

import argparse

import pytest

from halluforge.cli.run import QUICK_LIMIT, add_parser, quick_job, quick_overrides
from halluforge.config import load_config
from halluforge.errors import ConfigError


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers())
    return parser.parse_args(["run", *argv])


def test_no_config_is_the_quick_job() -> None:
    args = _args()
    config = load_config(None, quick_overrides(args), environ={})
    assert config.select.limit == QUICK_LIMIT
    assert quick_job(args, config)


def test_a_limit_on_the_command_line_wins() -> None:
    args = _args("--limit", "3")
    config = load_config(None, quick_overrides(args), environ={})
    assert config.select.limit == 3 and not quick_job(args, config)


def test_full_runs_every_example() -> None:
    args = _args("--full")
    config = load_config(None, quick_overrides(args), environ={})
    assert config.select.limit is None and not quick_job(args, config)


def test_a_config_runs_as_written_and_refuses_full(tmp_path: object) -> None:
    assert "select.limit" not in quick_overrides(_args("my.yaml"))
    with pytest.raises(ConfigError, match="--full is for the main job without a config file"):
        quick_overrides(_args("my.yaml", "--full"))
