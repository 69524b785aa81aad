"""Shared validators and rule fallbacks of families/shared/validate.py."""

from __future__ import annotations

import random

import pytest

from halluforge.families.shared.spans import match_casing, span_replace, starts_with_vowel_sound
from halluforge.families.shared.validate import (
    answer_shape,
    build_answer_pool,
    check_absent,
    check_close,
    check_differs,
    check_present,
    draw_pool_answer,
    first_failure,
    parse_answer,
    parse_passage,
    perturb_answer,
    swap_checks,
)
from halluforge.records import Example

# -- span_replace: casing and grammar --------------------------------------------------------------


def test_span_replace_replaces_every_alias_longest_first() -> None:
    text = "Jane Austen wrote it. Austen was born in 1775, and AUSTEN's novels sold."
    out = span_replace(text, ["Austen", "Jane Austen"], "Mary Shelley")
    assert out == "Mary Shelley wrote it. Shelley was born in 1775, and SHELLEY's novels sold."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a surname after the full name takes the new surname; a relative keeps sharing it
        (
            "Ada Brook built it. Brook sailed home, and her son Tom Brook stayed.",
            "Carl Sagan built it. Sagan sailed home, and her son Tom Sagan stayed.",
        ),
        # a surname alone first, opening a sentence: the full new name, then the surname
        ("Brook built it. Later Brook left.", "Carl Sagan built it. Later Sagan left."),
        # a title before the surname is kept with the new surname
        ("Ada Brook built it; Dr Brook left.", "Carl Sagan built it; Dr Sagan left."),
    ],
)
def test_span_replace_gives_a_surname_the_new_surname(text: str, expected: str) -> None:
    assert span_replace(text, ["Ada Brook", "Brook"], "Carl Sagan") == expected


def test_a_family_name_written_first_takes_the_new_family_name() -> None:
    """Set 51: "Zhao Xintong ... Zhao, who had beaten" (the seed was skipped before)."""
    text = "Zhao Xintong won the title. Zhao, who had beaten Ronnie O'Sullivan, took the prize."
    out = span_replace(text, ["Zhao Xintong", "Zhao"], "Wang Lei")
    assert out == "Wang Lei won the title. Wang, who had beaten Ronnie O'Sullivan, took the prize."
    # an alias in the other order ("Qinwen Zheng") does not make the family name a given name
    # (set 81: "Zheng" became "Yan" of the new "Luo Yan")
    tennis = "Zheng Qinwen won the gold. Zheng had beaten the top seed."
    out = span_replace(tennis, ["Zheng Qinwen", "Qinwen Zheng", "Zheng"], "Luo Yan")
    assert out == "Luo Yan won the gold. Luo had beaten the top seed."
    # a new name written given name first keeps its surname there ("Tsung-Lin Wang": "Wang")
    out = span_replace(tennis, ["Zheng Qinwen", "Qinwen Zheng", "Zheng"], "Tsung-Lin Wang")
    assert out == "Tsung-Lin Wang won the gold. Wang had beaten the top seed."
    # the main answer is no family name of a longer alias (set 55: the sumo ring name "Onosato")
    sumo = "Onosato was promoted to yokozuna. Onosato, born Onosato Daiki, is 24."
    out = span_replace(sumo, ["Onosato", "Onosato Daiki"], "Hideki Aoki")
    assert out.startswith("Hideki Aoki was promoted to yokozuna. Hideki Aoki, born")


def test_span_replace_short_form_needs_a_longer_alias() -> None:
    # no alias ends with the occurrence: the full new answer everywhere
    assert span_replace("Brook built it. Brook left.", ["Brook"], "Carl Sagan") == (
        "Carl Sagan built it. Carl Sagan left."
    )
    # a new answer ending in "Jr." has no surname to give
    out = span_replace("Ada Brook spoke. Brook left.", ["Ada Brook", "Brook"], "Martin Luther King Jr.")
    assert out == "Martin Luther King Jr. spoke. Martin Luther King Jr. left."
    # a place: the short form of "Mount Etna" is "Etna"
    out = span_replace("Mount Hood erupted. Hood is near.", ["Mount Hood", "Hood"], "Mount Etna")
    assert out == "Mount Etna erupted. Etna is near."


@pytest.mark.parametrize(
    ("text", "new", "expected"),
    [
        ("the capital is paris.", "Lyon", "the capital is lyon."),  # lower stays lower
        ("THE CAPITAL IS PARIS.", "Lyon", "THE CAPITAL IS LYON."),  # all caps stays all caps
        ("Paris is the capital.", "lyon", "Lyon is the capital."),  # sentence start gets a capital
        ("He met Paris Hilton.", "Leonardo da Vinci", "He met Leonardo da Vinci."),  # names keep their casing
    ],
)
def test_span_replace_keeps_the_casing_style(text: str, new: str, expected: str) -> None:
    old = "Paris Hilton" if "Hilton" in text else "Paris"
    assert span_replace(text, [old], new) == expected


