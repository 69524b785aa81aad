"""A corpus of malformed inputs: each ends in exit 2, one ``error:`` line naming the place, no
traceback, and no new (or changed) file or directory anywhere under the working folder or the
cache folder.

Every case runs the real CLI entry point in a fresh working folder. A case is its files, its
command line, and the texts its error line must contain (the file, and the line or key path
where there is one).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from extra_skips import hide, require
from halluforge.cli.main import main

BASE: dict[str, object] = {
    "output_dir": "runs",
    "models": {"generator": "mock/echo", "targets": ["mock/echo"]},
    "data": [{"loader": "bundled", "limit": 4}],
}

GOOD_ROW = {"question": "Who wrote Hamlet?", "answers": ["Shakespeare"], "evidence": "Hamlet is a play."}
INVITE_ROW = {
    "invalid_question": "Why did Paris found Rome?",
    "model_response_to_invalid_question": "It did not.",
}


def config(**changes: object) -> str:
    """The base config as YAML, with top-level keys replaced (None removes a key)."""
    data = {**BASE, **changes}
    return yaml.safe_dump({k: v for k, v in data.items() if v is not None}, sort_keys=False)


def jsonl(*rows: object) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows)


def source(**fields: object) -> list[dict[str, object]]:
    return [{"loader": "jsonl", "path": "qa.jsonl", **fields}]


@dataclass
class Case:
    """One malformed input: files to write, the command, and what its error line must name."""

    name: str
    argv: list[str]
    expect: list[str]
    files: dict[str, str | bytes] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    needs: tuple[str, str] | None = None  # (extra, module) the case needs, skipped without it
    hidden: tuple[str, ...] = ()  # modules made unimportable: the case of an install without them
    #: prepares the working folder; may return values for ``{name}`` fields in ``argv``
    setup: Callable[[Path], dict[str, str] | None] | None = None
    #: undoes what setup did outside the folder's files (a socket, a file attribute)
    teardown: Callable[[Path], None] | None = None


RUN = ["run", "run.yaml", "--quiet"]


def run_case(name: str, expect: list[str], cfg: str, **files: str | bytes) -> Case:
    return Case(name, RUN, expect, {"run.yaml": cfg, **files})


#: nine levels of nine YAML aliases each: about a billion strings once expanded, 640 bytes written
ALIAS_BOMB = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{','.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)
)
DEEP = 100_000


def _link(name: str, target: str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        (root / name).symlink_to(target)

    return setup


def _fifo(name: str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        os.mkfifo(root / name)

    return setup


def _read_only_store(root: Path) -> None:
    """A finished run of run.yaml whose store.sqlite the kernel will not open for writing, even for root."""
    from halluforge.config import load_config
    from halluforge.pipeline import run_pipeline

    here = Path.cwd()
    os.chdir(root)
    try:
        run_pipeline(load_config("run.yaml"))
    finally:
        os.chdir(here)
    (store,) = root.glob("runs/*/store.sqlite")
    if subprocess.run(["chattr", "+i", str(store)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here (needs root on ext4 or similar)")


def _writable_again(root: Path) -> None:
    for store in root.glob("runs/*/store.sqlite"):
        subprocess.run(["chattr", "-i", str(store)], capture_output=True)


_TAKEN: list[socket.socket] = []


def _port_in_use(root: Path) -> dict[str, str]:
    """A run to view, and a port another program listens on."""
    from halluforge.store import RunStore

    RunStore(root / "runs" / "seen").close()
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    _TAKEN.append(taken)
    return {"port": str(taken.getsockname()[1])}


def _free_port_again(root: Path) -> None:
    while _TAKEN:
        _TAKEN.pop().close()


def _old_run(manifest: str | None) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        folder = root / "runs" / "mine"
        folder.mkdir(parents=True)
        if manifest is not None:
            (folder / "manifest.json").write_text(manifest)

    return setup


CASES: list[Case] = [
    # -- the config file itself
    run_case("empty config", ["run.yaml", "empty"], ""),
    run_case("comments only", ["run.yaml", "empty"], "# nothing here\n"),
    Case(
        "config is a folder",
        ["run", "conf", "--quiet"],
        ["conf", "directory"],
        setup=lambda r: (r / "conf").mkdir(),
    ),
    Case("missing config", ["run", "absent.yaml", "--quiet"], ["absent.yaml", "does not exist"]),
    run_case("config not UTF-8", ["run.yaml", "UTF-8"], b"seed: 1\nname: \xff\xfe\n"),  # type: ignore[arg-type]
    run_case(
        "YAML syntax", ["run.yaml:3", "flow sequence started at line 2"], "seed: 1\nmodels: [unclosed\n"
    ),
    run_case("top level is a list", ["run.yaml", "mapping"], "- seed: 1\n"),
    run_case("duplicate key", ["run.yaml:3", "seed", "duplicate"], "seed: 1\noutput_dir: runs\nseed: 2\n"),
    run_case(
        "duplicate nested key",
        ["run.yaml:4", "models.generator", "duplicate"],
        "models:\n  generator: mock/echo\n  targets: [mock/echo]\n  generator: mock/x\n",
    ),
    run_case("unknown top key", ["run.yaml:1", "anwser", "did you mean 'answer'"], "anwser: {}\n"),
    run_case("unknown nested key", ["run.yaml", "select.limt", "'limit'"], config(select={"limt": 3})),
    run_case(
        "unknown key in a data source",
        ["run.yaml", "data.0.pth"],
        config(data=[{"loader": "jsonl", "pth": "x"}]),
    ),
    # -- bounds on the config (halluforge.limits): aliases, depth, numbers
    run_case("YAML alias bomb", ["run.yaml:2", "aliases (*a)"], ALIAS_BOMB),
    Case(
        "config show: YAML alias bomb",
        ["config", "show", "run.yaml"],
        ["run.yaml:2", "aliases (*a)"],
        {"run.yaml": ALIAS_BOMB},
    ),
    run_case("deeply nested YAML", ["run.yaml:1", "nested deeper than 64"], "x: " + "[" * DEEP + "]" * DEEP),
    run_case("5,001-digit number in YAML", ["run.yaml:1", "5,001 characters"], "seed: " + "9" * 5001 + "\n"),
    run_case(
        "NaN timeout",
        ["run.yaml:", "not a finite number"],
        config(backends={"openai": {"timeout_s": "NAN"}}).replace(": NAN", ": .nan"),
    ),
    run_case(
        "infinite backoff",
        ["run.yaml:", "not a finite number"],
        config(backends={"mock": {"backoff_s": "INF"}}).replace(": INF", ": .inf"),
    ),
    Case(
        "--set NaN delay",
        [*RUN, "--set", "backends.mock.delay_s=.nan"],
        ["--set backends.mock.delay_s", "finite"],
        {"run.yaml": config()},
    ),
    Case(
        "--set YAML alias",
        [*RUN, "--set", "answer.settings=[&s open_book, *s]"],
        ["--set answer.settings", "aliases"],
        {"run.yaml": config()},
    ),
    Case(
        "config file is a FIFO",
        ["run", "fifo.yaml", "--quiet"],
        ["fifo.yaml", "FIFO"],
        setup=_fifo("fifo.yaml"),
    ),
    run_case(
        "max_text_chars zero", ["run.yaml", "limits.max_text_chars"], config(limits={"max_text_chars": 0})
    ),
    # -- numbers and lists
    run_case("negative max_tokens", ["run.yaml", "answer.max_tokens"], config(answer={"max_tokens": -5})),
    run_case("zero select.max_tokens", ["run.yaml", "select.max_tokens"], config(select={"max_tokens": 0})),
    run_case(
        "negative temperature", ["run.yaml", "answer.temperature"], config(answer={"temperature": -0.1})
    ),
    run_case("temperature too high", ["run.yaml", "answer.temperature"], config(answer={"temperature": 9})),
    run_case("negative seed", ["run.yaml", "seed"], config(seed=-1)),
    run_case("seed not a number", ["run.yaml", "seed"], config(seed="many")),
    run_case("negative bootstrap", ["run.yaml", "score.bootstrap"], config(score={"bootstrap": -1})),
    run_case("confidence above 1", ["run.yaml", "score.confidence"], config(score={"confidence": 1.5})),
    run_case("max_error_rate above 1", ["run.yaml", "max_error_rate"], config(max_error_rate=2)),
    run_case("select.limit zero", ["run.yaml", "select.limit"], config(select={"limit": 0})),
    run_case(
        "data limit zero", ["run.yaml", "data.0.limit"], config(data=[{"loader": "bundled", "limit": 0}])
    ),
    run_case("few_shot k zero", ["run.yaml", "answer.few_shot.k"], config(answer={"few_shot": {"k": 0}})),
    run_case("bad literal", ["run.yaml", "select.match"], config(select={"match": "fuzzy"})),
    run_case("empty data", ["run.yaml", "data", "nothing to do"], config(data=[])),
    run_case(
        "empty targets",
        ["run.yaml", "models.targets"],
        config(models={"generator": "mock/echo", "targets": []}),
    ),
    run_case("empty settings", ["run.yaml", "answer.settings"], config(answer={"settings": []})),
    run_case("empty metrics", ["run.yaml", "score.metrics"], config(score={"metrics": []})),
    run_case("no family, no ready-made", ["run.yaml", "families", "nothing to do"], config(families={})),
    # -- names and their options
    run_case(
        "unknown family",
        ["run.yaml", "families.answer_swapp", "'answer_swap'"],
        config(families={"answer_swapp": {}}),
    ),
    run_case(
        "unknown family option",
        ["run.yaml", "families.answer_swap"],
        config(families={"answer_swap": {"nope": 1}}),
    ),
    run_case(
        "unknown setting",
        ["run.yaml", "answer.settings.1", "closed_book"],
        config(answer={"settings": ["open_book", "closd_book"]}),
    ),
    run_case(
        "unknown metric",
        ["run.yaml", "score.metrics.1", "unknown metric"],
        config(score={"metrics": ["em", "f2"]}),
    ),
    run_case(
        "typo in score.options name",
        ["run.yaml", "score.options.premise_jduge"],
        config(score={"options": {"premise_jduge": {}}}),
    ),
    run_case(
        "typo inside score.options",
        ["run.yaml", "score.options.premise_judge", "modez"],
        config(score={"options": {"premise_judge": {"modez": ["rule"]}}}),
    ),
    run_case(
        "unknown judge mode",
        ["run.yaml", "score.options.premise_judge", "vote"],
        config(score={"options": {"premise_judge": {"modes": ["vote"]}}}),
    ),
    run_case(
        "llm judge without a judge model",
        ["run.yaml", "score.options.premise_judge", "models.judge"],
        config(score={"options": {"premise_judge": {"modes": ["llm"]}}}),
    ),
    run_case(
        "options of a scorer that takes none",
        ["run.yaml", "score.options.em"],
        config(score={"options": {"em": {"x": 1}}}),
    ),
    run_case(
        "unknown loader",
        ["run.yaml", "data.0.loader", "'jsonl'"],
        config(data=[{"loader": "jsnl", "path": "qa.jsonl"}]),
    ),
    run_case(
        "unknown loader option",
        ["run.yaml", "data.0.options.delimter"],
        config(data=source(options={"delimter": ","})),
        **{"qa.jsonl": jsonl(GOOD_ROW)},
    ),
    run_case(
        "unknown ready-made family",
        ["run.yaml", "data.0.test_cases"],
        config(data=source(test_cases="answer_swapp")),
        **{"qa.jsonl": jsonl(GOOD_ROW)},
    ),
    run_case(
        "unknown field mapping",
        ["run.yaml", "questoin"],
        config(data=source(fields={"questoin": "q"})),
        **{"qa.jsonl": jsonl(GOOD_ROW)},
    ),
    run_case(
        "unknown backend section", ["run.yaml", "backends.mokc", "'mock'"], config(backends={"mokc": {}})
    ),
    run_case(
        "unknown backend option",
        ["run.yaml", "models.targets.0", "delay"],
        config(backends={"mock": {"delay": 1}}),
    ),
    run_case(
        "negative retries", ["run.yaml", "backends.mock.retries"], config(backends={"mock": {"retries": -1}})
    ),
    # -- model addresses and files
    run_case(
        "unknown backend",
        ["run.yaml", "models.targets.1", "'llamacpp'"],
        config(models={"generator": "mock/echo", "targets": ["mock/echo", "lamacpp/x"]}),
    ),
    run_case(
        "address without a slash",
        ["run.yaml", "models.targets.0", "backend/model"],
        config(models={"generator": "mock/echo", "targets": ["gpt4"]}),
    ),
    run_case(
        "@ without a URL",
        ["run.yaml", "models.targets.0", "http"],
        config(models={"generator": "mock/echo", "targets": ["openai@localhost/m"]}),
    ),
    run_case(
        "bad generator address",
        ["run.yaml", "models.generator"],
        config(models={"generator": "nope", "targets": ["mock/echo"]}),
    ),
    run_case(
        "bad judge address",
        ["run.yaml", "models.judge"],
        config(models={"generator": "mock/echo", "targets": ["mock/echo"], "judge": "x"}),
    ),
    Case(
        "missing GGUF file",
        RUN,
        ["run.yaml", "models.targets.0", "nope.gguf"],
        {"run.yaml": config(models={"generator": "mock/echo", "targets": ["llamacpp/nope.gguf"]})},
        needs=("llamacpp", "llama_cpp"),
    ),
    Case(
        "llamacpp model without the llamacpp extra",
        RUN,
        ["run.yaml", "models.targets.0", 'pip install "halluforge[llamacpp]"'],
        {"run.yaml": config(models={"generator": "mock/echo", "targets": ["llamacpp/smollm2-135m"]})},
        hidden=("llama_cpp",),
    ),
    Case(
        "missing hf model folder",
        RUN,
        ["run.yaml", "models.targets.0", "no-such-folder"],
        {"run.yaml": config(models={"generator": "mock/echo", "targets": ["hf/./no-such-folder"]})},
        needs=("hf", "transformers"),
    ),
    Case(
        "OpenAI without a key",
        RUN,
        ["run.yaml", "models.targets.0", "OPENAI_API_KEY"],
        {"run.yaml": config(models={"generator": "mock/echo", "targets": ["openai/gpt-4o-mini"]})},
        needs=("openai", "openai"),
    ),
    Case(
        "key over plain HTTP to another host",
        RUN,
        ["run.yaml", "models.targets.0", "plain HTTP"],
        {
            "run.yaml": config(
                models={"generator": "mock/echo", "targets": ["openai@http://10.9.8.7:8000/v1/m"]},
                backends={"openai": {"api_key_env": "MY_KEY"}},
            )
        },
        env={"MY_KEY": "sk-secret"},
        needs=("openai", "openai"),
    ),
    Case(
        "Anthropic key over plain HTTP to another host",
        RUN,
        ["run.yaml", "models.targets.0", "plain HTTP", "backends.anthropic.allow_insecure_http"],
        {
            "run.yaml": config(
                models={"generator": "mock/echo", "targets": ["anthropic@http://10.9.8.7:8000/claude"]},
                backends={"anthropic": {"api_key_env": "MY_KEY"}},
            )
        },
        env={"MY_KEY": "sk-secret"},
        needs=("anthropic", "anthropic"),
    ),
    Case(
        "vendor key named for another host",
        RUN,
        ["run.yaml", "models.targets.0", "refusing to send ANTHROPIC_API_KEY"],
        {
            "run.yaml": config(
                models={"generator": "mock/echo", "targets": ["anthropic@https://gateway.example/claude"]},
                backends={"anthropic": {"api_key_env": "ANTHROPIC_API_KEY"}},
            )
        },
        env={"ANTHROPIC_API_KEY": "sk-ant-secret"},
        needs=("anthropic", "anthropic"),
    ),
    # -- data files
    run_case("missing data path", ["run.yaml", "data.0", "no path"], config(data=[{"loader": "jsonl"}])),
    run_case("missing data file", ["qa.jsonl", "file not found"], config(data=source())),
    run_case(
        "bad JSON line",
        ["qa.jsonl:2", "not valid JSON"],
        config(data=source()),
        **{"qa.jsonl": jsonl(GOOD_ROW, "{oops")},
    ),
    run_case(
        "line is not an object",
        ["qa.jsonl:1", "object"],
        config(data=source()),
        **{"qa.jsonl": jsonl("[1, 2]")},
    ),
    run_case(
        "missing question",
        ["qa.jsonl:1", "question"],
        config(data=source()),
        **{"qa.jsonl": jsonl({"query": "q", "answers": ["a"]})},
    ),
    run_case("empty data file", ["qa.jsonl", "no examples"], config(data=source()), **{"qa.jsonl": ""}),
    run_case(
        "question is an object",
        ["qa.jsonl:1", "question", "object"],
        config(data=source()),
        **{"qa.jsonl": jsonl({**GOOD_ROW, "question": {"text": "q"}})},
    ),
    run_case(
        "answers is a boolean",
        ["qa.jsonl:1", "answers", "boolean"],
        config(data=source()),
        **{"qa.jsonl": jsonl({**GOOD_ROW, "answers": True})},
    ),
    run_case(
        "an answer is an object",
        ["qa.jsonl:2", "answers"],
        config(data=source()),
        **{"qa.jsonl": jsonl(GOOD_ROW, {**GOOD_ROW, "answers": [{"a": 1}]})},
    ),
    run_case(
        "evidence is a list",
        ["qa.jsonl:1", "evidence"],
        config(data=source()),
        **{"qa.jsonl": jsonl({**GOOD_ROW, "evidence": ["a", "b"]})},
    ),
    run_case(
        "data not UTF-8",
        ["qa.jsonl", "UTF-8"],
        config(data=source()),
        **{"qa.jsonl": b'{"question": "\xff"}\n'},
    ),  # type: ignore[arg-type]
    run_case(
        "CSV header only",
        ["qa.csv", "no rows"],
        config(data=[{"loader": "csv", "path": "qa.csv"}]),
        **{"qa.csv": "question,answers\n"},
    ),
    run_case(
        "CSV extra cells",
        ["qa.csv:2", "header"],
        config(data=[{"loader": "csv", "path": "qa.csv"}]),
        **{"qa.csv": "question,answers\nq,a,extra\n"},
    ),
    Case(
        "parquet that is not parquet",
        RUN,
        ["qa.parquet"],
        {"run.yaml": config(data=[{"loader": "parquet", "path": "qa.parquet"}]), "qa.parquet": "not parquet"},
        needs=("data", "pyarrow"),
    ),
    Case(
        "parquet without the data extra",
        RUN,
        ["run.yaml", "data.0", "pyarrow", 'pip install "halluforge[data]"'],
        {"run.yaml": config(data=[{"loader": "parquet", "path": "qa.parquet"}]), "qa.parquet": "not parquet"},
        hidden=("pyarrow",),
    ),
    run_case(
        "hf loader, missing local file",
        ["data/missing.jsonl", "file not found"],
        config(data=[{"loader": "hf", "path": "data/missing.jsonl"}]),
    ),
    run_case(
        "hf loader given a file",
        ["qa.jsonl", "loader: jsonl"],
        config(data=[{"loader": "hf", "path": "qa.jsonl"}]),
        **{"qa.jsonl": jsonl(GOOD_ROW)},
    ),
    run_case(
        "ReEval array not closed",
        ["re.json:1", "not valid JSON"],
        config(data=[{"loader": "reeval", "path": "re.json"}]),
        **{"re.json": '[{"question": "q"'},
    ),
    run_case(
        "MRQA line without context",
        ["mrqa.jsonl:2", "context"],
        config(data=[{"loader": "mrqa", "path": "mrqa.jsonl"}]),
        **{"mrqa.jsonl": jsonl({"header": {"dataset": "x"}}, {"qas": []})},
    ),
    run_case(
        "RealtimeQA without choices",
        ["rt.jsonl:1", "choices"],
        config(data=[{"loader": "realtimeqa", "path": "rt.jsonl"}]),
        **{"rt.jsonl": jsonl({"question_sentence": "q?", "answer": ["0"]})},
    ),
    # -- bounds on the data (halluforge.limits): literals, numbers, depth, text, file kinds
    run_case(
        "NaN JSON literal",
        ["qa.jsonl:2", "NaN is not a JSON number"],
        config(data=source()),
        **{"qa.jsonl": jsonl(GOOD_ROW, '{"question": NaN, "answers": ["a"]}')},
    ),
    run_case(
        "Infinity JSON literal",
        ["qa.jsonl:1", "Infinity is not a JSON number"],
        config(data=source()),
        **{"qa.jsonl": jsonl('{"question": "q", "answers": ["a"], "score": -Infinity}')},
    ),
    run_case(
        "5,001-digit JSON number",
        ["qa.jsonl:1", "5,001 digits"],
        config(data=source()),
        **{"qa.jsonl": jsonl('{"question": "q", "answers": [' + "9" * 5001 + "]}")},
    ),
    run_case(
        "deeply nested JSON",
        ["qa.jsonl:1", "nested deeper than 64"],
        config(data=source()),
        **{"qa.jsonl": jsonl('{"question": "q", "answers": ["a"], "x": ' + "[" * DEEP + "]" * DEEP + "}")},
    ),
    run_case(
        "lone surrogate in a JSON string",
        ["qa.jsonl:1", "question", "lone surrogate"],
        config(data=source()),
        **{"qa.jsonl": jsonl('{"question": "Who?\\ud800", "answers": ["a"]}')},
    ),
    run_case(
        "NUL in JSON text",
        ["qa.jsonl:1", "evidence", "NUL"],
        config(data=source()),
        **{"qa.jsonl": jsonl({**GOOD_ROW, "evidence": "Hamlet\u0000 is a play."})},
    ),
    run_case(
        "NUL in CSV text",
        ["qa.csv:2", "question", "NUL"],
        config(data=[{"loader": "csv", "path": "qa.csv"}]),
        **{"qa.csv": "question,answers\nWho\x00?,Ann\n"},
    ),
    run_case(
        "text longer than limits.max_text_chars",
        ["qa.jsonl:2", "evidence", "longer than limits.max_text_chars (100)"],
        config(data=source(), limits={"max_text_chars": 100}),
        **{"qa.jsonl": jsonl(GOOD_ROW, {**GOOD_ROW, "evidence": "word " * 40})},
    ),
    run_case(
        "ReEval element with NaN",
        ["re.json:3", "NaN"],
        config(data=[{"loader": "reeval", "path": "re.json"}]),
        **{"re.json": '[{"question": "q", "answer": "a"},\n\n {"question": "q2", "answer": NaN}]'},
    ),
    Case(
        "data path links to /dev/zero",
        RUN,
        ["qa.jsonl", "device (behind a symlink)"],
        {"run.yaml": config(data=source())},
        setup=_link("qa.jsonl", "/dev/zero"),
    ),
    Case(
        "data path is a FIFO",
        RUN,
        ["qa.jsonl", "FIFO"],
        {"run.yaml": config(data=source())},
        setup=_fifo("qa.jsonl"),
    ),
    # -- command-line values
    Case(
        "--set unclosed list",
        [*RUN, "--set", "answer.settings=[open_book"],
        ["--set answer.settings", "YAML"],
        {"run.yaml": config()},
    ),
    Case(
        "--set YAML tag",
        [*RUN, "--set", "seed=!!python/object/apply:os.system [ls]"],
        ["--set seed"],
        {"run.yaml": config()},
    ),
    Case("--set without =", [*RUN, "--set", "novalue"], ["novalue", "KEY=VALUE"], {"run.yaml": config()}),
    Case(
        "--set a bad value",
        [*RUN, "--set", "select.limit=0"],
        ["--set: select.limit"],
        {"run.yaml": config()},
    ),
    Case("--limit zero", [*RUN, "--limit", "0"], ["select.limit"], {"run.yaml": config()}),
    Case(
        "--set into a scalar", [*RUN, "--set", "seed.x=1"], ["--set: seed", "integer"], {"run.yaml": config()}
    ),
    Case(
        "environment seed",
        RUN,
        ["environment HALLUFORGE_SEED: seed"],
        {"run.yaml": config()},
        env={"HALLUFORGE_SEED": "abc"},
    ),
    # -- run directories
    Case("--run-id ..", [*RUN, "--run-id", ".."], ["'..'", "plain name"], {"run.yaml": config()}),
    Case(
        "--run-id absolute",
        [*RUN, "--run-id", "/tmp/elsewhere"],
        ["/tmp/elsewhere", "plain name"],
        {"run.yaml": config()},
    ),
    Case(
        "--run-id escapes",
        [*RUN, "--run-id", "a/../../b"],
        ["a/../../b", "plain name"],
        {"run.yaml": config()},
    ),
    Case(
        "--run-id with a separator", [*RUN, "--run-id", "a/b"], ["a/b", "plain name"], {"run.yaml": config()}
    ),
    run_case("run_id in the file", ["../x", "plain name"], config(run_id="../x")),
    Case(
        "output folder is a file",
        [*RUN, "--output-dir", "taken"],
        ["taken", "not a folder"],
        {"run.yaml": config(), "taken": "x"},
    ),
    run_case(
        "output folder inside a file", ["taken", "not a folder"], config(output_dir="taken/runs"), taken="x"
    ),
    run_case(
        "cache folder is a file",
        ["cache.path", "not a folder"],
        config(cache={"path": "taken/cache.sqlite"}),
        taken="x",
    ),
    Case(
        "another config's run id",
        [*RUN, "--run-id", "mine"],
        ["'mine'", "different config", "--new"],
        {"run.yaml": config()},
        setup=_old_run(json.dumps({"config": {"seed": 99}})),
    ),
    Case(
        "run id with a corrupt manifest",
        [*RUN, "--run-id", "mine"],
        ["manifest.json", "--new"],
        {"run.yaml": config()},
        setup=_old_run("{not json"),
    ),
    Case(
        "run id with a trailing newline",
        [*RUN, "--run-id", "mine\n"],
        ["'mine\\n'", "plain name"],
        {"run.yaml": config()},
    ),
    Case(
        "run id with a control character",
        [*RUN, "--run-id", "mi\x1bne"],
        ["plain name"],
        {"run.yaml": config()},
    ),
    run_case("run id with a newline in the file", ["plain name"], config(run_id="mine\n")),
    Case(
        "read-only store on resume",
        RUN,
        ["store.sqlite", "cannot be written", "--new"],
        {"run.yaml": config(cache={"enabled": False})},
        setup=_read_only_store,
        teardown=_writable_again,
    ),
    run_case(
        "demos file missing",
        ["missing.jsonl", "file not found"],
        config(answer={"settings": ["few_shot"], "few_shot": {"demos": "missing.jsonl"}}),
    ),
    run_case(
        "demos file not JSON",
        ["demos.jsonl:1", "not valid JSON"],
        config(answer={"settings": ["few_shot"], "few_shot": {"demos": "demos.jsonl"}}),
        **{"demos.jsonl": "not json\n"},
    ),
    run_case(
        "cache path is a folder",
        ["cache.path", "not a regular file"],
        config(cache={"path": "cachedir"}),
        **{"cachedir/keep.txt": "x"},
    ),
    run_case(
        "cache file that is not SQLite",
        ["cache.path", "not a readable SQLite database"],
        config(cache={"path": "cache.sqlite"}),
        **{"cache.sqlite": "this is not a database, it is text " * 200},
    ),
    run_case(
        "TriviaQA loader on plain JSON lines",
        ["qa.jsonl", "line 1", "not a TriviaQA entry", "loader: jsonl"],
        config(data=[{"loader": "triviaqa", "path": "qa.jsonl"}]),
        **{"qa.jsonl": jsonl(GOOD_ROW, GOOD_ROW)},
    ),
    # -- other entry points
    Case("score: corrupt manifest", ["score", "runs/mine"], ["manifest.json"], setup=_old_run("{not json")),
    Case(
        "score: manifest without config",
        ["score", "runs/mine"],
        ["manifest.json", "config"],
        setup=_old_run("{}"),
    ),
    Case(
        "report: not a run directory",
        ["report", "runs/mine"],
        ["runs/mine", "manifest.json"],
        setup=_old_run(None),
    ),
    Case(
        "config show: bad config",
        ["config", "show", "run.yaml"],
        ["run.yaml:1", "anwser"],
        {"run.yaml": "anwser: 1\n"},
    ),
    Case(
        "judge: --out into a missing folder",
        ["judge", "premise", "inv.jsonl", "--out", "missing/out.jsonl"],
        ["missing", "does not exist"],
        {"inv.jsonl": jsonl(INVITE_ROW)},
    ),
    Case(
        "judge: llm without a judge model",
        ["judge", "premise", "inv.jsonl", "--modes", "llm"],
        ["judge model"],
        {"inv.jsonl": jsonl(INVITE_ROW)},
    ),
    Case(
        "judge: bad line",
        ["judge", "premise", "inv.jsonl"],
        ["inv.jsonl:1", "invalid_question"],
        {"inv.jsonl": jsonl({"x": 1})},
    ),
    Case(
        "judge: empty file",
        ["judge", "premise", "empty.jsonl"],
        ["empty.jsonl", "no rows"],
        {"empty.jsonl": ""},
    ),
    Case(
        "judge: --out is a folder",
        ["judge", "premise", "inv.jsonl", "--out", "outdir"],
        ["outdir", "is a folder"],
        {"inv.jsonl": jsonl(INVITE_ROW), "outdir/keep.txt": "x"},
    ),
    Case(
        "judge: input is a FIFO",
        ["judge", "premise", "inv.jsonl"],
        ["inv.jsonl", "FIFO"],
        setup=_fifo("inv.jsonl"),
    ),
    Case(
        "view: port in use",
        ["view", "runs", "--port", "{port}"],
        ["port", "is in use", "--port"],
        needs=("view", "uvicorn"),
        setup=_port_in_use,
        teardown=_free_port_again,
    ),
    Case(
        "index: missing corpus path",
        ["index", "build", "--corpus", "data/missing.jsonl", "--out", "idx"],
        ["data/missing.jsonl", "not found"],
    ),
]


def _snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Every file and folder under ``root`` with its size and modification time."""
    return {
        str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(root.rglob("*"))
    }


