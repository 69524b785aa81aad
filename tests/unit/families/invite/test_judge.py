"""The premise judge: each mode, their combination, the scorer, and agreement on the dev labels."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extra_skips import needs, require
from halluforge.backends import open_backend
from halluforge.errors import ConfigError, ModelError
from halluforge.families.invite.judge import (
    JudgeOptions,
    PremiseInput,
    combine,
    invalid_dates,
    judge_premise,
    parse_judge_reply,
    question_entities,
    rule_judge,
    swapped_span,
)
from halluforge.families.invite.judge.evaluate import agreement, kappa
from halluforge.metrics import SCORERS, ScoreContext
from halluforge.records import Edit, Response, TestCase

Q = "When did Joshua Sinclair write Adavalle Aligithe?"
REF = "Joshua Sinclair did not write Adavalle Aligithe."
DEV = Path(__file__).resolve().parents[4] / ".." / "shared" / "data" / "invite_labels_dev"


# ---------------------------------------------------------------- rule mode


@pytest.mark.parametrize(
    ("response", "label", "reason"),
    [
        ("", 0, "empty"),
        ("   \n ", 0, "empty"),
        (f"{Q}\n\n{Q}\n\n{Q}", 0, "echo"),
        (
            "Joshua Sinclair did not write Adavalle Aligithe; it was written by someone else.",
            0,
            "negates_premise",
        ),
        ("Joshua Sinclair never wrote that novel.", 0, "negates_premise"),
        ("There is no record of such a book by this author.", 0, "rejects_premise"),
        ("I'm sorry, but I can't help with that request.", 0, "refuses"),
        ("I don't know.", 0, "uncertain"),
        ("The answer is:\n\nThe answer is:\n\nThe answer is:", 0, "degenerate"),
        ("Joshua Sinclair wrote Adavalle Aligithe in 1978.", 1, "asserts_premise"),
        ("Sinclair finished Adavalle Aligithe in the summer of 1978.", 1, "asserts_premise"),
        ("It came out in 1978, a year after the film.", 1, "answers"),
        ("I'm not sure when he wrote it, but I do know that he wrote it in 2004.", 1, "answers"),
    ],
)
def test_rule_mode_on_crafted_responses(response: str, label: int, reason: str) -> None:
    verdict = rule_judge(Q, response)
    assert (verdict.label, verdict.reason) == (label, reason)


def test_rule_correction_counts_as_rejection() -> None:
    q = "When did Lisa McCormick publish Serpent's Reach?"
    text = "Serpent's Reach was actually written by C. J. Cherryh, who published it in 1980."
    assert rule_judge(q, text).label == 0


def test_rule_uses_the_swapped_entity_when_known() -> None:
    q = "Which part of Iran is São Pedro da Serra located in?"
    placed = "São Pedro da Serra is a village in the state of Rio de Janeiro, Brazil."
    assert rule_judge(q, placed, entities=("Iran",)).label == 0
    assert rule_judge(q, "São Pedro da Serra is located in the north of Iran.", entities=("Iran",)).label == 1


def test_invalid_date_rules() -> None:
    q = "Known as the Ocean State, what was the 13th state to join the union on 87th May, 1790?"
    assert invalid_dates(q, this_year=2026) == ["87th"]
    assert rule_judge(q, "Rhode Island joined on 87th May, 1790.", this_year=2026).label == 1
    assert rule_judge(q, "Rhode Island, which joined on May 29th, 1790.", this_year=2026).label == 0
    assert rule_judge(q, "There is no 87th of May; the date is not valid.", this_year=2026).label == 0
    future = "Who won four gold medals in the 2059 Berlin Olympic Games?"
    assert invalid_dates(future, this_year=2026) == ["2059"]
    assert (
        rule_judge(future, "Jesse Owens won four gold medals at the 2059 Games.", this_year=2026).label == 1
    )


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What happened on 29th February, 2023 in Paris?", ["29th"]),  # not a leap year
        ("What happened on 29th February, 2024 in Paris?", []),  # leap year
        ("What happened on 31st April, 1990?", ["31st"]),
        ("What happened on 30th April, 1990?", []),
        ("What happened on 31st December, 2030?", ["2030"]),
    ],
)
def test_invalid_dates_edge_cases(question: str, expected: list[str]) -> None:
    assert invalid_dates(question, this_year=2026) == expected


def test_entities_and_swapped_span() -> None:
    assert question_entities(Q) == ["Joshua Sinclair", "Adavalle Aligithe"]
    assert question_entities(
        "How long did Ma Chengxiang serve as commander of Southern Ukraine campaign?"
    ) == [
        "Ma Chengxiang",
        "Southern Ukraine",
    ]
    assert swapped_span("When did Ganesh Patro write Adavalle Aligithe?", Q) == "Joshua Sinclair"


# ---------------------------------------------------------------- combination and options


def test_combine_rules() -> None:
    labels = {"rule": 1, "nli": 0, "llm": 1}
    assert combine(labels, "any") == 0
    assert combine(labels, "majority") == 1
    assert combine(labels, "all") == 1
    assert combine({"rule": 1, "nli": 0}, "majority") == 0  # tie -> 0
    assert combine({"rule": 0, "nli": 0}, "all") == 0
    assert combine({"rule": 1, "nli": None}, "any") == 1  # not computed is left out
    assert combine({"nli": None}, "any") is None


def test_options_are_validated() -> None:
    assert JudgeOptions.from_options({"modes": "rule, llm"}).modes == ("rule", "llm")
    with pytest.raises(ConfigError, match="unknown modes"):
        JudgeOptions.from_options({"modes": ["rule", "vibes"]})
    with pytest.raises(ConfigError, match="combine"):
        JudgeOptions.from_options({"combine": "sometimes"})


@needs("judge")  # agreement and kappa are scikit-learn's
def test_kappa_and_agreement() -> None:
    assert kappa([1, 0, 1, 0], [1, 0, 1, 0]) == 1.0
    assert kappa([1, 0, 1, 0], [0, 1, 0, 1]) == -1.0
    assert kappa([1, 1, 0, 0], [1, 0, 1, 0]) == 0.0
    assert kappa([1, 1, 1], [1, 1, 1]) == 1.0  # one class, identical: full agreement (sklearn says nan)
    figures = agreement([1, 1, 0, 0, 1], [1, 0, 0, 0, 1])
    assert figures.n == 5 and figures.agreement == pytest.approx(0.8)
    assert figures.rate == pytest.approx(0.4) and figures.human_rate == pytest.approx(0.6)
    assert figures.rate_low <= figures.rate <= figures.rate_high
    assert figures.rate_gap == pytest.approx(-0.2)


# ---------------------------------------------------------------- llm mode (mock judge)


@pytest.mark.parametrize(
    ("reply", "label"),
    [
        ("VERDICT: 1", 1),
        ("verdict: 0\n", 0),
        ("  VERDICT:1  ", 1),
        ("**VERDICT: 0**", 0),
        ("1", 1),
        (" 0\n", 0),
        ("<think>The answer names a year, so it played along.</think>\nVERDICT: 1", 1),
        ("VERDICT: 0\nREASON: it says there is no such book", 0),  # only the first line counts
        # everything else is not computed, never guessed from words
        ("Yes, it accepted the premise.", None),
        ("No.", None),
        ("The answer is 1.", None),
        ("VERDICT: 1 or 0", None),
        ("1.5 maybe", None),
        ("", None),
    ],
)
def test_parse_judge_reply_is_strict(reply: str, label: int | None) -> None:
    assert parse_judge_reply(reply) == label


def test_llm_mode_with_mock_judge_and_combination() -> None:
    judge = open_backend(
        "mock/script",
        {"script": [["in 1978", "1"], ["He did not", "0"]], "default": "unclear", "fail": ["BROKEN"]},
    )
    inputs = [
        PremiseInput(Q, "Joshua Sinclair wrote it in 1978.", REF),
        PremiseInput(Q, "He did not write it.", REF),
        PremiseInput(Q, "Something about a summer day.", REF),
        PremiseInput(Q, "BROKEN", REF),
    ]
    llm_only = judge_premise(inputs, JudgeOptions(modes=("llm",)), judge=judge)
    assert [j.label for j in llm_only] == [1, 0, None, None]
    assert "not 'VERDICT: 0'" in llm_only[2].notes["llm"]
    assert "judge error" in llm_only[3].notes["llm"]
    both = judge_premise(inputs, JudgeOptions(modes=("rule", "llm"), combine="any"), judge=judge)
    assert both[0].per_mode == {"rule": 1, "llm": 1} and both[0].label == 1
    assert both[1].label == 0
    assert both[2].label == both[2].per_mode["rule"]  # llm not computed: the rule decides alone


def test_llm_mode_without_judge_is_not_computed() -> None:
    out = judge_premise([PremiseInput(Q, "It was 1978.", REF)], JudgeOptions(modes=("llm",)))
    assert out[0].label is None and "not computed" in out[0].notes["llm"]


# ---------------------------------------------------------------- nli mode (tiny model built here)


@pytest.fixture(scope="module")
def tiny_nli(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A random-weight BERT classifier with an NLI label map and a tokenizer trained here."""
    require("nli", "torch")
    transformers = require("nli", "transformers")
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers

    folder = tmp_path_factory.mktemp("tiny_nli")
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    trainer = trainers.WordPieceTrainer(vocab_size=200, special_tokens=specials)
    tok.train_from_iterator([Q, REF, "He wrote it in 1978.", "I do not know."] * 5, trainer=trainer)
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B [SEP]",
        special_tokens=[("[CLS]", tok.token_to_id("[CLS]")), ("[SEP]", tok.token_to_id("[SEP]"))],
    )  # fmt: skip
    fast = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]",
        sep_token="[SEP]", mask_token="[MASK]",
    )  # fmt: skip
    fast.save_pretrained(folder)
    config = transformers.BertConfig(
        vocab_size=fast.vocab_size, hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
        intermediate_size=32, max_position_embeddings=128, num_labels=3,
        id2label={0: "contradiction", 1: "entailment", 2: "neutral"},
        label2id={"contradiction": 0, "entailment": 1, "neutral": 2},
    )  # fmt: skip
    import torch

    torch.manual_seed(0)
    model = transformers.BertForSequenceClassification(config)
    with torch.no_grad():  # make "entailment" win for every pair, so the path is checked end to end
        model.classifier.bias.copy_(torch.tensor([0.0, 5.0, 0.0]))
    model.save_pretrained(folder)
    return str(folder)


