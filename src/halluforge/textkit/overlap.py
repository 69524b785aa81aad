"""How much two texts share: word Jaccard, and whether one restates another.

:func:`restates` is the one restatement test: ``restates(text, source, share=...)`` is true
when ``text`` carries at least ``share`` of the content words of ``source``. The argument
order is always (the text that may restate, what it may restate): claim verdicts ask whether a
reply restates its claim (``restates(reply, claim, share=0.8)``), claim validation whether a
claim restates the whole question (``restates(claim, question, share=0.9)``). A ``source``
without content words is restated by nothing.
"""

from __future__ import annotations

from halluforge.textkit.stopwords import content_words
from halluforge.textkit.tokens import words


def jaccard(a: str, b: str) -> float:
    """Jaccard similarity of the word sets of two texts (0.0 when either has no word)."""
    left, right = set(words(a)), set(words(b))
    if not left or not right:
        return 0.0
    return len(left & right) / len(left | right)


def restates(text: str, source: str, *, share: float) -> bool:
    """Whether ``text`` carries at least ``share`` of the content words of ``source``."""
    wanted = content_words(source)
    return bool(wanted) and len(wanted & content_words(text)) / len(wanted) >= share


__all__ = ["jaccard", "restates"]
