"""Validators for LLM outputs and the rule fallbacks used when an output is rejected.

Every LLM step of a generator is checked here, and every check has a rule that can stand in
for the LLM (DESIGN §4): a tiny generator model must still yield valid test cases. The pieces
are shared by the families that edit evidence (answer swap, counterfactual contexts):

- parsing: :func:`parse_answer` and :func:`parse_passage` clean what a small model writes
  (prefixes such as "Wrong answer:", quotes, trailing periods, explanations after the answer);
- checks, each returning ``(ok, reason)``: :func:`check_differs`, :func:`check_present`,
  :func:`check_absent`, :func:`check_close`, gathered by :func:`swap_checks`;
- fallbacks: :func:`draw_pool_answer` (a same-type answer taken from the dataset's own gold
  answers), :func:`perturb_answer` (a shifted year or number when the pool has none) and
  :func:`span_replace` (replace every occurrence of the old answer, keeping casing and the
  a/an and "the" in front of it).

Occurrences are found with :func:`halluforge.textkit.answers.find_answer_spans`, the same matcher the
checks use, so a span replacement never leaves an occurrence that a check would see.
"""

from __future__ import annotations

import difflib
import random
import re
from collections.abc import Iterable, Mapping, Sequence

from halluforge.families.shared.answer_types import ANSWER_TYPES, AnswerType, classify_answer
from halluforge.records import Example
from halluforge.textkit.answers import (
    answer_key,
    contains_answer,
    find_answer_spans,
    normalize_answer,
)
from halluforge.textkit.dates import MONTH_NAME_PATTERN, MONTH_NAMES, ordinal_suffix
from halluforge.textkit.stopwords import ARTICLES
from halluforge.textkit.tokens import words

Check = tuple[bool, str]

# -- parsing what a small model writes -------------------------------------------------------

_PREFIX = re.compile(
    r"^\s*(?:"
    # a label: "Wrong answer:", "A:", "New passage -"
    r"(?:(?:the\s+)?(?:wrong|incorrect|false|fake|alternative|new|right|correct|true)\s+(?:answer|span)|"
    r"answer|a|new\s+passage|passage|rewritten\s+passage)\s*[:\-–]|"
    # a sentence: "The wrong answer is", "The answer to this question would be"
    r"(?:the\s+)?(?:(?:wrong|incorrect|false|fake|alternative|new|right|correct|true)\s+)?answer"
    r"(?:\s+to\s+(?:this|the)\s+question)?\s+(?:is|would\s+be|could\s+be)\b\s*:?|"
    r"here\s+is\s+(?:the|a)\s+(?:wrong\s+answer|rewritten\s+passage|new\s+passage)\s*:?"
    r")\s*",
    re.I,
)
_BULLET = re.compile(r"^\s*(?:[-*•]+|\d+[.)])\s+")
_QUOTES = "\"'“”‘’`*_ "
_CLAUSE_END = re.compile(
    r"\s+(?:is|was|would be)\s+(?:incorrect|wrong|not|false)\b|"
    r"\s+(?:because|since|which|as it|as the|but|instead of)\s+|\s+[-–—]\s+|[;(\[]|\.\s+|,\s+(?=[a-z]{3,}\s)"
)
_ABBREV_END = re.compile(r"(?:\b[A-Za-z]\.[A-Za-z]\.|\b(?:Jr|Sr|St|Dr|Mr|Mrs|Ms|Co|Inc|Ltd)\.)$")


def parse_answer(raw: str) -> str:
    """The short answer in a model's output: first line, no prefix, quotes or explanation."""
    lines = [line for line in raw.strip().splitlines() if line.strip()]
    text = lines[0] if lines else ""
    for _ in range(3):
        text = _BULLET.sub("", text).strip(_QUOTES)
        stripped = _PREFIX.sub("", text, count=1)
        if stripped == text:
            break
        text = stripped
    if not text and len(lines) > 1:  # "Wrong answer:" alone on the first line
        return parse_answer("\n".join(lines[1:]))
    clause = _CLAUSE_END.search(text)
    if clause and clause.start() > 0:
        text = text[: clause.start()]
    text = text.strip(_QUOTES + ",:")
    if text.endswith((".", "!", "?")) and not _ABBREV_END.search(text):
        text = text[:-1].rstrip()
    return " ".join(text.strip(_QUOTES).split())


