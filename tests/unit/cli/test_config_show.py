"""``halluforge config show`` spells out every default, families' and backends' included."""

from __future__ import annotations

import pytest
import yaml

from halluforge.cli.main import main


def test_config_show_includes_family_and_backend_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "show", "--set", "models.targets=[mock/echo]"]) == 0
    shown = yaml.safe_load(capsys.readouterr().out)
    swap = shown["families"]["answer_swap"]
    assert swap["max_attempts"] >= 1 and "buckets" in swap
    assert shown["backends"]["mock"] == {
        "concurrency": None,
        "retries": 3,
        "backoff_s": 0.5,
        "max_retry_after_s": 120.0,
    }
    assert set(shown["backends"]) == {"llamacpp", "mock"}  # the generator stays the default model
    assert shown["answer"]["max_tokens"] == 24
