"""The one HTML cleaner: dataset evidence, retrieved passages and model replies as plain text.

:func:`strip_html` removes tags and comments, decodes entities (``&amp;`` -> ``&``) and
collapses white space. Inline tags (an anchor, bold, a span...) vanish without a trace, since
an anchor around a name must not part it from its quotes or punctuation; any other tag
(paragraph, list item, table cell, line break) becomes a space, so ``<p>One.</p><p>Two.</p>``
reads as two sentences. Only something shaped like a tag is one (a letter right after ``<`` or
``</``): "x < 5 and y > 3" stays as it is.
"""

from __future__ import annotations

import html
import re

_TAG = re.compile(r"<!--.*?-->|</?([A-Za-z][A-Za-z0-9]*)\b[^<>]*>", re.DOTALL)
#: tags that sit inside a line of text
_INLINE = frozenset(
    {"a", "abbr", "b", "em", "font", "i", "mark", "small", "span", "strong", "sub", "sup", "u"}
)
_SPACES = re.compile(r"\s+")


def strip_html(text: str) -> str:
    """Plain text: tags and comments removed, entities decoded, white space collapsed."""
    without_tags = _TAG.sub(lambda m: "" if (m.group(1) or "").lower() in _INLINE else " ", text)
    return _SPACES.sub(" ", html.unescape(without_tags)).strip()


__all__ = ["strip_html"]