def test_span_replace_fixes_a_and_an() -> None:
    text = "It was a giraffe. A giraffe ran. She saw an owl."
    expected = "It was an elephant. An elephant ran. She saw an owl."
    assert span_replace(text, ["giraffe"], "elephant") == expected
    assert span_replace("She saw an owl.", ["owl"], "hawk") == "She saw a hawk."
    assert span_replace("It is a car.", ["car"], "FBI van") == "It is an FBI van."
    assert span_replace("It is an apple.", ["apple"], "university") == "It is a university."


def test_span_replace_keeps_the_and_possessives_sensible() -> None:
    text = "In 1961 the Beatles played. The Beatles' manager smiled. Einstein's idea."
    out = span_replace(text, ["The Beatles"], "The Who")
    assert out == "In 1961 the Who played. The Who's manager smiled. Einstein's idea."
    out = span_replace(text, ["The Beatles"], "Queen")
    assert out == "In 1961 Queen played. Queen's manager smiled. Einstein's idea."
    assert span_replace("Einstein's idea.", ["Einstein"], "Bohr") == "Bohr's idea."


def test_span_replace_touches_nothing_else() -> None:
    text = "Parisians love Paris; a Parisian café is in Paris, France."
    out = span_replace(text, ["Paris"], "Rome")
    assert out == "Parisians love Rome; a Parisian café is in Rome, France."


def test_match_casing_and_article_sound() -> None:
    assert match_casing("new york", "Old Town Road") == "New York"
    assert match_casing("Lyon", "PARIS") == "LYON"
    assert all(starts_with_vowel_sound(w) for w in ("hour", "8 km", "MRI", "owl", "OPEC"))
    assert not any(starts_with_vowel_sound(w) for w in ("unicorn", "NATO", "UNESCO", "house", "1999"))


# -- checks ---------------------------------------------------------------------------------------


def test_each_check_returns_ok_and_reason() -> None:
    original = "Jane Austen wrote Pride and Prejudice in 1813 in Hampshire."
    swapped = "Mary Shelley wrote Pride and Prejudice in 1813 in Hampshire."
    gold = ["Jane Austen", "Austen"]
    assert check_differs("Mary Shelley", gold) == (True, "")
    ok, reason = check_differs("austen", gold)
    assert not ok and "overlaps" in reason
    assert not check_differs("Jane Austen Jr", gold)[0]  # contains a gold alias
    assert not check_differs("", gold)[0]
    assert check_present(swapped, "Mary Shelley")[0]
    assert not check_present(original, "Mary Shelley")[0]
    assert check_absent(swapped, gold)[0]
    ok, reason = check_absent("Mary Shelley met Austen.", gold)
    assert not ok and "'Austen'" in reason
    assert check_close(original, swapped, gold, "Mary Shelley", 0.85)[0]
    ok, reason = check_close(original, "Mary Shelley wrote a book.", gold, "Mary Shelley", 0.85)
    assert not ok and "similarity" in reason


def test_swap_checks_and_first_failure() -> None:
    original = "The tower was finished in 1889 for the fair."
    good = swap_checks(original, "The tower was finished in 1901 for the fair.", ["1889"], "1901", 0.85)
    assert first_failure(good) is None and set(good) == {
        "differs_from_gold",
        "new_answer_present",
        "gold_absent",
        "context_close",
    }
    both = "The tower was finished in 1889 or 1901 for the fair."
    kept = swap_checks(original, both, ["1889"], "1901", 0.85)
    assert first_failure(kept) == "gold answer '1889' still occurs in the new evidence"


# -- parsing small-model output -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('Wrong answer: "Paris".', "Paris"),
        ("  \n- **1923**. This is wrong because", "1923"),
        ("The wrong answer is London, which is in England", "London"),
        ("The right answer is 14 July 1793.", "14 July 1793"),
        ("Wrong answer:\nBerlin.", "Berlin"),
        ("A Tale of Two Cities", "A Tale of Two Cities"),
        ("Rome (Italy)", "Rome"),
        ("George Washington Jr.", "George Washington Jr."),
        ("", ""),
    ],
)
def test_parse_answer(raw: str, expected: str) -> None:
    assert parse_answer(raw) == expected


def test_parse_passage_drops_labels_and_quotes() -> None:
    assert parse_passage('New passage: "It rained."') == "It rained."
    assert parse_passage("Here is the rewritten passage:\nIt rained.") == "It rained."
    assert parse_passage("A passage that starts with A.") == "A passage that starts with A."


# -- answer fallbacks --------------------------------------------------------------------------------


