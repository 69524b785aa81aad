"""Whether a passage restates its answer in forms a span swap cannot change.

Span replacement (:func:`halluforge.families.shared.validate.span_replace`) swaps every occurrence of the
gold answer's aliases and nothing else. A passage often says the answer a second time in
another form: a count restated by its parts ("88 keys, fifty-two white and thirty-six black"),
a product ("eight rows and eight columns, which gives 64 squares"), a difference ("lasted 40
years, from 1600 to 1640"), a list ("6 strings, tuned to E, A, D, G, B and E"), an ordinal
("3 hearts ... and the third"), another unit ("100 degrees Celsius, which is equal to 212
degrees Fahrenheit"), a change ("the number fell from 28"), a name that states it ("a
hexagon"), another name ("born Eric Arthur Blair, wrote under the pen name George Orwell"), a
longer name it heads ("the Berlin Wall"), or the answer's own etymology ("Au comes from
aurum", "spilled milk, and so it is called the Milky Way"). After the swap
such a passage contradicts itself, which no reader would accept as real evidence; no other
wrong answer would fix it either. :func:`restatement` names the form, so the seed case is
skipped with that reason instead of kept as a valid test case.

Some contradictions depend on the wrong answer, not on the passage alone; they are checked
per candidate in :mod:`halluforge.families.shared.conflicts`.

The rules read the passage's own words only (no world knowledge): a fact that the swap makes
wrong but the passage does not state twice ("Picasso, the Dutch painter") is not caught here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence

from halluforge.families.shared.kinds import TITLE_WORDS, kind_words
from halluforge.families.shared.validate import answer_spans
from halluforge.textkit.answers import normalize_answer
from halluforge.textkit.dates import MONTH_NAMES
from halluforge.textkit.sentences import sentence_spans

_UNITS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70}
_TENS |= {"eighty": 80, "ninety": 90}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7}
_ORDINALS |= {"eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12}
_WORD = "|".join([*_UNITS, *_TENS, *_SCALES, "dozen"])
#: a number written in digits or in words ("299,792", "fifty-two", "three hundred million")
NUMBER = re.compile(
    rf"(?<![\w.,])\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?(?!\w|,\d)|(?<![\w.,])\d+(?:\.\d+)?(?!\w|,\d)"
    rf"|\b(?:{_WORD})(?:[\s-]+(?:and\s+)?(?:{_WORD}))*\b",
    re.I,
)
_ORDINAL = re.compile(rf"\b(?:{'|'.join(_ORDINALS)})\b", re.I)
#: words that say "the same amount, in other terms" between two numbers
_EQUIVALENT = re.compile(
    r"\b(?:equal(?:s)?(?:\s+to)?|equivalent\s+to|the\s+same\s+as|that\s+is|i\.e\.|or\s+(?:roughly|about|"
    r"around|nearly|almost|some|approximately|just\s+under|just\s+over))\b",
    re.I,
)
#: a share of another number: "a quarter turn" of 360 degrees is 90
_FRACTIONS = {"half": 2, "third": 3, "quarter": 4, "fifth": 5, "tenth": 10}
_FRACTION = re.compile(r"\b(?:a|one)\s+(half|third|quarter|fifth|tenth)\b|\bhalf\b", re.I)
#: a date given as an offset of another ("Two years later", "the following year")
_RELATIVE = re.compile(
    rf"\b(?:(?:{_WORD}|\d+)\s+(?:years?|decades?|centur(?:y|ies))\s+(?:later|after|earlier|before)"
    r"|the\s+(?:following|next|previous)\s+year)\b",
    re.I,
)
_YEARS = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
#: a span of time in years that another date may be counted from ("a reign of 63 years", "for 40 years")
_DURATION = re.compile(
    rf"\b((?:{_WORD}|\d+)(?:[\s-]+(?:{_WORD}))*)[\s-]+years?\b(?!\s+(?:later|after|earlier|before|old)\b)",
    re.I,
)
#: words that give another name for the thing just before it ("is called", "known as", "or simply")
_NAMING = re.compile(
    r"\b(?:(?:call(?:ed|s)?|named|known|nicknamed|renamed)(?:\s+it)?(?:\s+as)?|or\s+simply|also)\s+(?:the\s+)?$",
    re.I,
)
#: an item of a list: a name of up to four words ("North America", "G") or, after a colon, a word or two
_NAME_ITEM = r"\b[A-Z][\w'’-]*(?:\s+(?:of\s+|the\s+|de\s+)?[A-Z][\w'’-]*){0,3}"
_WORD_ITEM = r"[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*)?"
#: a list of two or more items with a closing "and"/"or": "Africa, Asia, ... and South America"
_LIST = re.compile(
    rf"(?:{_NAME_ITEM})(?:\s*,\s*(?:{_NAME_ITEM}))*,?\s+(?:and|or)\s+(?:{_NAME_ITEM})"
    rf"|(?<=:\s)(?:{_WORD_ITEM})(?:\s*,\s*(?:{_WORD_ITEM}))*,?\s+(?:and|or)\s+(?:{_WORD_ITEM})"
)
_LIST_SEP = re.compile(r"\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+")
#: what may stand between a count and the list of its items: "small moons, ", "strings, tuned to the notes "
_LEAD_IN = re.compile(r"[,:;–—]|\b(?:are|were|is|was|namely|called|named)\s*$")
_LIST_GAP_WORDS = 15
#: a count given as a change of another number: "The number fell from 28 when ... left"
_CHANGE = re.compile(
    r"\b(?:fell|dropped|decreased|declined|shrank|shrunk|rose|risen|grew|grown|increased|climbed|"
    r"jumped|went\s+(?:up|down)|up|down|reduced|raised|expanded)\s+(?:\w+\s+){0,2}?from\s+",
    re.I,
)
#: names that state a number: a hexagon has six sides, a decade ten years
_NUMBER_NAMES: tuple[tuple[int, str], ...] = (
    (2, r"bicycl\w*|biped\w*|biathl\w*|duets?|duos?|twins?"),
    (3, r"triang\w*|tricycl\w*|tripods?|triplets?|triathl\w*|trilog\w*|trios?|trident\w*"),
    (4, r"quadr(?:ilateral|upl|uped|icep|ennial)\w*|tetra(?:gon|hedr|pod)\w*|quartets?"),
    (5, r"penta(?:gon|gram|hedr|thl)\w*|quintets?|quintupl\w*"),
    (6, r"hexa(?:gon|hedr|pod|meter)\w*|sextets?|sextupl\w*"),
    (7, r"hepta(?:gon|hedr|thl)\w*|septets?"),
    (8, r"octa(?:gon|hedr|pod)\w*|octopus\w*|octopi|octets?"),
    (9, r"nona(?:gon|hedr)\w*|nonets?"),
    (10, r"decades?|deca(?:gon|hedr|thl)\w*"),
    (12, r"dodeca(?:gon|hedr)\w*|dozen"),
    (14, r"fortnights?"),
    (20, r"icosa(?:gon|hedr)\w*"),
    (100, r"century|centuries|centenar\w*|centenni\w*"),
    (200, r"bicentenar\w*|bicentenni\w*"),
    (1000, r"millenni\w*"),
)
_NUMBER_NAME = re.compile("|".join(rf"(?P<n{value}>\b(?:{cue})\b)" for value, cue in _NUMBER_NAMES), re.I)
#: name words too common to show that the passage echoes the answer's name
_GENERIC = frozenset(
    (
        *("world", "united", "nations", "national", "international", "organization", "organisation"),
        *("company", "corporation", "river", "lake", "mount", "mountain", "city", "state", "states"),
        *("republic", "kingdom", "island", "islands", "ocean", "great", "north", "south", "east"),
        *("west", "new", "saint", "university", "college", "institute", "museum", "park", "street"),
        *("bridge", "tower", "house", "church", "empire", "society", "association", "union", "party"),
        "council",
        # titles and words of a kind of name ("Frontier Airlines", "Former Vice President")
        *TITLE_WORDS,
        *("former", "vice", "airline", "airlines", "airways", "station"),
        *("games", "cup", "championship", "league", "club", "team", "award", "prize", "space", "town"),
        *("province", "county", "peak", "volcano", "channel", "brand", "firm", "agency"),
        # adjectives of many names ("Black Forest" and "Black Sea", "Upper Nile" and "Upper Egypt")
        *("black", "white", "red", "blue", "green", "yellow", "golden", "grand", "little", "upper"),
        *("lower", "central", "middle", "northern", "southern", "eastern", "western", "royal", "holy"),
    )
)


@functools.lru_cache(maxsize=1)
def _generic() -> frozenset[str]:
    """Name words that do not tell one thing from another: the above and every kind or role word."""
    return _GENERIC | kind_words()


def spell_number(value: int) -> str | None:
    """A whole number under 100 in English words (27 -> "twenty-seven"), or None."""
    if value in _UNITS.values():
        return next(word for word, n in _UNITS.items() if n == value)
    if not 0 < value < 100:
        return None
    tens = next(word for word, n in _TENS.items() if n == value - value % 10)
    return tens if value % 10 == 0 else f"{tens}-{spell_number(value % 10)}"


def number_value(text: str) -> float | None:
    """The value of a number written in digits or English words ("fifty-two" -> 52), or None."""
    text = text.strip().lower()
    if not text:
        return None
    if text[0].isdigit():
        try:
            return float(text.replace(",", ""))
        except ValueError:
            return None
    total, current, seen = 0, 0, False
    for word in re.split(r"[\s-]+", text):
        if word == "and":
            continue
        if word in _UNITS or word in _TENS:
            current += _UNITS.get(word, 0) + _TENS.get(word, 0)
        elif word == "dozen":
            current = (current or 1) * 12
        elif word in _SCALES:
            current = (current or 1) * _SCALES[word]
            if _SCALES[word] >= 1000:
                total, current = total + current, 0
        else:
            return None
        seen = True
    return float(total + current) if seen else None


@functools.lru_cache(maxsize=1024)
def spans_of(evidence: str, gold: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """The gold answer's spans, computed once per passage: ``conflict`` runs for every candidate."""
    return tuple(answer_spans(evidence, gold))