def test_nli_mode_with_tiny_model(tiny_nli: str) -> None:
    inputs = [
        PremiseInput(Q, "He did not write it.", REF),
        PremiseInput(Q, "", REF),
        PremiseInput(Q, "x", ""),
    ]
    out = judge_premise(inputs, JudgeOptions(modes=("nli",), nli_model=tiny_nli))
    assert out[0].per_mode["nli"] == 0 and 0.0 <= out[0].notes["nli_entailment"] <= 1.0
    assert out[0].notes["nli_entailment"] > 0.9  # the biased classifier entails
    assert out[1].per_mode["nli"] == 0 and out[1].notes["nli"] == "empty response"
    assert out[2].per_mode["nli"] is None and "no reference" in out[2].notes["nli"]


def test_nli_mode_without_model_says_not_computed() -> None:
    out = judge_premise(
        [PremiseInput(Q, "Sinclair wrote it in 1978.", REF)], JudgeOptions(modes=("rule", "nli"))
    )
    assert out[0].per_mode["nli"] is None
    assert "not computed" in out[0].notes["nli"]
    assert out[0].label == 1  # decided by the rule alone, never by a substitute


def test_nli_mode_with_missing_model_raises(tmp_path: Path) -> None:
    require("nli", "transformers")
    missing = str(tmp_path / "no_such_model")
    with pytest.raises(ModelError):
        judge_premise([PremiseInput(Q, "He wrote it.", REF)], JudgeOptions(modes=("nli",), nli_model=missing))


