from pathlib import Path

import pytest

from halluforge.config import RunConfig, load_config, parse_override
from halluforge.errors import ConfigError


def test_defaults_are_the_embedded_main_job() -> None:
    config = load_config(environ={})
    assert config.models.generator == "llamacpp/smollm2-135m"
    assert config.models.targets == ["llamacpp/smollm2-135m"]
    assert config.data[0].loader == "bundled"
    assert list(config.families) == ["answer_swap"]
    assert config.answer.settings == ["closed_book", "open_book", "few_shot", "opinion"]


def test_unknown_key_suggests_the_closest(tmp_path: Path) -> None:
    path = tmp_path / "run.yaml"
    path.write_text("select:\n  limt: 3\n")
    with pytest.raises(ConfigError) as info:
        load_config(path, environ={})
    message = str(info.value)
    assert str(path) in message and "select.limt" in message and "did you mean 'limit'" in message


def test_unknown_top_level_key(tmp_path: Path) -> None:
    path = tmp_path / "run.yaml"
    path.write_text("modles:\n  generator: mock/echo\n")
    with pytest.raises(ConfigError, match="did you mean 'models'"):
        load_config(path, environ={})


def test_unknown_key_inside_list_item(tmp_path: Path) -> None:
    path = tmp_path / "run.yaml"
    path.write_text("data:\n  - loader: jsonl\n    pth: x.jsonl\n")
    with pytest.raises(ConfigError, match="did you mean 'path'"):
        load_config(path, environ={})


def test_bad_value_names_key(tmp_path: Path) -> None:
    path = tmp_path / "run.yaml"
    path.write_text("seed: many\n")
    with pytest.raises(ConfigError, match=r"run.yaml:1: seed: .*integer"):
        load_config(path, environ={})


def test_yaml_syntax_error_names_line(tmp_path: Path) -> None:
    path = tmp_path / "run.yaml"
    path.write_text("seed: 1\nmodels: [unclosed\n")
    with pytest.raises(ConfigError, match=r"run.yaml:\d+"):
        load_config(path, environ={})


def test_precedence_defaults_file_env_cli(tmp_path: Path) -> None:
    path = tmp_path / "run.yaml"
    path.write_text("seed: 1\noutput_dir: from-file\nmodels:\n  generator: mock/echo\n")
    env = {"HALLUFORGE_SEED": "2", "HALLUFORGE_TARGETS": "mock/echo, mock/const:x"}
    config = load_config(path, {"seed": 3}, environ=env)
    assert config.seed == 3
    assert config.output_dir == "from-file"
    assert config.models.targets == ["mock/echo", "mock/const:x"]
    assert load_config(path, environ=env).seed == 2


def test_parse_override_reads_yaml_values() -> None:
    assert parse_override("select.limit=20") == ("select.limit", 20)
    assert parse_override("answer.settings=[open_book]") == ("answer.settings", ["open_book"])
    with pytest.raises(ConfigError):
        parse_override("novalue")


def test_run_id_is_stable_and_changes_with_config() -> None:
    a, b = RunConfig(), RunConfig()
    assert a.resolved_run_id() == b.resolved_run_id()
    c = RunConfig(seed=5)
    assert c.resolved_run_id() != a.resolved_run_id()
    assert RunConfig(run_id="mine").resolved_run_id() == "mine"


def test_where_a_run_executes_does_not_change_its_id() -> None:
    on_ray = load_config(None, {"executor": {"kind": "ray", "workers": 4}}, environ={})
    assert on_ray.resolved_run_id() == RunConfig().resolved_run_id()
    with pytest.raises(ConfigError, match=r"executor\.kind"):
        load_config(None, {"executor": {"kind": "slurm"}}, environ={})