@functools.lru_cache(maxsize=1024)
def _sentences(text: str) -> tuple[tuple[int, int], ...]:
    """Offsets of the passage's sentences (the kit's splitter), computed once per passage."""
    return tuple(sentence_spans(text))


def outside(spans: Sequence[tuple[int, int]], start: int, end: int) -> bool:
    """Whether ``start:end`` overlaps none of ``spans`` (the answer's occurrences)."""
    return all(end <= s or start >= e for s, e in spans)


#: an era after a number ("356 BC", "14 CE") or before it ("AD 79") makes the number a year
_ERA_AFTER = re.compile(r"\s*(?:BCE?|CE|AD)\b")
_ERA_BEFORE = re.compile(r"\bAD\s*$")
_BC_AFTER = re.compile(r"\s*BCE?\b")


def _is_year(match: re.Match[str]) -> bool:
    """A year: four digits from 1000 to 2100, or any number with its era ("356 BC", "AD 79")."""
    text = match.group()
    if not text.isdigit():
        return False
    if _ERA_AFTER.match(match.string, match.end()) or _ERA_BEFORE.search(match.string, 0, match.start()):
        return True
    return len(text) == 4 and 1000 <= int(text) <= 2100


def _year_value(match: re.Match[str], value: float) -> float:
    """A year on one time line: years BC count down from zero ("356 BC" is -356)."""
    return -value if _BC_AFTER.match(match.string, match.end()) else value


