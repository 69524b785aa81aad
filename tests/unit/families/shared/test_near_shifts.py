"""Round four on what blind readers of sets 30 and 31 still faulted: near years first, a weekday
after the date, a share's unit, and names of the gold person's community.

Hand-made passages and stocks; each rule on its own.
"""

from __future__ import annotations

import random

from halluforge.families.shared.conflicts import conflict
from halluforge.families.shared.eras import weekday_refusal
from halluforge.families.shared.shifts import NEAR_YEARS, PERTURB_DRAWS, shift_answer
from halluforge.families.shared.validate import perturb_answer
from halluforge.families.shared.wrong_answer import WrongAnswer
from halluforge.knowledge.names import NameStock, stocks_of_name


def _names(*names: str) -> tuple[tuple[str, ...], tuple[float, ...]]:
    return tuple(names), tuple(1.0 for _ in names)


def test_a_full_dates_year_moves_a_few_years_first() -> None:
    """ "23 October 1956" (alias "1956") moves its year by at most three in the first draws."""
    wrong = WrongAnswer(knowledge=False)
    text = "The Hungarian uprising began on 23 October 1956 in Budapest, led by students."
    gold = ["23 October 1956", "1956"]
    moves = set()
    for seed in range(40):
        new, why = wrong.shifted(gold, "date", text, "when did it begin", random.Random(seed))
        assert new is not None and why == ""
        moves.add(abs(int(new.split()[-1]) - 1956))
    assert moves and max(moves) <= NEAR_YEARS and 0 not in moves


def test_further_years_only_when_the_near_ones_are_refused() -> None:
    """The second half of the draws may go further: a check refusing every near year still finds one."""
    text = "The treaty was signed in 1956 in Vienna."

    def far_only(new: str) -> str | None:
        return "too near" if abs(int(new) - 1956) <= NEAR_YEARS else None

    new, why = shift_answer(["1956"], "date", text, far_only, random.Random(1))
    assert new is not None and why == "" and abs(int(new) - 1956) > NEAR_YEARS
    never, why = shift_answer(["1956"], "date", text, lambda new: "refused", random.Random(1))
    assert never is None and why.startswith(f"{PERTURB_DRAWS} shifted dates refused")


def test_a_weekday_just_after_the_date_stays_true() -> None:
    """ "24 April 1916, Easter Monday" cannot become a Friday; a Monday of that month may stay."""
    text = "The rising began on 24 April 1916, Easter Monday, when rebels seized the post office."
    refused = weekday_refusal(text, ["24 April 1916", "1916"], "24 April 1908")
    assert refused is not None and "calls the date a Monday" in refused and "Friday" in refused
    assert weekday_refusal(text, ["24 April 1916", "1916"], "17 April 1916") is None
    # a date followed by something else than a weekday: nothing to keep
    assert weekday_refusal("It opened on 3 May 1920, and closed.", ["3 May 1920"], "4 May 1920") is None
    assert weekday_refusal("It opened on 3 May 1920 (a Monday).", ["3 May 1920"], "4 May 1920") is not None


def test_a_share_keeps_its_side_of_the_threshold_the_passage_gives() -> None:
    """ "needs 270 of the 538 electoral votes": a winner's 306 cannot become 240; 290 can.

    (With the loser's 232 written too, 306 + 232 = 538 pins the count: test_number_ties.)
    """
    text = (
        "Biden won 306 electoral votes, defeating Trump. A candidate needs "
        "270 of the 538 electoral votes to win the presidency."
    )
    gold = ["306 electoral votes", "306"]
    refused = conflict(text, gold, "number", "240 electoral votes")
    assert refused is not None and "270 of the 538 electoral" in refused
    assert conflict(text, gold, "number", "290 electoral votes") is None


def test_a_countrys_stocks_narrow_to_the_community_of_the_gold_name() -> None:
    """Belgium's Dutch and French names: a Flemish gold name keeps the Dutch stock only."""
    dutch = NameStock(
        "nl_BE",
        first={"male": _names("Bart", "Jan"), "female": _names("An", "Els")},
        last={"any": _names("Peeters")},
    )
    french = NameStock(
        "fr_BE",
        first={"male": _names("Charles", "Jan"), "female": _names("Julie")},
        last={"any": _names("Michel")},
    )
    assert stocks_of_name([french, dutch], "Bart De Wever") == [dutch]
    assert stocks_of_name([french, dutch], "Charles Michel") == [french]
    # no stock holds more of the name than another, or only one stock: all stay
    assert stocks_of_name([french, dutch], "Jan Smit") == [french, dutch]
    assert stocks_of_name([french, dutch], "Zoltan Kiss") == [french, dutch]
    assert stocks_of_name([dutch], "Charles Michel") == [dutch]


def test_an_amount_in_millions_is_not_shifted_past_a_thousand_millions() -> None:
    """ "$965 million" never becomes "$1200 million" (read blind as an edit): it moves down instead."""
    rng = random.Random(0)
    for answer in ("$965 million", "$887.5 million", "920 million"):
        for _ in range(60):
            new = perturb_answer(answer, "number", rng)
            assert new is not None and int(new.strip("$").split()[0].split(".")[0]) < 1000, new
    # below the scale's step, and without a scale word, a shift up stays
    ups = {perturb_answer("$400 million", "number", rng) for _ in range(60)}
    assert any(int(u.strip("$").split()[0]) > 400 for u in ups if u)
    assert any(int(str(perturb_answer("965", "number", rng))) > 1000 for _ in range(60))