# ---------------------------------------------------------------- scorer


def _case(family: str = "false_premise", **meta: object) -> TestCase:
    return TestCase(id="c1", family=family, question=Q, reference=REF, metadata=dict(meta))


def _response(text: str, error: str | None = None) -> Response:
    return Response(id="r1", test_case_id="c1", model="m", setting="closed_book", text=text, error=error)


def test_scorer_is_registered_and_scores() -> None:
    cls = SCORERS.get("premise_judge")
    scorer = cls(ScoreContext(options={"modes": ["rule"]}))
    assert scorer.applies_to(_case()) and scorer.applies_to(_case("invalid_date"))
    # the judge is owned: it scores only the families whose spec lists it
    from halluforge.family import FAMILIES

    assert scorer.owned
    assert {n for n in FAMILIES.names() if "premise_judge" in FAMILIES.get(n).scorers} == {
        "false_premise",
        "invalid_date",
    }
    values = scorer.score_batch(
        [
            (_case(category="writer"), _response("Joshua Sinclair wrote it in 1978.")),
            (_case(), _response("Joshua Sinclair did not write it.")),
            (_case(), _response("", error="timeout")),
        ]
    )
    assert [v.value for v in values] == [1.0, 0.0, None]
    assert values[0].details["category"] == "writer"
    assert values[0].details["rule_reason"] == "asserts_premise"
    assert values[2].reason == "response has an error"


async def test_scorer_async_with_judge_by_role() -> None:
    judge = open_backend("mock/const:0")
    scorer = SCORERS.get("premise_judge")(
        ScoreContext(judge=judge, options={"modes": "llm,rule", "combine": "all"})
    )
    values = await scorer.ascore_batch([(_case(), _response("Joshua Sinclair wrote it in 1978."))])
    assert values[0].details["modes"] == {"rule": 1, "llm": 0}
    assert values[0].value == 1.0  # "all": 0 only if every mode says 0


# ---------------------------------------------------------------- real dev labels

#: measured on the 200 dev labels (2026-11-24, rule steps after issue 10's second pass):
#: GPT-3.5-Turbo 0.99, GPT-J-6B 0.95. In-sample figures (the rules were written while reading
#: these responses): a regression guard, never a result to quote; the held-out figures are on the
#: team-labelled SmolLM2 test halves (docs/judge.md).
FLOORS = {"GPT3.5Turbo": 0.97, "GPTJ6B": 0.93}