def numbers_outside(
    text: str, spans: Sequence[tuple[int, int]], *, years: bool = False
) -> Iterator[tuple[float, re.Match[str]]]:
    """Numbers of ``text`` outside the answer spans, with their values (years left out unless ``years``)."""
    for match in NUMBER.finditer(text):
        value = number_value(match.group())
        if (
            value is not None
            and (years or not _is_year(match))
            and outside(spans, match.start(), match.end())
        ):
            yield value, match


def _sentence_of(text: str, start: int) -> tuple[int, int]:
    for begin, end in _sentences(text):
        if begin <= start < end:
            return begin, end
    return 0, len(text)


def _number_restatement(evidence: str, gold: float, spans: Sequence[tuple[int, int]]) -> str | None:
    numbers = list(numbers_outside(evidence, spans))
    for value, match in numbers:
        if value == gold:
            return f"the passage also writes the answer as {match.group()!r}"
    for match in _ORDINAL.finditer(evidence):
        if _ORDINALS[match.group().lower()] == gold and gold > 1 and outside(spans, *match.span()):
            return f"the passage counts to the answer with the ordinal {match.group()!r}"
    for match in _FRACTION.finditer(evidence):
        share = _FRACTIONS[(match.group(1) or "half").lower()]
        for value, number in numbers:
            if value == gold * share:
                return f"the passage derives the answer as {match.group()!r} of {number.group()!r}"
    derived = _derived(evidence, gold, numbers, spans)
    if derived is not None:
        return derived
    for start, end in spans:
        sentence_start, sentence_end = _sentence_of(evidence, start)
        around = [
            m
            for _, m in numbers
            if sentence_start <= m.start() < sentence_end and abs(m.start() - start) < 80
        ]
        for match in around:
            between = evidence[min(end, match.end()) : max(start, match.start())]
            if _EQUIVALENT.search(between):
                return f"the passage restates the answer in other units ({match.group()!r})"
        listed = _list_after(evidence[end:sentence_end], gold)
        if listed:
            return f"the passage lists the {int(gold)} items after the answer ({', '.join(listed)})"
    return _change(evidence, gold, spans)


