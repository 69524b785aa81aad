"""The claims family (ABCD) end to end with scripted models, and examples/abcd.yaml with mock/echo."""

from __future__ import annotations

from pathlib import Path

from halluforge.config import load_config
from halluforge.families.claims.metrics import verdict_of
from halluforge.pipeline import run_pipeline
from halluforge.records import Response, Score, TestCase
from halluforge.store import RunStore

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

DECOMPOSITION = """"which French author" asks for an author, so the answer is an author.
Claims:
1. <answer> is an author.
2. <answer> wrote the novel <Novel>.
3. <novel> by <answer> has Professor Lidenbrock climbing down into an Icelandic volcano.
4. <answer> created the submarine captain Nemo.

Question: Which river flows through Paris?"""

SCRIPT = [
    ["Break a quiz question", DECOMPOSITION],
    ["Answer the question using what you know", "Answer: H. G. Wells"],
    ["For your answer above", "novel: The Time Machine"],
    ["The answer to this question is", "<novel>: Journey to the Centre of the Earth"],
    ["Proposed answer", "True."],
    ["True or False: H. G. Wells is an author", "True"],
    ["True or False: H. G. Wells wrote the novel The Time Machine", "True"],
    ["True or False: The Time Machine by H. G. Wells has Professor", "False."],
    ["True or False: H. G. Wells created", "I'm not sure."],
    ["True or False: Jules Verne is an author", "True"],
    ["True or False: Jules Verne wrote the novel Journey", "True"],
    ["True or False: Journey to the Centre of the Earth by Jules Verne has", "TRUE"],
    ["True or False: Jules Verne created", "False"],
]


def test_claims_family_answers_fills_tags_and_scores(tmp_path: Path) -> None:
    config = load_config(
        EXAMPLES / "abcd.yaml",
        {
            "output_dir": str(tmp_path / "runs"),
            "cache.enabled": False,
            "models.generator": "mock/script",
            "models.targets": ["mock/script"],
            "backends": {"mock": {"script": SCRIPT, "default": "no idea"}},
            "select.limit": 1,
            "score.bootstrap": 20,
        },
        environ={},
    )
    result = run_pipeline(config)
    store = RunStore(result.run_dir)
    try:
        (case,) = store.all(TestCase)
        assert case.family == "claims" and case.valid
        assert case.metadata["decomposition"] == "llm" and case.metadata["tags"] == ["<answer>", "<novel>"]
        assert [c.id for c in case.claims] == ["c1", "c2", "c3", "c4"]
        assert all(c.provenance and c.provenance.path == "llm" for c in case.claims)

        by_turn = {r.turn: r for r in store.all(Response)}
        assert set(by_turn) == {"", "tags", "gt_tags", "whole"} | {
            f"{kind}:c{i}" for kind in ("claim", "gt") for i in range(1, 5)
        }
        # the tag turn continues the answer's conversation; each claim is asked on its own
        assert [m.role for m in by_turn["tags"].messages] == ["user", "assistant", "user", "assistant"]
        assert [m.role for m in by_turn["claim:c2"].messages] == ["user", "assistant"]
        # the same <novel> value fills both claims that share the tag, with the target's answer
        assert by_turn["claim:c2"].prompt == "True or False: H. G. Wells wrote the novel The Time Machine."
        assert by_turn["claim:c3"].prompt.startswith("True or False: The Time Machine by H. G. Wells has")
        # the ground-truth variant: the same claims with the gold answer and the target's gold tags
        assert by_turn["gt:c2"].prompt == (
            "True or False: Jules Verne wrote the novel Journey to the Centre of the Earth."
        )
        assert by_turn["gt:c3"].prompt.startswith(
            "True or False: Journey to the Centre of the Earth by Jules Verne"
        )
        assert "Proposed answer: H. G. Wells" in by_turn["whole"].prompt

        scores = store.all(Score)
        by_metric = {(s.metric, s.item): s for s in scores}
        assert verdict_of(by_metric[("claim_verdict", "c3")]) == "false"
        assert verdict_of(by_metric[("claim_verdict", "c4")]) == "idk"
        assert by_metric[("hit", None)].value == 0.0
        # score_T over c2..c4 (type claim left out): true, false, idk -> 1/3; gold: true, true, false -> 2/3
        assert by_metric[("score_t", None)].value == 1 / 3
        assert by_metric[("score_t_gt", None)].value == 2 / 3
        assert by_metric[("score_t", None)].details["correct"] == 0.0
        assert by_metric[("score_t", None)].details["whole"] == 1.0
        assert result.summary.get("claims", "mock/script", "closed_book", "score_t") is not None
        markdown = (result.run_dir / "summary.md").read_text(encoding="utf-8")
        assert "ABCD Table 1" in markdown and "ABCD Table 3" in markdown
        assert "| mock/script | bundled:hard_trivia | 1 | 0 | 0 |" in markdown  # GT > Pred once
        assert "One case, claim by claim" in markdown
    finally:
        store.close()


def test_abcd_example_runs_with_mock_echo_and_its_summary_shows_score_t(tmp_path: Path) -> None:
    config = load_config(
        EXAMPLES / "abcd.yaml",
        {
            "output_dir": str(tmp_path / "runs"),
            "models.generator": "mock/echo",
            "models.targets": ["mock/echo"],
            "select.limit": 5,
            "score.bootstrap": 20,
        },
        environ={},
    )
    result = run_pipeline(config)
    store = RunStore(result.run_dir)
    try:
        cases = store.all(TestCase)
        assert len(cases) == 5
        # echo repeats the prompt, which is never a valid decomposition: the rule fallback made every set
        assert all(c.metadata["decomposition"] == "rule" and c.valid for c in cases)
        assert all(c.claims[0].provenance and c.claims[0].provenance.path == "fallback" for c in cases)
        row = result.summary.get("claims", "mock/echo", "closed_book", "score_t")
        assert row is not None and row.n == 5
        markdown = (result.run_dir / "summary.md").read_text(encoding="utf-8")
        assert "score_t" in markdown and "Claim decomposition" in markdown
    finally:
        store.close()
