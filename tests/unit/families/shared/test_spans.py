"""Where the answer swap finds the gold answer in a passage (``families.shared.spans``)."""

from __future__ import annotations

from halluforge.families.shared.spans import answer_spans


def test_a_comma_the_alias_does_not_write_parts_two_names() -> None:
    """ "in San José, Figueres struck" is no mention of "José Figueres" (set 72: the swap left
    "San Charles Davenport struck")."""
    text = "He was born in 1906. At the barracks in San José, Figueres struck a wall in 1948."
    aliases = ["José Figueres Ferrer", "José Figueres", "Figueres"]
    assert [text[s:e] for s, e in answer_spans(text, aliases)] == ["Figueres"]
    # the alias's own punctuation still matches, and so does plain spacing
    for other, alias in (
        ("Figueres, José led it.", "Figueres, José"),
        ("José  Figueres led it.", "José Figueres"),
    ):
        assert [other[s:e] for s, e in answer_spans(other, [alias])] == [other.removesuffix(" led it.")]