#: a count of years: "lasted 116 years", "at the age of 76", "aged 76"
_YEARS_AFTER = re.compile(r"^\s+years?\b", re.I)
_AGE_BEFORE = re.compile(r"\b(?:age\s+of|aged)\s+$", re.I)
_YEARS_END = re.compile(r"\byears?$", re.I)


def _derived(
    evidence: str,
    gold: float,
    numbers: Sequence[tuple[float, re.Match[str]]],
    spans: Sequence[tuple[int, int]],
) -> str | None:
    """A count the passage's other numbers add or multiply up to, or that two of them are apart.

    Sum and product: two smaller numbers anywhere ("fifty-two white and thirty-six black").
    Difference: two numbers of the answer's own sentence ("varies from 9 to 21, a range of
    12"), or, for a count of years ("lasted 116 years", "at the age of 76"), two years
    anywhere in the passage ("from 1337 to 1453"; born in 1879, died in 1955; born in 356 BC,
    died in 323 BC). Between two years a count may be one short of their difference (an age
    at death, a reign counted in whole years), so both values count.
    """
    small = [(v, m) for v, m in numbers if 1 < v < gold]
    for i, (a, ma) in enumerate(small):
        for b, mb in small[i:]:
            if ma is mb and evidence.count(ma.group()) < 2:
                continue
            if a + b == gold or a * b == gold:
                sign = "+" if a + b == gold else "x"
                return f"the passage derives the answer from {ma.group()!r} {sign} {mb.group()!r}"
    in_sentence = {_sentence_of(evidence, start) for start, _ in spans}
    of_years = any(
        _YEARS_AFTER.match(evidence[end:])
        or _AGE_BEFORE.search(evidence[:start])
        or _YEARS_END.search(evidence[start:end])
        for start, end in spans
    )
    others = [
        (v, m)
        for v, m in numbers_outside(evidence, spans, years=of_years)
        if v > 0 and ((of_years and _is_year(m)) or _sentence_of(evidence, m.start()) in in_sentence)
    ]
    dated = [(_year_value(m, v) if of_years and _is_year(m) else v, m) for v, m in others]
    for i, (a, ma) in enumerate(dated):
        for b, mb in dated[i + 1 :]:
            whole_years = of_years and _is_year(ma) and _is_year(mb)
            if abs(a - b) == gold or (whole_years and abs(a - b) - 1 == gold):
                high, low = (ma, mb) if a > b else (mb, ma)
                return f"the passage derives the answer from {high.group()!r} - {low.group()!r}"
    return None


