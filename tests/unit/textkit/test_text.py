"""halluforge.textkit.answers: SQuAD normalisation and token-aligned answer matching."""

from __future__ import annotations

import pytest

from halluforge.textkit.answers import contains_answer, count_occurrences, find_answer_spans, normalize_answer


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("The  Beatles!", "beatles"),
        ("A Tale of Two Cities", "tale of two cities"),
        ("U.S. Army", "us army"),
        ("  an   apple, a pear  ", "apple pear"),
        ("Theatre", "theatre"),  # "the" inside a word stays
        ("", ""),
    ],
)
def test_normalize_answer_is_squad_normalisation(raw: str, expected: str) -> None:
    assert normalize_answer(raw) == expected


def test_contains_answer_respects_token_boundaries() -> None:
    text = "The Parisian press praised Paris-based artists and Einstein's theory."
    assert contains_answer(text, "Paris")  # "Paris-based" holds the token Paris
    assert contains_answer(text, "einstein")  # possessive 's is not part of the token
    assert not contains_answer(text, "Pari")
    assert not contains_answer("The Parisian press", "Paris")
    assert not contains_answer(text, "")
    assert not contains_answer(text, "the")  # an article alone is nothing


def test_punctuation_case_and_accents_do_not_hide_an_answer() -> None:
    assert contains_answer("It cost 1,000 dollars.", "1000")
    assert contains_answer("the u.s. navy", "US Navy")
    assert contains_answer("Pelé scored", "Pele")
    assert contains_answer("Alexander the Great died", "Alexander Great")


def test_a_match_never_crosses_a_line_break() -> None:
    assert not contains_answer("New\n\nYork", "New York")
    assert contains_answer("New York", "new york")


def test_count_and_spans_are_non_overlapping_and_exact() -> None:
    text = "1871 was a year; in 1871 A.D. the town grew, and 18712 is a number."
    spans = find_answer_spans(text, "1871")
    assert [text[s:e] for s, e in spans] == ["1871", "1871"]
    assert count_occurrences(text, "1871") == 2
    assert count_occurrences(text, "1871 A.D.") == 1
    assert [text[s:e] for s, e in find_answer_spans(text, "1871 AD")] == ["1871 A.D"]


def test_names_with_brackets_dashes_and_a_letter_a() -> None:
    assert contains_answer("They post on x (formerly twitter) daily.", "X (formerly Twitter)")
    assert contains_answer("Lunch at chick-fil-a today.", "Chick-fil-A")
    assert contains_answer("“Fast Car” – Tracy Chapman won.", "Fast Car - Tracy Chapman")
    assert not contains_answer("Lunch at chick-fil today.", "Chick-fil-A")


def test_unicode_punctuation_goes_like_its_ascii_form() -> None:
    # the data filter dropped curly quotes and dashes, EM (this function) did not: one answer
    # with a curly apostrophe was "Paris" to the filter and "paris’" to EM
    assert normalize_answer("Paris\u2019") == normalize_answer("Paris'") == "paris"
    assert normalize_answer("\u201cSquid Game\u201d") == normalize_answer('"Squid Game"') == "squid game"
    assert normalize_answer("1990\u20131995") == normalize_answer("1990-1995") == "19901995"
    # beyond both old sets: guillemets, the ellipsis, the Spanish question mark
    assert normalize_answer("\u00abLes Mis\u00e9rables\u00bb\u2026") == "les misérables"
    assert normalize_answer("\u00bfQu\u00e9?") == "qué"
    assert normalize_answer("  The 1871 A.D.! ") == "1871 ad"


def test_the_filter_and_exact_match_agree_on_a_curly_quote() -> None:
    from halluforge.data.filters import overlapping_core
    from halluforge.metrics.match import exact_match

    answers = ["O\u2019Neill", "Eugene O'Neill"]
    assert overlapping_core(answers) == "O\u2019Neill"
    assert exact_match("O'Neill", "O\u2019Neill") == 1.0
