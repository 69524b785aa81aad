"""halluforge.textkit.markup: the one HTML cleaner (dataset evidence, passages, replies)."""

from __future__ import annotations

from halluforge.data.qa import clean_mrqa_context
from halluforge.textkit.markup import strip_html
from halluforge.textkit.sentences import split_sentences


def test_tags_go_and_entities_are_decoded() -> None:
    raw = (
        'The show \u201c<a href="https://x.test/a?b=1&amp;c=2">Squid Game</a>\u201d'
        " is back &amp; renewed.<br/>Yes"
    )
    assert strip_html(raw) == "The show \u201cSquid Game\u201d is back & renewed. Yes"
    assert strip_html('a <a href="x">link</a> &amp; more\n text') == "a link & more text"
    assert strip_html("<!-- note --><b>bold</b>") == "bold"


def test_block_tags_part_what_they_separate() -> None:
    # the three cleaners disagreed here: the splitter's cleaner glued "One.Two." into one sentence
    assert strip_html("<p>One.</p><p>Two.</p>") == "One. Two."
    assert split_sentences("<p>One.</p><p>Two.</p>") == ["One.", "Two."]


def test_inline_tags_keep_a_name_with_its_punctuation() -> None:
    # the MRQA loader's cleaner turned every tag into a space: "Paris ," instead of "Paris,"
    assert strip_html("in <b>Paris</b>, France") == "in Paris, France"
    assert clean_mrqa_context("[PAR] <P> in <b>Paris</b>, France </P>") == "in Paris, France"


def test_only_tag_shaped_text_is_a_tag() -> None:
    assert strip_html("x < 5 and y > 3") == "x < 5 and y > 3"
    assert strip_html("") == ""