def _change(evidence: str, gold: float, spans: Sequence[tuple[int, int]]) -> str | None:
    """A count given as a change from a number near it, with no end point ("the number fell from 28").

    The change says how the answer was reached ("fell from 28 when one member left"), so a
    wrong answer leaves the passage's arithmetic behind; "rose from 10 to 12" names its end
    point, which is the answer's own span and swapped with it.
    """
    for change in _CHANGE.finditer(evidence):
        found = NUMBER.match(evidence, change.end())
        start = number_value(found.group()) if found else None
        if found is None or not start or not outside(spans, *found.span()) or not 1 / 2 <= start / gold <= 2:
            continue
        if not re.match(r"\s+to\b", evidence[found.end() :]):
            verb = change.group().strip()
            return f"the passage gives the answer as a change from {found.group()!r} ({verb!r})"
    return None


def _list_after(rest: str, count: float) -> list[str]:
    """The items of the list that a count introduces, when they are ``count`` many, else [].

    The list must begin within a few words of the count, with a comma, a colon or a linking
    verb between them ("two small moons, Phobos and Deimos"; "the two moons are ..."), so a
    list that merely follows in the sentence does not count. Multi-word names are one item
    each ("North America and South America"). A list told in parts ("Mercury, Venus, Earth
    and Mars, which are rocky, and Jupiter, Saturn, Uranus and Neptune") counts whole.
    """
    lists: list[list[str]] = []
    for match in _LIST.finditer(rest):
        gap = rest[: match.start()]
        if not lists and len(gap.split()) > _LIST_GAP_WORDS:
            break
        if not lists and not _LEAD_IN.search(gap):
            continue
        lists.append([item for item in _LIST_SEP.split(match.group()) if item])
    whole = [item for items in lists for item in items]
    return next((items for items in (*lists, whole) if count >= 2 and len(items) == count), [])


def _number_name(texts: Sequence[str], gold: float) -> str | None:
    """A word that states the number in its name ("hexagon" for 6, "decade" for 10), or None."""
    for text in texts:
        for match in _NUMBER_NAME.finditer(text):
            if match.lastgroup is not None and float(match.lastgroup[1:]) == gold:
                return f"the name {match.group()!r} states the answer"
    return None


def written_forms(evidence: str, gold: Sequence[str]) -> tuple[str, ...]:
    """How the passage writes the gold answer: the text of each occurrence, in order.

    Span replacement puts one wrong answer in every occurrence, so a wrong date must have the
    form of each ("7 November 1917" wants a day, a month and a year, not the gold "November
    1917"); a passage that writes the date two ways ("on 7 November 1917 ... in 1917") has no
    date that fits both, and the seed case is skipped rather than given "in 7 November 1915".
    """
    return tuple(evidence[start:end] for start, end in spans_of(evidence, tuple(gold)))


def outside_text(text: str, spans: Sequence[tuple[int, int]], start: int, end: int) -> str:
    """``text[start:end]`` with the answer spans blanked out (a name in the answer is no restatement)."""
    chars = list(text[start:end])
    for s, e in spans:
        for i in range(max(s, start), min(e, end)):
            chars[i - start] = " "
    return "".join(chars)


