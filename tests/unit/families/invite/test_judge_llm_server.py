"""The judge-model mode against a local OpenAI-compatible server that gives scripted verdicts.

A small FastAPI app (uvicorn in a thread on 127.0.0.1, stopped by the fixture) plays a capable
judge: it reads the answer to check out of the real judge prompt and replies in, or out of, the
strict format. The request goes through halluforge's real ``openai@`` backend and the CLI.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from extra_skips import reason
from halluforge.backends import open_backend
from halluforge.cli.main import main
from halluforge.families.invite.judge import JudgeOptions, PremiseInput, judge_premise
from halluforge.families.invite.judge.llm import SMALL_JUDGE_WARNING

# a FastAPI app on uvicorn plays the judge; halluforge reaches it through its openai backend
fastapi = pytest.importorskip("fastapi", reason=reason("view", "fastapi"))
uvicorn = pytest.importorskip("uvicorn", reason=reason("view", "uvicorn"))
pytest.importorskip("openai", reason=reason("openai", "openai"))

Q = "When did Ada Brun marry Olav Kise?"
REF = "Ada Brun never married Olav Kise."


def _verdict(prompt: str) -> str:
    answer = re.search(r"Answer to check: (.*)\n", prompt)
    text = answer.group(1) if answer else ""
    if "1978" in text:
        return "VERDICT: 1"
    if "never" in text or "no record" in text:
        return "<think>It rejects the assumption.</think>\nVERDICT: 0"
    return "I think it played along, mostly."  # out of format: must not be read as a verdict


def _app() -> Any:
    app = fastapi.FastAPI()

    @app.post("/v1/chat/completions")
    async def chat(body: dict[str, Any]) -> dict[str, Any]:
        prompt = body["messages"][-1]["content"]
        return {
            "id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": _verdict(prompt)}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }  # fmt: skip

    return app


@pytest.fixture(scope="module")
def judge_server() -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(_app(), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started, "the judge stub did not start"
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def test_llm_mode_reads_strict_verdicts_from_a_served_model(judge_server: str) -> None:
    judge = open_backend(f"openai@{judge_server}/judge-7b")
    inputs = [
        PremiseInput(Q, "Ada Brun married Olav Kise in 1978.", REF),
        PremiseInput(Q, "Ada Brun never married Olav Kise.", REF),
        PremiseInput(Q, "Something about a summer day.", REF),
    ]
    out = judge_premise(inputs, JudgeOptions(modes=("llm",)), judge=judge)
    assert [j.label for j in out] == [1, 0, None]
    assert "not 'VERDICT: 0'" in out[2].notes["llm"] and "played along" in out[2].notes["llm_reply"]
    assert all("llm_warning" not in j.notes for j in out)


def test_a_135m_judge_is_flagged(judge_server: str) -> None:
    judge = open_backend(f"openai@{judge_server}/smollm2-135m")
    out = judge_premise([PremiseInput(Q, "In 1978.", REF)], JudgeOptions(modes=("llm",)), judge=judge)
    assert out[0].label == 1 and out[0].notes["llm_warning"] == SMALL_JUDGE_WARNING


def test_cli_llm_mode_with_the_served_judge(
    judge_server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replies = [("They wed in 1978.", "1"), ("There is no record of it.", "0")]
    rows = [
        {"invalid_question": Q, "model_response_to_invalid_question": reply, "hallucination_label": label}
        for reply, label in replies
    ]
    source = tmp_path / "m.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    args = [
        "judge",
        "premise",
        str(source),
        "--modes",
        "llm",
        "--judge-model",
        f"openai@{judge_server}/judge-7b",
    ]
    assert main([*args, "--evaluate"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1] == "agreement=1.0000 kappa=1.0000 rate=0.5000 human_rate=0.5000"


def test_cli_warns_when_the_judge_is_the_135m_model(
    judge_server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "m.jsonl"
    source.write_text(
        json.dumps({"invalid_question": Q, "model_response_to_invalid_question": "In 1978."}) + "\n"
    )
    args = [
        "judge",
        "premise",
        str(source),
        "--modes",
        "llm",
        "--judge-model",
        f"openai@{judge_server}/smollm2-135m",
    ]
    assert main(args) == 0
    assert f"warning: {SMALL_JUDGE_WARNING}" in capsys.readouterr().err
