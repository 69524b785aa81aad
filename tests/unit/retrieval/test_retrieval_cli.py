"""`halluforge index build` and `halluforge index query` on a tiny corpus."""

import json
from pathlib import Path

import pytest

from extra_skips import require
from halluforge.cli.main import main

ROWS = [
    {"id": "1", "title": "Ostra River", "text": "The Ostra is a slow river that flows through Belcamp."},
    {
        "id": "2",
        "title": "Glass [harp]",
        "text": "A glass harp is played by rubbing wet fingers on glass rims.",
    },
    {"id": "3", "title": "Volcano", "text": "A volcano is a rupture in the crust where lava escapes."},
]


def _corpus(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in ROWS), encoding="utf-8")
    return path


def test_bm25_build_then_query(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require("retrieval", "bm25s")
    out = tmp_path / "idx"
    code = main(
        ["index", "build", "--corpus", str(_corpus(tmp_path)), "--kind", "bm25", "--out", str(out), "--quiet"]
    )
    assert code == 0
    assert "built bm25 index of 3 passages" in capsys.readouterr().out
    assert main(["index", "query", str(out), "rubbing glass rims", "-k", "2"]) == 0
    printed = capsys.readouterr().out
    assert "Glass [harp]" in printed  # titles are data, not rich markup
    assert "Ostra River" not in printed


@pytest.mark.slow
def test_dense_build_then_query(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require("retrieval", "sentence_transformers")
    require("retrieval", "faiss")
    out = tmp_path / "idx"
    code = main(
        ["index", "build", "--corpus", str(_corpus(tmp_path)), "--out", str(out), "--batch-size", "2"]
    )
    assert code == 0
    assert "built dense (all-MiniLM-L6-v2, flat) index of 3 passages" in capsys.readouterr().out
    assert main(["index", "query", str(out), "molten rock erupting", "-k", "1"]) == 0
    printed = capsys.readouterr().out
    assert "Volcano" in printed and "Ostra River" not in printed


def test_errors_exit_2_with_a_one_line_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["index", "build", "--corpus", str(tmp_path / "absent.jsonl"), "--out", str(tmp_path / "o")])
    assert code == 2
    err = capsys.readouterr().err
    assert "corpus not found" in err and "Traceback" not in err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "ok"}\n{"title": "no text"}\n', encoding="utf-8")
    assert main(["index", "build", "--corpus", str(bad), "--kind", "bm25", "--out", str(tmp_path / "o")]) == 2
    assert f"{bad}:2" in capsys.readouterr().err
    assert main(["index", "query", str(tmp_path), "x"]) == 2
    assert "no manifest.json" in capsys.readouterr().err
    assert main(["index", "build", "--corpus", str(bad), "--field", "nonsense", "--out", "o"]) == 2
    assert "OURS=YOURS" in capsys.readouterr().err