@functools.lru_cache(maxsize=1024)
def passage_outside(evidence: str, spans: tuple[tuple[int, int], ...]) -> str:
    """The whole passage with the answer blanked out, once per passage (conflicts run per candidate)."""
    return outside_text(evidence, spans, 0, len(evidence))


_CAPITALISED_AFTER = re.compile(r"^[ \t]+([A-Z][\w'’-]*)")


def _inside_name(evidence: str, spans: Sequence[tuple[int, int]]) -> str | None:
    """The answer as the head of a longer capitalised name ("the Berlin Wall", "Denali National Park").

    Span replacement would invent a name ("the Munich Wall") that no reader knows. A kind
    word after the answer ("Gobi Desert", "Amazon River") only says what the answer is. A
    capitalised word before the answer is not read: it is as often a nationality or a title
    ("the New Zealander Edmund Hillary", "Queen Victoria") as part of a name.
    """
    kinds = kind_words()
    for start, end in spans:
        after = _CAPITALISED_AFTER.match(evidence[end:])
        if after and after.group(1).lower() not in kinds and after.group(1) not in MONTH_NAMES:
            return f"the answer is part of the longer name {evidence[start : end + after.end()].strip()!r}"
    return None


def _stem(word: str) -> str:
    return word.lower()[: max(4, min(len(word) - 1, 6))]  # "portug" for Portuguese and Portugal


def _name_words(name: str, person: bool) -> set[str]:
    """The words of a name that could echo it; a person's given names are shared by too many people."""
    found = re.findall(r"[A-Za-z][\w-]*", name)
    return set(found[1:] if person and len(found) > 1 else found)


def _echo(
    evidence: str, gold: Sequence[str], spans: Sequence[tuple[int, int]], *, person: bool = False
) -> str | None:
    """A word outside the answers that shares the answer's name ("milk" for Milky Way).

    The words of the main answer count, and those of every alias the passage writes (and the
    swap so replaces): "officially called Mount McKinley, after the president William
    McKinley" explains the alias. Kind and title words ("desert" of "Gobi Desert",
    "president") do not name the answer, nor, for a ``person``, a given name ("Alexander" of
    Alexander Borodin, in a passage that also names Alexander Glazunov).
    """
    words = _name_words(gold[0], person)
    short = {w.lower() for w in words if len(w) <= 3 and w[:1].isupper()} if len(words) == 1 else set()
    written = {normalize_answer(evidence[s:e]) for s, e in spans}
    for alias in gold[1:]:
        if normalize_answer(alias) in written:
            words |= _name_words(alias, person)
    generic = _generic()
    stems = {_stem(w) for w in words if len(w) >= 4 and w.lower() not in generic}
    for match in re.finditer(r"[A-Za-z][\w-]*", evidence):
        token = match.group().lower()
        if not outside(spans, *match.span()):
            continue
        if any(token.startswith(s) for s in stems):
            return f"the passage echoes the answer's name in {match.group()!r}"
        if len(token) >= 4 and any(token.startswith(s) for s in short):  # then the sentence, if it counts
            sentence = _sentence_of(evidence, match.start())
            if any(_sentence_of(evidence, s) == sentence for s, _ in spans):
                return f"the passage explains the answer's name by {match.group()!r}"
    return None


def _distinct_aliases(evidence: str, gold: Sequence[str], spans: Sequence[tuple[int, int]]) -> str | None:
    """Two gold aliases in one sentence that are different names, not a name and its part.

    "born Eric Arthur Blair, wrote under the pen name George Orwell" sets two names against
    each other; one new name in both places reads as nonsense. In different sentences (Octavian
    who later became Augustus) one new name reads as one person.
    """
    by_sentence: dict[tuple[int, int], dict[str, str]] = {}
    for start, end in spans:
        found = by_sentence.setdefault(_sentence_of(evidence, start), {})
        found[normalize_answer(evidence[start:end])] = evidence[start:end]
    for found in by_sentence.values():
        names = list(found)
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                if not (set(a.split()) & set(b.split())) and not (a.isdigit() or b.isdigit()):
                    pair = f"{found[a]!r}, {found[b]!r}"
                    return f"the passage names the answer two ways in one sentence ({pair})"
    return None