def parse_passage(raw: str) -> str:
    """The passage in a model's rewrite: drop a leading label and wrapping quotes."""
    text = raw.strip()
    first, _, rest = text.partition("\n")
    if rest and first.rstrip().endswith(":") and len(first.split()) <= 8:
        text = rest.strip()
    text = _PREFIX.sub("", text, count=1) if re.match(r"^\s*(?:new\s+)?passage\s*:", text, re.I) else text
    if len(text) > 1 and text[0] in '"“' and text[-1] in '"”':
        text = text[1:-1]
    return text.strip()


# -- checks --------------------------------------------------------------------------------


def _clash(a: str, b: str) -> bool:
    """True when two answers are the same after normalisation or one contains the other."""
    if not answer_key(a) or not answer_key(b):
        return False
    return normalize_answer(a) == normalize_answer(b) or contains_answer(a, b) or contains_answer(b, a)


def check_differs(new: str, gold: Sequence[str]) -> Check:
    """The new answer is not a gold alias, does not contain one and is not contained in one."""
    if not answer_key(new):
        return False, "new answer is empty"
    for alias in gold:
        if _clash(new, alias):
            return False, f"new answer {new!r} overlaps gold answer {alias!r}"
    return True, ""


def check_present(evidence: str, new: str) -> Check:
    """The new answer occurs in the new evidence."""
    if contains_answer(evidence, new):
        return True, ""
    return False, f"new answer {new!r} is not in the new evidence"


def check_absent(evidence: str, gold: Sequence[str]) -> Check:
    """No gold alias occurs in the new evidence any more."""
    left = [alias for alias in gold if contains_answer(evidence, alias)]
    if left:
        return False, f"gold answer {left[0]!r} still occurs in the new evidence"
    return True, ""


def _mask(text: str, answers: Iterable[str]) -> list[str]:
    """Words of ``text`` with every occurrence of ``answers`` replaced by one marker word."""
    spans = answer_spans(text, answers)
    pieces, last = [], 0
    for start, end in spans:
        pieces.append(text[last:start])
        pieces.append(" \x00 ")
        last = end
    pieces.append(text[last:])
    return "".join(pieces).split()


def _new_forms(gold: Sequence[str], new: str) -> list[str]:
    """The new answer and the short forms span replacement gives it ("Kepler" of "Johannes Kepler")."""
    return [new, *{f for alias in gold if (f := short_form(alias, gold, new)) is not None}]


def similarity(original: str, rewritten: str, gold: Sequence[str], new: str) -> float:
    """Word-level difflib ratio of the two passages with the answer spans masked."""
    before = _mask(original, gold)
    after = _mask(rewritten, _new_forms(gold, new))
    return difflib.SequenceMatcher(None, before, after, autojunk=False).ratio()


def check_close(original: str, rewritten: str, gold: Sequence[str], new: str, threshold: float) -> Check:
    """Apart from the answer, the new evidence stays close to the original (ratio >= threshold)."""
    ratio = similarity(original, rewritten, gold, new)
    if ratio >= threshold:
        return True, ""
    return False, f"evidence changed too much besides the answer (similarity {ratio:.2f} < {threshold:.2f})"


def check_kept(original: str, rewritten: str, gold: Sequence[str], new: str) -> Check:
    """Every word of the original outside the answers survives in the rewrite, in order.

    A model's rewrite may add words (an article, "was") but not drop or change any: a
    similarity ratio alone let "On 14 July 1789 a crowd" become "14 July 1793 A crowd".
    Articles are not counted, since the new answer may need another one.
    """

    def kept_words(text: str, answers: Sequence[str]) -> list[str]:
        found = [w for piece in _mask(text, answers) for w in ([piece] if piece == "\x00" else words(piece))]
        return [w for w in found if w not in ARTICLES]

    rest = iter(kept_words(rewritten, _new_forms(gold, new)))
    for word in kept_words(original, gold):
        if not any(word == r for r in rest):  # consumes ``rest``: an in-order subsequence test
            return False, f"the rewrite dropped or changed the evidence's word {word!r}"
    return True, ""


def swap_checks(
    original: str, rewritten: str, gold: Sequence[str], new: str, threshold: float
) -> dict[str, Check]:
    """Every check of a swapped evidence, by name (the names go into ``TestCase.checks``)."""
    return {
        "differs_from_gold": check_differs(new, gold),
        "new_answer_present": check_present(rewritten, new),
        "gold_absent": check_absent(rewritten, gold),
        "context_close": check_close(original, rewritten, gold, new, threshold),
    }


def first_failure(checks: Mapping[str, Check]) -> str | None:
    """The reason of the first failing check, or None when all pass."""
    for ok, reason in checks.values():
        if not ok:
            return reason
    return None