def _examples() -> list[Example]:
    rows = [
        ("who wrote hamlet", ["William Shakespeare"]),
        ("who painted guernica", ["Pablo Picasso"]),
        ("who discovered radium", ["Marie Curie"]),
        ("what is the capital of italy", ["Rome"]),
        ("when did the war end", ["1945"]),
        ("when was the charter sealed", ["15 June 1215"]),
        ("when did the wall fall", ["9 November 1989"]),
        ("which show came back", ["“Squid Game”"]),
    ]
    return [Example.build(q, a, f"{a[0]} is the answer.") for q, a in rows]


def test_pool_is_grouped_by_type_and_draws_are_deterministic() -> None:
    pool = build_answer_pool(_examples())
    assert pool["person"] == ["Marie Curie", "Pablo Picasso", "William Shakespeare"]
    assert pool["place"] == ["Rome"]
    assert pool["other"] == ["Squid Game"]  # wrapping quotes are not part of an answer
    draws = {draw_pool_answer("person", pool, ["Marie Curie"], random.Random(7)) for _ in range(5)}
    assert len(draws) == 1 and draws <= {"Pablo Picasso", "William Shakespeare"}
    assert draw_pool_answer("place", pool, ["rome"], random.Random(0)) is None  # only the gold is left
    assert draw_pool_answer("number", pool, [], random.Random(0)) is None


def test_pool_draw_avoids_the_evidence_and_keeps_the_shape() -> None:
    pool = build_answer_pool(_examples())
    rng = random.Random(0)
    picked = draw_pool_answer("person", pool, ["Marie Curie"], rng, avoid_in="Pablo Picasso painted it.")
    assert picked == "William Shakespeare"
    assert draw_pool_answer("date", pool, ["15 June 1215"], rng, like="24 October 1945") == "9 November 1989"
    assert answer_shape("15 June 1215") == answer_shape("4 July 1776") != answer_shape("1776")


def test_perturb_answer_changes_dates_and_numbers_only() -> None:
    rng = random.Random(3)
    year = perturb_answer("1871", "date", rng)
    assert year is not None and year != "1871" and 1000 <= int(year) <= 2100
    century = perturb_answer("the 6th century BCE", "date", rng)
    assert century is not None and century.endswith("century BCE") and century != "the 6th century BCE"
    month = perturb_answer("early September", "date", rng)
    assert month is not None and month.startswith("early ") and month != "early September"
    amount = perturb_answer("1,500", "number", rng)
    assert amount is not None and amount != "1,500" and "," in amount
    assert perturb_answer("Paris", "place", rng) is None


def test_span_replace_keeps_the_unit_an_alias_adds() -> None:
    gold = ["8,849", "8849", "8,849 metres"]
    text = "The survey put the summit at 8,849 metres, a little higher than before."
    assert span_replace(text, gold, "11,000") == text.replace("8,849 metres", "11,000 metres")
    desert = ["Sahara", "Sahara Desert"]
    assert span_replace("The Sahara Desert is hot.", desert, "Gobi") == "The Gobi Desert is hot."
    assert span_replace("The Sahara Desert is hot.", desert, "Arabian Desert") == "The Arabian Desert is hot."


def test_span_replace_keeps_a_common_nouns_article_and_number() -> None:
    text = "The wolf is a hunter of the dog family. Wolves hunt in packs, and a wolf howls."
    aliases = ["wolf", "the wolf", "wolves"]
    out = span_replace(text, aliases, "fox")
    assert out == "The fox is a hunter of the dog family. Foxes hunt in packs, and a fox howls."
    assert span_replace("A wolf howls.", ["wolf", "the wolf"], "ocelot") == "An ocelot howls."


def test_span_replace_gives_a_proper_name_no_article() -> None:
    # a proper name, or a name the passage gives the answer other than its main one, keeps the old path
    assert span_replace("The Nile floods.", ["Nile", "the Nile"], "Amazon") == "The Amazon floods."
    assert span_replace("The wolf, Canis lupus, howls.", ["wolf", "the wolf", "Canis lupus"], "fox") == (
        "The fox, Fox, howls."
    )


def test_span_replace_takes_a_nickname_and_its_given_name_whole() -> None:
    """'Mildred "Babe" Didrikson Zaharias' is one name: set 44 (in-sample) left 'Mildred "Susan
    Osborne' when the alias matched from the nickname on; a quoted surname alone stays alone."""
    gold = ["Babe Didrikson Zaharias", "Didrikson", "Zaharias"]
    text = 'Mildred "Babe" Didrikson Zaharias (1911–1956) was an athlete. Zaharias won gold.'
    assert (
        span_replace(text, gold, "Susan Osborne")
        == "Susan Osborne (1911–1956) was an athlete. Osborne won gold."
    )
    quoted = 'Critics called "Zaharias" the best.'
    assert span_replace(quoted, gold, "Susan Osborne") == 'Critics called "Susan Osborne" the best.'