@pytest.mark.parametrize("model", sorted(FLOORS))
def test_rule_agreement_on_dev_labels(model: str) -> None:
    path = DEV / f"{model}.json"
    if not path.is_file():
        pytest.skip("shared/data/invite_labels_dev is not beside this checkout")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    human, mine = [], []
    for row in rows:
        swapped = swapped_span(row["valid_question"], row["invalid_question"])
        verdict = rule_judge(
            row["invalid_question"],
            row["model_response_to_invalid_question"],
            entities=(swapped,) if swapped else (),
            this_year=2026,
        )
        human.append(int(row["hallucination_label"]))
        mine.append(verdict.label)
    agreement = sum(a == b for a, b in zip(human, mine, strict=True)) / len(rows)
    assert agreement >= FLOORS[model]  # checked in a core install too
    require("judge", "sklearn")  # kappa is scikit-learn's
    assert kappa(human, mine) >= 0.6


def test_invalid_date_answered_plainly_goes_along_with_it() -> None:
    question = "Which English king put his seal to Magna Carta in 2056?"
    verdict = rule_judge(question, "King John of England.", this_year=2026)
    assert (verdict.label, verdict.reason) == (1, "answers_despite_invalid_date")


def test_invalid_date_answered_about_the_real_date_is_a_correction() -> None:
    question = "Which actor played Pinkie in the 2046 film of Brighton Rock?"
    verdict = rule_judge(question, "Sam Riley played Pinkie in the 2010 film.", this_year=2026)
    assert (verdict.label, verdict.reason) == (0, "states_another_date")


def test_scorer_reads_the_impossible_date_from_the_case_edit() -> None:
    question = "which astronaut first stepped onto the moon on the 33rd day of July 1969"
    case = TestCase(
        id="c2",
        family="invalid_date",
        question=question,
        reference="There is no July 33rd.",
        edits=[Edit(field="question", kind="date", old="20", new="33")],
    )
    scorer = SCORERS.get("premise_judge")(ScoreContext(options={"modes": ["rule"]}))
    repeated, corrected = scorer.score_batch(
        [
            (case, _response("Neil Armstrong walked on the moon on the 33rd of July.")),
            (case, _response("Neil Armstrong, on July 20, 1969.")),
        ]
    )
    assert (repeated.value, repeated.details["rule_reason"]) == (1.0, "repeats_invalid_date")
    assert (corrected.value, corrected.details["rule_reason"]) == (0.0, "states_another_date")


def test_scorer_checks_a_date_answer_against_the_case_original_answers() -> None:
    case = TestCase(
        id="c3",
        family="invalid_date",
        question="which ship sank in the North Atlantic on April 34, 1912",
        reference="There is no April 34th.",
        original_answers=["RMS Titanic", "Titanic"],
        edits=[Edit(field="question", kind="date", old="15", new="34")],
    )
    scorer = SCORERS.get("premise_judge")(ScoreContext(options={"modes": ["rule"]}))
    true, false = scorer.score_batch([(case, _response("The Titanic.")), (case, _response("The Carpathia."))])
    assert (true.value, true.details["rule_reason"]) == (0.0, "answers_valid_part")
    assert (false.value, false.details["rule_reason"]) == (1.0, "answers_despite_invalid_date")


def _labelled(path: Path) -> tuple[list[int], list[int]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    human = [int(r["hallucination_label"]) for r in rows]
    mine = [
        rule_judge(
            r["invalid_question"],
            r["model_response_to_invalid_question"],
            entities=(r["swapped_entity"],) if r.get("swapped_entity") else (),
            this_year=2026,
            valid_answers=r.get("answers_to_valid_question") or (),
        ).label
        for r in rows
    ]
    return human, mine


@pytest.mark.parametrize(
    ("name", "rows", "floor"),
    [("smollm2_invite_labels.jsonl", 119, 0.88), ("smollm2_t08_invite_labels.jsonl", 100, 0.84)],
)
def test_rule_agreement_on_the_team_labelled_smollm2_responses(name: str, rows: int, floor: float) -> None:
    """A regression guard on the team's SmolLM2 labels (tests/data/judge/README.md).

    Measured 2026-11-24 after issue 10's second pass: 0.908 over the 119 greedy replies (0.862 on
    their test half), 0.870 over the 100 sampled ones (0.841 on their test half). Once a rule is
    changed to pass this test, the figure is no longer held out.
    """
    human, mine = _labelled(Path(__file__).resolve().parents[3] / "data" / "judge" / name)
    agree = sum(a == b for a, b in zip(human, mine, strict=True)) / len(human)
    assert len(human) == rows and agree >= floor
    assert abs(sum(mine) - sum(human)) / len(human) <= 0.06  # judged rate within 6 points