# -- fallbacks: answers ---------------------------------------------------------------------


def build_answer_pool(examples: Iterable[Example], *, max_words: int = 5) -> dict[AnswerType, list[str]]:
    """The dataset's canonical answers grouped by type (a loader's ``answer_type`` wins), sorted."""
    pool: dict[AnswerType, dict[str, str]] = {t: {} for t in ANSWER_TYPES}
    for example in examples:
        if not example.answers:
            continue
        answer = example.answers[0].strip().strip("\"'“”‘’").strip()  # '“Squid Game”' -> 'Squid Game'
        if not answer_key(answer) or len(answer.split()) > max_words:
            continue
        given = example.metadata.get("answer_type")
        kind: AnswerType = given if given in ANSWER_TYPES else classify_answer(answer, example.question)
        pool[kind].setdefault(normalize_answer(answer), answer)
    return {kind: sorted(found.values()) for kind, found in pool.items()}


def draw_pool_answer(
    answer_type: AnswerType,
    pool: Mapping[AnswerType, Sequence[str]],
    exclude: Sequence[str],
    rng: random.Random,
    *,
    avoid_in: str | None = None,
    like: str | None = None,
) -> str | None:
    """A same-type answer from ``pool`` clashing with no ``exclude`` entry, or None.

    ``avoid_in`` (the original evidence) rules out answers that already occur in it, since
    swapping one in would make the passage repeat or contradict itself. ``like`` keeps only
    answers written in the same shape (:func:`answer_shape`: a full date for a full date, a
    year for a year), so the swapped sentence still reads well. The draw is deterministic for
    a given ``rng`` state.
    """
    shape = answer_shape(like) if like is not None else None
    candidates = sorted(pool.get(answer_type, ()))
    if shape is not None:
        candidates = [answer for answer in candidates if answer_shape(answer) == shape]
    # a seeded shuffle, then the first answer that passes: cheap on a large pool
    for answer in rng.sample(candidates, len(candidates)):
        if any(_clash(answer, gold) for gold in exclude):
            continue
        if avoid_in is not None and contains_answer(avoid_in, answer):
            continue
        return answer
    return None


def answer_shape(answer: str) -> str:
    """How an answer is written, without its values: "15 June 1215" and "4 July 1776" -> "0 M 0"."""
    text = _MONTH_RE.sub("M", answer.lower())
    text = _INT_RE.sub("0", text)
    return re.sub(r"[a-z]+", "w", text)


_MONTH_RE = re.compile(rf"\b({MONTH_NAME_PATTERN})\b", re.I)
_WORD_NUMBERS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
_WORD_NUMBER_RE = re.compile(r"\b(" + "|".join(["one", *_WORD_NUMBERS]) + r")\b", re.I)
_INT_RE = re.compile(r"\d{1,3}(?:,\d{3})+|\d+")
_ORDINAL_RE = re.compile(r"^(st|nd|rd|th)")


def _shift(value: int, answer_type: AnswerType, rng: random.Random) -> int:
    if answer_type == "date" and 1000 <= value <= 2100:
        step = rng.randint(2, 30) * rng.choice((-1, 1))
        return value + step if value + step <= 2100 else value - abs(step)
    if value < 13:
        return rng.choice([n for n in range(1, 13) if n != value])
    factor = rng.choice((0.5, 0.6, 0.75, 1.25, 1.5, 2.0, 3.0))
    shifted = round(value * factor)
    digits = len(str(shifted))
    if digits > 2:  # keep the original precision: 1,500 -> 3,000, not 2,997
        unit = 10 ** (digits - 2)
        shifted = round(shifted / unit) * unit
    return shifted if shifted != value else value + 1


def perturbable(answer: str) -> bool:
    """Whether :func:`perturb_answer` can shift ``answer`` as a number (digits or one to twelve in words)."""
    return bool(_INT_RE.search(answer) or _WORD_NUMBER_RE.search(answer))


