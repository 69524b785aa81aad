"""The project's one sentence splitter, shared by forging, restatement checks and judging.

:func:`sentence_spans` cuts text at ``.``, ``!`` or ``?`` (closing quotes and brackets
included) followed by white space, when the next sentence opens with a capital or a digit
(maybe after an opening quote or bracket), and never after a common abbreviation or an initial
("Dr. Watson", "J. R. R. Tolkien", "U.S. Army", "Op. 125"), so that a name or a title never
becomes a sentence of its own and a decimal ("3.5") never ends one. It returns character
offsets into the text as given, for the checks that must know where a sentence stands
(:mod:`halluforge.families.shared.restatements`). :func:`split_sentences` is the same cut made on
the text after :func:`~.markup.strip_html` (retrieved passages and dataset evidence often
carry HTML), returning the sentences.

Callers: ``context_enrich`` and its grounding checks, RECALL's counterfactual rules, the answer
swap's restatement checks, the question readers of the answer kinds, and the premise judge,
which splits a reply into lines first and reads each line's sentences.
"""

from __future__ import annotations

import re

from halluforge.textkit.markup import strip_html

_BOUNDARY = re.compile(r"(?<=[.!?])[\"'”’)\]]*\s+(?=[\"'“‘(\[]?[A-Z0-9])")
_CLOSERS = "\"'”’)]"
_ABBREVIATION = re.compile(
    r"(?:\b[A-Za-z]|\b(?:Mr|Mrs|Ms|Dr|St|Jr|Sr|Prof|Gen|Gov|Sen|Rep|vs|No|Nos|Op|Vol|Fig|Mt|ca|Inc|Ltd|Co))\.$"
)


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence of ``text`` as given, white space around it left out."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        head = text[start : match.start()].rstrip(_CLOSERS)
        if _ABBREVIATION.search(head):
            continue
        spans.append((start, match.end()))
        start = match.end()
    spans.append((start, len(text)))
    out = []
    for begin, end in spans:
        piece = text[begin:end]
        stripped = piece.strip()
        if stripped:
            lead = len(piece) - len(piece.lstrip())
            out.append((begin + lead, begin + lead + len(stripped)))
    return out


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text`` once its HTML is stripped (see the module docstring)."""
    clean = strip_html(text)
    return [clean[start:end] for start, end in sentence_spans(clean)]


__all__ = ["sentence_spans", "split_sentences"]