def _named_alias(evidence: str, gold: Sequence[str], spans: Sequence[tuple[int, int]]) -> str | None:
    """An alias given as the answer's other name ("In Mexico the river is called the Río Bravo").

    The swap would write the new answer there too ("the river is called the Yellow River"),
    and no wrong answer has the same other name. An alias whose words all belong to the main
    answer ("Herschel" of William Herschel, "the Nile") is the same name, shortened.
    """
    main = set(normalize_answer(gold[0]).split())
    for start, end in spans:
        written = normalize_answer(evidence[start:end])
        if written == normalize_answer(gold[0]) or set(written.split()) <= main:
            continue
        if _NAMING.search(evidence[max(0, start - 40) : start]):
            return f"the passage gives the answer's other name ({evidence[start:end]!r})"
    return None


def _derived_date(evidence: str, gold: str, spans: Sequence[tuple[int, int]]) -> str | None:
    """A year given by another year and a span of years ("crowned in 1837 ... a reign of 63 years").

    A wrong year would break the sum; one year of slack covers the months a span leaves out
    ("63 years and seven months").
    """
    years = [int(y) for y in _YEARS.findall(gold)]
    if not years:
        return None
    blanked = passage_outside(evidence, tuple(spans))
    for duration in _DURATION.finditer(blanked):
        length = number_value(duration.group(1))
        if not length or length >= 1000:
            continue
        for other in _YEARS.finditer(blanked):
            if any(abs(int(other.group()) + sign * length - years[0]) <= 1 for sign in (1, -1)):
                pair = f"{other.group()!r} and {duration.group().strip()!r}"
                return f"the passage gives the date by {pair}"
    return None


def _relative_date(evidence: str, spans: Sequence[tuple[int, int]]) -> str | None:
    """A passage that dates one event as an offset of another ("in 1894. Two years later ... 1896")."""
    relative = _RELATIVE.search(evidence)
    if relative is None:
        return None
    other = [m for m in _YEARS.finditer(evidence) if outside(spans, *m.span())]
    if not other:
        return None
    return f"the passage dates the answer from {other[0].group()!r} ({relative.group()!r})"


def restatement(evidence: str, gold: Sequence[str], kind: str, question: str = "") -> str | None:
    """Why swapping the gold answer would make the passage contradict itself, or None.

    The passage restates the answer in a form that span replacement leaves behind and that
    no wrong answer could agree with (see the module docstring). A date counts only when the
    passage gives it as an offset of another ("Two years later"); its order against the
    passage's other dates is left to :func:`halluforge.families.shared.conflicts.conflict`, which depends
    on the wrong answer.
    A number is also restated by a name in the ``question`` or in the answer's sentence that
    states it ("how many sides does a hexagon have").
    """
    spans = spans_of(evidence, tuple(gold))
    if not spans:
        return None
    if kind == "number":
        found = NUMBER.search(gold[0])
        value = number_value(found.group()) if found else None
        if value is None:
            return None
        sentences = [outside_text(evidence, spans, *_sentence_of(evidence, start)) for start, _ in spans]
        return _number_name([question, *sentences], value) or _number_restatement(evidence, value, spans)
    if kind == "date":
        return _relative_date(evidence, spans) or _derived_date(evidence, gold[0], spans)
    return (
        _inside_name(evidence, spans)
        or _distinct_aliases(evidence, gold, spans)
        or _named_alias(evidence, gold, spans)
        or _echo(evidence, gold, spans, person=kind.startswith("person"))
    )


__all__ = [
    "NUMBER",
    "number_value",
    "numbers_outside",
    "outside",
    "outside_text",
    "passage_outside",
    "restatement",
    "spans_of",
    "written_forms",
]
