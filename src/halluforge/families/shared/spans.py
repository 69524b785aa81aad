"""Span replacement: put a new answer everywhere the gold answer stood, and keep the text grammatical.

:func:`span_replace` is the rule fallback of every evidence edit (answer swap, RECALL's
counterfactual contexts): it finds each occurrence with the matcher the checks use
(:func:`answer_spans`, longest alias first), keeps the occurrence's casing
(:func:`match_casing`), re-chooses the a/an in front of it (:func:`starts_with_vowel_sound`),
keeps a common noun's article and number ("The tiger is" -> "The jaguar is", "tigers" ->
"jaguars") and writes a person's surname alone where the passage does (:func:`short_form`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from halluforge.families.shared.numbers import PER_CENT
from halluforge.textkit.answers import (
    answer_key,
    find_answer_spans,
    normalize_answer,
)
from halluforge.textkit.dates import MONTH_NAME_PATTERN

# -- fallbacks: span replacement ----------------------------------------------------------------

#: words a title-case name writes in lower case ("Lord of the Rings", "Ludwig van Beethoven"):
#: a casing rule, not a stop-word list
_TITLE_SMALL_WORDS = frozenset(
    (
        "a",
        "an",
        "and",
        "as",
        "at",
        "by",
        "de",
        "for",
        "from",
        "in",
        "of",
        "on",
        "or",
        "the",
        "to",
        "von",
        "van",
    )
)
_ARTICLE_BEFORE = re.compile(r"(?<![\w'’])(an?|An?|AN?|the|The|THE)(\s+)$")
_LEADING_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.I)
_AN_EXCEPTIONS = re.compile(r"^(?:uni|use|usu|ura|uro|eu|ewe|one|once|ubiq|utop|uk\b)", re.I)
_SILENT_H = re.compile(r"^(?:hour|honest|honou?r|heir)", re.I)


_QUOTES = ('"', "“", "”")
#: a given name and the opening quote of a nickname, right before a span: 'Mildred "'
_GIVEN_AND_QUOTE = re.compile(r"(?:\b[A-Z][\w.'’-]*\s+)?[\"“]$")


#: marks between two words of a match that part two names unless the alias writes them too
_PARTING = (",", ";", ":", "(", ")")


def answer_spans(text: str, aliases: Iterable[str]) -> list[tuple[int, int]]:
    """Non-overlapping spans of every alias in ``text``, longest alias first, in text order."""
    chosen: list[tuple[int, int]] = []
    for alias in sorted(set(aliases), key=lambda a: (-len(answer_key(a)), a)):
        for start, end in find_answer_spans(text, alias):
            # "in San José, Figueres struck": a comma or a bracket the alias does not write
            # parts two names; replaced as one, it left "San Charles Davenport struck" (set 72,
            # in-sample, both blind readers hard)
            if any(mark in text[start:end] and mark not in alias for mark in _PARTING):
                continue
            if all(end <= s or start >= e for s, e in chosen):
                if _LEADING_ARTICLE.match(alias):  # the alias owns its article: "The Beatles"
                    before = _ARTICLE_BEFORE.search(text[:start])
                    if before and all(before.start() >= e or start <= s for s, e in chosen):
                        start = before.start()
                # a nickname's closing quote in the span: its opening one and the given name
                # before it belong to the name too ('Mildred "Babe" Didrikson Zaharias'; set 44
                # left 'Mildred "Susan Osborne')
                if sum(text.count(q, start, end) for q in _QUOTES) % 2:
                    given = _GIVEN_AND_QUOTE.search(text[:start])
                    if given and all(given.start() >= e or start <= s for s, e in chosen):
                        start = given.start()
                chosen.append((start, end))
    return sorted(chosen)


def starts_with_vowel_sound(text: str) -> bool:
    """Whether "an" rather than "a" goes before ``text`` (spelling heuristics, English)."""
    word = text.strip().split()[0] if text.strip() else ""
    if not word:
        return False
    if word[0].isdigit():
        digits = re.match(r"[\d,]+", word)
        number = digits.group().replace(",", "") if digits else word
        return number.startswith("8") or (len(number) in (2, 5) and number.startswith(("11", "18")))
    letters = re.sub(r"[^A-Za-z]", "", word)
    spelled = len(letters) <= 3 or not any(ch in "AEIOU" for ch in letters[1:])
    if len(letters) > 1 and letters.isupper() and spelled:  # an FBI agent, an HTML page (spelled out)
        return letters[0] in "AEFHILMNORSX"
    if letters.isupper():  # read as a word: a NATO member, an OPEC country
        return letters[:1] in ("A", "E", "I", "O")
    if _SILENT_H.match(word):
        return True
    return word[0].lower() in "aeiou" and not _AN_EXCEPTIONS.match(word)


def match_casing(new: str, occurrence: str) -> str:
    """``new`` written in the casing style of ``occurrence``: ALL CAPS, Title, lower, or as is."""
    letters = [ch for ch in occurrence if ch.isalpha()]
    if len(letters) > 1 and occurrence.isupper():
        return new.upper()
    if letters and occurrence == occurrence.lower():
        return " ".join(w if _is_acronym(w) else w.lower() for w in new.split())
    words = [w for w in occurrence.split() if w[:1].isalpha()]
    title = words and all(w[0].isupper() or w.lower() in _TITLE_SMALL_WORDS for w in words) and len(words) > 1
    if title and new == new.lower():  # a name with its own casing ("Leonardo da Vinci") keeps it
        out = []
        for i, w in enumerate(new.split()):
            keep_small = i > 0 and w.lower() in _TITLE_SMALL_WORDS
            out.append(w if keep_small or not w[:1].islower() else w[0].upper() + w[1:])
        return " ".join(out)
    if occurrence[:1].isupper() and new[:1].islower():
        return new[0].upper() + new[1:]
    return new


def _is_acronym(word: str) -> bool:
    letters = [ch for ch in word if ch.isalpha()]
    return len(letters) > 1 and sum(ch.isupper() for ch in letters) > 1


def _fit_article(before: str, replacement: str) -> tuple[str, str]:
    """Fix the article just before a replaced span: a/an by sound, no doubled article."""
    article = _ARTICLE_BEFORE.search(before)
    if not article:
        return before, replacement
    own = _LEADING_ARTICLE.match(replacement)
    if own:  # "the" + "The Rolling Stones" -> "the Rolling Stones"
        replacement = replacement[own.end() :]
    word = article.group(1)
    if word.lower() in ("a", "an"):
        wanted = "an" if starts_with_vowel_sound(replacement) else "a"
        if word.isupper() and len(word) > 1:
            wanted = wanted.upper()
        elif word[0].isupper():
            wanted = wanted.capitalize()
        before = before[: article.start(1)] + wanted + article.group(2)
    return before, replacement


def _alias_tail(occurrence: str, primary: str, new: str) -> str:
    """The words an alias adds after the main answer, to keep after the new one.

    "8,849 metres" is the alias "8,849" plus a unit: swapped for "11,000" it must stay
    "11,000 metres", not lose its unit. Nothing when the new answer already ends with them
    ("Sahara Desert" -> "Arabian Desert").
    """
    words, main = occurrence.split(), primary.split()
    if len(words) <= len(main) or normalize_answer(" ".join(words[: len(main)])) != normalize_answer(primary):
        return ""
    tail = " ".join(words[len(main) :])
    return "" if normalize_answer(new).endswith(normalize_answer(tail)) else " " + tail


#: name endings that are no surname ("Martin Luther King Jr.")
_SUFFIXES = frozenset(("jr", "jr.", "sr", "sr.", "ii", "iii", "iv"))
#: a capitalised word just before a span, not opening a sentence: a given name or a title ("Caroline ", "Dr ")
_NAME_BEFORE = re.compile(r"(?<=[\w,'’)]\s)[A-Z][\w'’.-]*\s+$")


def _family_first(words: Sequence[str]) -> bool:
    """Whether a name reads family name first by the name stocks.

    Its first word is a surname, and either no given name ("Luo Yan": "Yan" is a surname too)
    or its last word is no surname ("Ko Mei-Chu"); "Tsung-Lin Wang" and "Paul Courvoisier" are not.
    """
    from halluforge.knowledge.names import name_stocks  # the stocks read Faker: only when asked

    stocks = name_stocks().values()
    if not any(s.holds(None, words[0]) for s in stocks):
        return False
    given = any(s.holds(words[0], None) for s in stocks)
    return not given or not any(s.holds(None, words[-1]) for s in stocks)


def short_form(occurrence: str, aliases: Sequence[str], new: str) -> str | None:
    """The new answer's last words for an occurrence that is a longer alias's last words, or None.

    A passage names a person in full once and then by surname ("William Herschel ... Herschel
    wanted"), a mountain by its name without "Mount": the short occurrence takes as many of
    the new answer's last words ("Johannes Kepler" -> "Kepler wanted", "Mount Etna" -> "Etna"),
    with a lower-case particle before them ("da Vinci"). An occurrence that opens a longer
    alias is a family name written first ("Zhao Xintong ... Zhao"): it takes the new answer's
    first words. None when no longer alias ends or opens with the occurrence, when the new
    answer is not longer, or when it ends in "Jr." and the like.
    """
    words = normalize_answer(occurrence).split()
    new_words = new.split()
    if not words or len(new_words) <= len(words):
        return None
    written = [normalize_answer(a).split() for a in aliases]
    longer = [a for a in written if len(a) > len(words)]
    # the main answer opens with it and the new name is written family name first too, whatever
    # order another alias writes ("Zheng Qinwen", "Qinwen Zheng": "Zheng" became the new name's
    # given name "Yan", set 81)
    main = written[0] if written else []
    if main[: len(words)] == words and main[-len(words) :] != words and _family_first(new_words):
        return " ".join(new_words[: len(words)])
    if not any(a[-len(words) :] == words for a in longer):
        # a family name written first ("Zhao Xintong ... Zhao, who had beaten"): the new name's
        # first words, the new name being written family name first too
        # (the main answer itself is no family name: "Onosato" beside the alias "Onosato Daiki"
        # became "Shota" on second mention, set 55, in-sample)
        if written[:1] != [words] and any(a[: len(words)] == words for a in longer):
            return " ".join(new_words[: len(words)])
        return None
    if new_words[-1].lower() in _SUFFIXES:
        return None
    first = len(new_words) - len(words)
    while first > 1 and new_words[first - 1][:1].islower():  # "Leonardo da Vinci" -> "da Vinci"
        first -= 1
    return " ".join(new_words[first:])


def _plural(noun: str) -> str:
    """An English plural by spelling alone ("giraffe" -> "giraffes", "fox" -> "foxes", "ruby" -> "rubies")."""
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u"):
        return noun[:-1] + "ies"
    return noun + "s"


def _common_noun(occurrence: str, primary: str, new: str) -> str | None:
    """A common noun put in place of the answer written as a common noun, with its article and number.

    "The tiger is the largest cat" -> "The jaguar is ...", not "Jaguar is ..." (the article of
    the alias "the tiger" is kept, as is its capital); "Tigers once ranged" -> "Jaguars once
    ranged" (a plural alias of the main answer takes the plural). None when ``new`` is a
    proper name or brings its own article, or the occurrence is another name ("Panthera tigris").
    """
    if not new[:1].islower() or _LEADING_ARTICLE.match(new):
        return None
    article = _LEADING_ARTICLE.match(occurrence)
    bare = occurrence[article.end() :] if article else occurrence
    key, main = normalize_answer(bare), normalize_answer(primary)
    # a plural alias of the main answer: "tigers", "wolves" (same stem, an "s" the main lacks)
    plural = key != main and key.endswith("s") and not main.endswith("s") and key[:3] == main[:3]
    if key != main and not plural:
        return None
    word = match_casing(_plural(new) if plural else new, bare)
    if article is None:
        return word
    before, word = _fit_article(article.group(), word)  # "A tiger" -> "An ocelot"
    return before + word


_SIGN_END = re.compile(r"([$€£¥₹])\s*$")
#: a country or place name written with "the": plural ("the Netherlands") or a state's form of words
_TAKES_THE = re.compile(
    r"^(?:United|Republic|Kingdom|Federated|Democratic|Central African|Gambia)\b"
    r"|(?:s|Islands|Republic|Emirates)$"
)


def _fit_sign(before: str, replacement: str) -> tuple[str, str]:
    """One currency sign, not two: "$" + "$11.4 billion" keeps the passage's "$" ("$11.4 billion")."""
    sign = _SIGN_END.search(before)
    if sign and replacement[:1] in "$€£¥₹" and replacement[:1]:
        return before, replacement[1:].lstrip()
    return before, replacement


#: a sign or word after a number that the passage may write after the answer's span itself
_TRAILING_SIGN = re.compile(rf"\s*(?:‰|°|{PER_CENT})", re.I)
#: a per cent sign and the words for it, side by side: "49.59% per cent"
_SIGN_AND_WORD = re.compile(r"(\d)\s*%(\s+(?:per\s*cent|percent)\b)", re.I)


def _fit_trailing_sign(replacement: str, after: str) -> str:
    """One per cent sign, not two: "49.59%" before the passage's own "%" drops its sign.

    The gold alias "58.59%" may match the digits only, the passage writing the sign (or "per
    cent") after them; both blind readers of set 43 saw "49.59%%".
    """
    if replacement[-1:] in "%‰°" and _TRAILING_SIGN.match(after):
        return replacement[:-1].rstrip()
    # "49.59%" with the tail " per cent" of the alias it replaces: one of the two
    return _SIGN_AND_WORD.sub(r"\1\2", replacement)


def _drop_the(before: str, occurrence: str, replacement: str) -> str:
    """Drop a lower-case "the" the old name took and the new one does not ("the Netherlands" -> "France")."""
    if not before.endswith("the ") or not replacement[:1].isupper() or not occurrence[:1].isupper():
        return before
    if _TAKES_THE.search(occurrence) and not _TAKES_THE.search(replacement):
        return before[: -len("the ")]
    return before


#: a year or a month and year: the part of a full date a passage also writes alone ("in 1215")
_DATE_PART = re.compile(rf"(?:(?:{MONTH_NAME_PATTERN})\s+)?\d{{3,4}}", re.I)


def planned_replacements(evidence: str, old_aliases: Sequence[str], new: str) -> list[tuple[int, int, str]]:
    """Each occurrence of the gold answer and the text :func:`span_replace` writes there, in order.

    The full new answer, or its short form (:func:`short_form`): a surname once the full name
    has been written or after a given name, and a year or month and year wherever the passage
    writes the date's year alone ("on 15 June 1215 ... the 1215 charter" -> "on 15 June 1209
    ... the 1209 charter"; a year before the full date reads as well as after it). The
    plausibility check reads the same plan, so a date is refused only where a replacement
    would not have the form of the text it replaces.
    """
    planned: list[tuple[int, int, str]] = []
    full_written = False
    for start, end in answer_spans(evidence, old_aliases):
        occurrence = evidence[start:end]
        short = short_form(occurrence, old_aliases, new)
        date_part = short is not None and bool(
            _DATE_PART.fullmatch(short) and _DATE_PART.fullmatch(occurrence)
        )
        if short is not None and (full_written or date_part or _NAME_BEFORE.search(evidence[:start])):
            replacement = match_casing(short, occurrence)
        else:
            replacement = _common_noun(occurrence, old_aliases[0], new) or (
                match_casing(new, occurrence) + _alias_tail(occurrence, old_aliases[0], new)
            )
            full_written = True
        planned.append((start, end, replacement))
    return planned


def span_replace(evidence: str, old_aliases: Sequence[str], new: str) -> str:
    """Replace every occurrence of every old alias with ``new``, keeping the passage's grammar.

    Aliases are tried longest first, case-insensitively and on whole tokens (see
    :func:`halluforge.textkit.answers.find_answer_spans`). Each occurrence keeps its casing style
    (:func:`match_casing`) and the words an alias adds to the main answer (a unit:
    :func:`_alias_tail`); an "a"/"an" before it is re-chosen for the new word; a "the"
    before it is not doubled when the new answer brings its own; a possessive 's after it
    stays, since spans never include it. A common noun keeps the article and the number of
    each occurrence (:func:`_common_noun`: "The tiger" -> "The jaguar", "tigers" -> "jaguars").

    A short form of the answer (a surname, :func:`short_form`) takes the new answer's short
    form once the full new answer has been written, or when a given name or title stands
    just before it. "His sister Caroline Herschel" so becomes "His sister Caroline Kepler":
    the relative keeps sharing the family name, which reads as the passage meant, where the
    full name would give "Caroline Johannes Kepler" and skipping the seed case would lose a
    passage that reads well. A currency or per cent sign is not doubled ("$" + "$11.4 billion",
    "49.59%" + "%"), and a "the" the old name took is dropped before a new name that takes none
    ("the Netherlands" -> "France").
    """
    pieces: list[str] = []
    last = 0
    for start, end, replacement in planned_replacements(evidence, old_aliases, new):
        occurrence = evidence[start:end]
        if occurrence[:1].islower() and _LEADING_ARTICLE.match(replacement):
            replacement = replacement[0].lower() + replacement[1:]  # "... the Beatles" -> "... the Who"
        before, replacement = _fit_article(evidence[last:start], replacement)
        before, replacement = _fit_sign(before, replacement)
        before = _drop_the(before, occurrence, replacement)
        replacement = _fit_trailing_sign(replacement, evidence[end:])
        after = end
        quoted = start > 0 and evidence[start - 1] in "'’"
        if (
            re.match(r"['’](?![\w'’])", evidence[end:])
            and not quoted
            and not replacement.endswith(("s", "S"))
        ):
            replacement += evidence[end] + "s"  # plural possessive: "The Beatles' tour" -> "The Who's tour"
            after = end + 1
        pieces.extend((before, replacement))
        last = after
    pieces.append(evidence[last:])
    return "".join(pieces)


__all__ = [
    "answer_spans",
    "match_casing",
    "planned_replacements",
    "short_form",
    "span_replace",
    "starts_with_vowel_sound",
]
