"""Words: the one tokenizer every comparison of texts goes through.

:func:`words` is how forging, grounding, metrics and the premise judge cut a text into words
before comparing it with another: runs of letters and digits of any script, case-folded.
Punctuation of every script (curly quotes, dashes, apostrophes) separates words and is
dropped, so "Pelé's" gives ``["pelé", "s"]``, "Rimsky-Korsakov" ``["rimsky", "korsakov"]``,
"50%" ``["50"]`` and ``“Paris”`` the same ``["paris"]`` as ``"Paris"``. Accents are kept
(answer matching folds them, :mod:`.answers`); nothing is stemmed.

:data:`WRITTEN_WORD` is not a second tokenizer but where a word *as written* stands, for the
checks that look at capitals ("O'Brien", "U.S.", "Jean-Paul" are one written word each): a
name candidate is a written word that opens with a capital, and it is compared with other
text through :func:`words`.
"""

from __future__ import annotations

import re

#: a word: a run of letters and digits of any script (the underscore is no letter)
WORD = re.compile(r"[^\W_]+")
#: a word as written, from its first letter on, with its inner apostrophes, dots and hyphens
WRITTEN_WORD = re.compile(r"(?<![\w'’])[^\W\d_][\w'’.-]*")


def words(text: str) -> list[str]:
    """The case-folded words of ``text``, in order (see the module docstring)."""
    return [word.casefold() for word in WORD.findall(text)]


def word_spans(text: str) -> list[tuple[str, int, int]]:
    """Each word of :func:`words` with its start and end offset in ``text``."""
    return [(m.group().casefold(), m.start(), m.end()) for m in WORD.finditer(text)]


def norm(text: str) -> str:
    """``text`` as its words joined by single spaces: the form two texts are compared in."""
    return " ".join(words(text))


__all__ = ["WORD", "WRITTEN_WORD", "norm", "word_spans", "words"]