def perturb_answer(answer: str, answer_type: AnswerType, rng: random.Random) -> str | None:
    """A changed date or number (another month, a shifted year or amount), or None if none applies."""
    if answer_type not in ("date", "number"):
        return None
    month = _MONTH_RE.search(answer)
    if month:
        current = month.group(1).lower()
        other = rng.choice([m for m in MONTH_NAMES if m.lower() != current])
        other = other.lower() if month.group(1).islower() else other
        return answer[: month.start()] + other + answer[month.end() :]
    number = _INT_RE.search(answer)
    if number:
        raw = number.group()
        value = int(raw.replace(",", ""))
        new = _shift(value, answer_type, rng)
        text = f"{new:,}" if "," in raw else str(new)
        rest = answer[number.end() :]
        if _ORDINAL_RE.match(rest):
            rest = ordinal_suffix(new) + rest[2:]
        return answer[: number.start()] + text + rest
    word = _WORD_NUMBER_RE.search(answer)
    if word:
        other = rng.choice([w for w in _WORD_NUMBERS if w != word.group(1).lower()])
        other = other.capitalize() if word.group(1)[0].isupper() else other
        return answer[: word.start()] + other + answer[word.end() :]
    return None


_YEAR_RE = re.compile(r"\b([1-9][0-9]{2}|1[0-9]{3}|20[0-9]{2})\b")


def shift_year(answer: str, rng: random.Random, *, max_shift: int = 10) -> str | None:
    """The date with its (last) year moved 1 to ``max_shift`` years: "9 November 1989" -> "9 November 1986".

    A full date whose year alone is also a gold alias ("1989") needs a new year, not only a new
    month, to differ from every alias; a small shift keeps it believable. None without a year.
    """
    years = list(_YEAR_RE.finditer(answer))
    if not years:
        return None
    year = years[-1]
    value = int(year.group())
    step = rng.randint(1, max_shift) * rng.choice((-1, 1))
    new = value + step if value + step <= 2100 else value - abs(step)
    return answer[: year.start()] + str(new) + answer[year.end() :]


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


def answer_spans(text: str, aliases: Iterable[str]) -> list[tuple[int, int]]:
    """Non-overlapping spans of every alias in ``text``, longest alias first, in text order."""
    chosen: list[tuple[int, int]] = []
    for alias in sorted(set(aliases), key=lambda a: (-len(answer_key(a)), a)):
        for start, end in find_answer_spans(text, alias):
            if all(end <= s or start >= e for s, e in chosen):
                if _LEADING_ARTICLE.match(alias):  # the alias owns its article: "The Beatles"
                    before = _ARTICLE_BEFORE.search(text[:start])
                    if before and all(before.start() >= e or start <= s for s, e in chosen):
                        start = before.start()
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


def short_form(occurrence: str, aliases: Sequence[str], new: str) -> str | None:
    """The new answer's last words for an occurrence that is a longer alias's last words, or None.

    A passage names a person in full once and then by surname ("William Herschel ... Herschel
    wanted"), a mountain by its name without "Mount": the short occurrence takes as many of
    the new answer's last words ("Johannes Kepler" -> "Kepler wanted", "Mount Etna" -> "Etna"),
    with a lower-case particle before them ("da Vinci"). None when no longer alias ends with
    the occurrence, when the new answer is not longer, or when it ends in "Jr." and the like.
    """
    words = normalize_answer(occurrence).split()
    new_words = new.split()
    if not words or len(new_words) <= len(words) or new_words[-1].lower() in _SUFFIXES:
        return None
    longer = (normalize_answer(a).split() for a in aliases)
    if not any(len(a) > len(words) and a[-len(words) :] == words for a in longer):
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
    passage that reads well.
    """
    spans = answer_spans(evidence, old_aliases)
    pieces: list[str] = []
    last = 0
    full_written = False
    for start, end in spans:
        occurrence = evidence[start:end]
        short = short_form(occurrence, old_aliases, new)
        if short is not None and (full_written or _NAME_BEFORE.search(evidence[:start])):
            replacement = match_casing(short, occurrence)
        else:
            replacement = _common_noun(occurrence, old_aliases[0], new) or (
                match_casing(new, occurrence) + _alias_tail(occurrence, old_aliases[0], new)
            )
            full_written = True
        if occurrence[:1].islower() and _LEADING_ARTICLE.match(replacement):
            replacement = replacement[0].lower() + replacement[1:]  # "... the Beatles" -> "... the Who"
        before, replacement = _fit_article(evidence[last:start], replacement)
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
    "Check",
    "answer_shape",
    "answer_spans",
    "build_answer_pool",
    "check_absent",
    "check_close",
    "check_differs",
    "check_kept",
    "check_present",
    "draw_pool_answer",
    "first_failure",
    "match_casing",
    "parse_answer",
    "parse_passage",
    "perturb_answer",
    "perturbable",
    "shift_year",
    "short_form",
    "similarity",
    "span_replace",
    "starts_with_vowel_sound",
    "swap_checks",
]