def test_the_corpus_is_large_enough() -> None:
    assert len(CASES) >= 135
    assert len({c.name for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if case.needs:
        require(*case.needs)
    hide(monkeypatch, *case.hidden)
    work = tmp_path / "work"
    work.mkdir()
    for name, content in case.files.items():
        target = work / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    fields = (case.setup(work) if case.setup else None) or {}
    try:
        _run_case(
            case,
            [arg.format(**fields) if fields else arg for arg in case.argv],
            work,
            tmp_path,
            monkeypatch,
            capsys,
        )
    finally:
        if case.teardown:
            case.teardown(work)


def _run_case(
    case: Case,
    argv: list[str],
    work: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(work)
    monkeypatch.setenv("HALLUFORGE_CACHE_DIR", str(tmp_path / "cache"))
    for var in (
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "HALLUFORGE_SEED",
        "HALLUFORGE_OUTPUT_DIR",
    ):
        monkeypatch.delenv(var, raising=False)
    for var, value in case.env.items():
        monkeypatch.setenv(var, value)
    before = _snapshot(tmp_path)

    code = main(argv)

    captured = capsys.readouterr()
    err = captured.err
    assert code == 2, f"exit {code}\n{err}"
    assert "Traceback" not in err + captured.out
    error_lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(error_lines) == 1, err
    shown = err  # the error line, and for several problems the lines under it
    for text in case.expect:
        assert text in shown, f"{text!r} not in:\n{err}"
    assert _snapshot(tmp_path) == before, "the command created or changed a file"
