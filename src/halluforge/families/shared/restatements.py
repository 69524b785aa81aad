"""Whether a passage restates its answer in forms a span swap cannot change.

Span replacement (:func:`halluforge.families.shared.spans.span_replace`) swaps every occurrence of the
gold answer's aliases and nothing else. A passage often says the answer a second time in
another form: a count restated by its parts ("88 keys, fifty-two white and thirty-six black"),
a product ("eight rows and eight columns, which gives 64 squares"), a difference ("lasted 40
years, from 1600 to 1640"; "43 days ... from 1 October to 12 November"), a list ("6 strings,
tuned to E, A, D, G, B and E"), an ordinal ("3 hearts ... and the third"), another unit ("100
degrees Celsius, which is equal to 212 degrees Fahrenheit"; two aliases side by side, "1,280
metres, or 4,200 feet"), a change ("the number fell from 28"), a name that states it ("a
hexagon"), a name's first word alone ("Sun later led" of Sun Yat-sen), another name ("born
Eric Arthur Blair, wrote under the pen name George Orwell"), a
longer name it heads ("the Berlin Wall"), or the answer's own etymology ("Au comes from
aurum", "spilled milk, and so it is called the Milky Way"). After the swap
such a passage contradicts itself, which no reader would accept as real evidence; no other
wrong answer would fix it either. :func:`restatement` names the form, so the seed case is
skipped with that reason instead of kept as a valid test case.

The forms of time (a date given from another, a count of days two dates give) are read in
:mod:`.restated_time`, a word that echoes the answer's name ("milk" of Milky Way) in
:mod:`.echoes`. Some contradictions depend on the wrong answer, not on the passage alone;
they are checked per candidate in :mod:`halluforge.families.shared.conflicts`.

The rules read the passage's own words only (no world knowledge): a fact that the swap makes
wrong but the passage does not state twice ("Picasso, the Dutch painter") is not caught here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from halluforge.families.shared.echoes import echo
from halluforge.families.shared.kinds import kind_words
from halluforge.families.shared.numbers import (
    FRACTION_NOUNS,
    NUMBER,
    number_value,
)
from halluforge.families.shared.passage import (
    is_day,
    is_year,
    numbers_outside,
    outside,
    outside_text,
    sentence_of,
    spans_of,
    year_value,
)
from halluforge.families.shared.restated_time import (
    anniversary,
    days_between,
    derived_date,
    relative_date,
    two_calendars,
    year_number,
)
from halluforge.families.shared.restated_units import converted, two_values
from halluforge.families.shared.roles import TITLE_WORDS
from halluforge.textkit.answers import normalize_answer
from halluforge.textkit.dates import MONTH_NAMES

#: start of the skip reason when a passage restates its answer (answer swap and RECALL)
RESTATED = "the passage restates the gold answer"

_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7}
_ORDINALS |= {"eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12}
_ORDINAL = re.compile(rf"\b(?:{'|'.join(_ORDINALS)})\b", re.I)
#: an ordinal in digits of a time or an ascent: "for the 31st time", "his 31st ascent"
_COUNTED_TIME = re.compile(r"\b(\d+)(?:st|nd|rd|th)\s+(?:time|ascent|summit|win|victory|title)\b", re.I)
#: words that say "the same amount, in other terms" between two numbers
_EQUIVALENT = re.compile(
    r"\b(?:equal(?:s)?(?:\s+to)?|equivalent\s+to|the\s+same\s+as|that\s+is|i\.e\.|or\s+(?:roughly|about|"
    r"around|nearly|almost|some|approximately|just\s+under|just\s+over))\b",
    re.I,
)
#: a share of another number: "a quarter turn" of 360 degrees is 90
_FRACTION = re.compile(r"\b(?:a|one)\s+(half|third|quarter|fifth|tenth)\b|\bhalf\b", re.I)
#: words that give another name for the thing just before it ("is called", "known as", "or simply")
_NAMING = re.compile(
    r"\b(?:(?:call(?:ed|s)?|named|known|nicknamed|renamed)(?:\s+(?:it|him|her|them))?"
    r"(?:\s+(?:in|to)\s+(?:the\s+)?[A-Z][\w'’-]*)?(?:\s+as)?|or\s+simply|also|born|n[ée]e?"
    r"|(?:reading|form|spelling)\s+of\s+(?:his|her|its|their)\s+name,?)"
    r"\s+(?:the\s+)?$",
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


def _number_restatement(evidence: str, gold: float, spans: Sequence[tuple[int, int]]) -> str | None:
    numbers = list(numbers_outside(evidence, spans))
    for value, match in numbers:
        # not the day of a date: "won 10 seats in the election held on 10 July 2020" (set 87)
        if value == gold and not is_day(match):
            return f"the passage also writes the answer as {match.group()!r}"
    for match in _ORDINAL.finditer(evidence):
        if _ORDINALS[match.group().lower()] == gold and gold > 1 and outside(spans, *match.span()):
            return f"the passage counts to the answer with the ordinal {match.group()!r}"
    # "reached the summit for the 31st time ... to 31 times" (set 91, hard to both blind readers)
    for match in _COUNTED_TIME.finditer(evidence):
        if int(match.group(1)) == gold and gold > 1 and outside(spans, *match.span()):
            return f"the passage counts to the answer with the ordinal {match.group()!r}"
    for match in _FRACTION.finditer(evidence):
        share = FRACTION_NOUNS[(match.group(1) or "half").lower()]
        for value, number in numbers:
            if value == gold * share:
                return f"the passage derives the answer as {match.group()!r} of {number.group()!r}"
    derived = _derived(evidence, gold, numbers, spans)
    if derived is not None:
        return derived
    for start, end in spans:
        sentence_start, sentence_end = sentence_of(evidence, start)
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
    in_sentence = {sentence_of(evidence, start) for start, _ in spans}
    of_years = any(
        _YEARS_AFTER.match(evidence[end:])
        or _AGE_BEFORE.search(evidence[:start])
        or _YEARS_END.search(evidence[start:end])
        for start, end in spans
    )
    others = [
        (v, m)
        for v, m in numbers_outside(evidence, spans, years=of_years)
        if v > 0 and ((of_years and is_year(m)) or sentence_of(evidence, m.start()) in in_sentence)
    ]
    dated = [(year_value(m, v) if of_years and is_year(m) else v, m) for v, m in others]
    for i, (a, ma) in enumerate(dated):
        for b, mb in dated[i + 1 :]:
            whole_years = of_years and is_year(ma) and is_year(mb)
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


_CAPITALISED_AFTER = re.compile(r"^[ \t]+([A-Z][\w'’-]*)")
#: a capitalised word and a name particle just before the answer: "Stade de France", "Bank of England"
_NAME_PARTICLE_BEFORE = re.compile(r"\b[A-Z][\w'’-]*[ \t]+(?:de|du|des|del|della|di|la|le|of)[ \t]+$")
#: a name particle and a capitalised word just after it: "the chronicler Gomes Eanes de Zurara"
#: of the navigator Gil Eanes (set 88: "Gomes Abreu de Zurara", a half-replaced name to both
#: blind readers); not "of", which names where a person is from ("Henri Auer of Austria")
_NAME_PARTICLE_AFTER = re.compile(
    r"^[ \t]+(?:de|da|do|dos|das|del|della|di|du|van|von|der)[ \t]+[A-Z][\w'’-]*"
)


def _inside_name(evidence: str, spans: Sequence[tuple[int, int]]) -> str | None:
    """The answer as the head of a longer capitalised name ("the Berlin Wall", "Denali National Park").

    Span replacement would invent a name ("the Munich Wall") that no reader knows. A kind
    word after the answer ("Gobi Desert", "Amazon River") only says what the answer is. A
    capitalised word before the answer is not read: it is as often a nationality or a title
    ("the New Zealander Edmund Hillary", "Queen Victoria") as part of a name, unless a name
    particle joins them ("Stade de France", "Bank of England").
    """
    kinds = kind_words()
    for start, end in spans:
        before = _NAME_PARTICLE_BEFORE.search(evidence[max(0, start - 40) : start])
        if before is not None:
            return f"the answer is part of the longer name {evidence[start - len(before.group(0)) : end]!r}"
        joined = _NAME_PARTICLE_AFTER.match(evidence[end:])
        if joined is not None:
            return f"the answer is part of the longer name {evidence[start : end + joined.end()]!r}"
        after = _CAPITALISED_AFTER.match(evidence[end:])
        if after and after.group(1).lower() not in kinds and after.group(1) not in MONTH_NAMES:
            return f"the answer is part of the longer name {evidence[start : end + after.end()].strip()!r}"
    return None


def _bare_given(evidence: str, gold: Sequence[str], spans: Sequence[tuple[int, int]]) -> str | None:
    """The first word of a person's name written alone, outside the answers: "Sun later led".

    A passage names an adult by one word only when it is the family name, so a first word
    standing alone is the surname of a name written family name first (Sun Yat-sen, Mao
    Zedong) that the aliases do not list. The swap would leave it, and the passage would still
    name the answer, which both blind readers of set 38 saw. A first word beside another
    capitalised word is part of someone else's name ("Alexander Glazunov"), and a title
    ("Sir", "Lord") is no name.
    """
    words = re.findall(r"[A-Za-z][\w'’-]*", gold[0])
    if len(words) < 2 or words[0].lower() in TITLE_WORDS or len(words[0]) < 2:
        return None
    for match in re.finditer(rf"(?<![\w'’-]){re.escape(words[0])}(?![\w'’-])", evidence):
        if not outside(spans, *match.span()):
            continue
        before = evidence[max(0, match.start() - 30) : match.start()]
        after = evidence[match.end() : match.end() + 30]
        if re.match(r"\s+(?:[A-Z]|\d)", after) or re.search(r"[A-Z][\w'’.-]*\s+$", before.split(". ")[-1]):
            continue
        return f"the passage names the answer by its first word alone ({match.group()!r})"
    return None


def _part_of(a: str, b: str) -> bool:
    """Whether one name is the other or its part: "Masaryk" of "Tomáš Masaryk", "Wei Wang", "C.Y. Lee".

    Words in any order, and spacing aside ("C. Y. Lee and his firm C.Y. Lee & Partners").
    """
    first, second = set(a.split()), set(b.split())
    return first <= second or second <= first or a.replace(" ", "") == b.replace(" ", "")


def _distinct_aliases(evidence: str, gold: Sequence[str], spans: Sequence[tuple[int, int]]) -> str | None:
    """Two gold aliases in one sentence that are different names, not a name and its part.

    "born Eric Arthur Blair, wrote under the pen name George Orwell" sets two names against
    each other; one new name in both places reads as nonsense. So do two names that share a
    word only: "Kārlis Baumanis ... known by the folk-style name Baumaņu Kārlis" became "X ...
    known by the folk-style name X", which both blind readers of set 76 refused. In different
    sentences (Octavian who later became Augustus) one new name reads as one person.
    """
    by_sentence: dict[tuple[int, int], dict[str, str]] = {}
    for start, end in spans:
        found = by_sentence.setdefault(sentence_of(evidence, start), {})
        found[normalize_answer(evidence[start:end])] = evidence[start:end]
    for found in by_sentence.values():
        names = list(found)
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                if not _part_of(a, b) and not (a.isdigit() or b.isdigit()):
                    pair = f"{found[a]!r}, {found[b]!r}"
                    return f"the passage names the answer two ways in one sentence ({pair})"
    return None


def _named_alias(evidence: str, gold: Sequence[str], spans: Sequence[tuple[int, int]]) -> str | None:
    """An alias given as the answer's other name ("In Mexico the river is called the Río Bravo").

    A birth name is one too: "Kip Keino, born Kipchoge Keino on 17 January 1940" read "Julius
    Kiplangat, born Julius Kiplangat" once swapped, which both blind readers of set 48 saw.

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


def _eponym(evidence: str, gold: Sequence[str], spans: Sequence[tuple[int, int]]) -> str | None:
    """A person's capitalised name written in lower case: a word named after them ("the becquerel").

    Swapped with the rest, it would rename the thing too ("the guichard"), which every reader
    who knows the word sees; left alone, it keeps the answer. A name its bearer writes in lower
    case ("bell hooks") is no such word.
    """
    if gold[0] == gold[0].lower():
        return None
    for start, end in spans:
        written = evidence[start:end]
        if written == written.lower() and any(c.isalpha() for c in written):
            return f"the passage uses the answer's name as a word ({written!r})"
    return None


def _asked(question: str, gold: Sequence[str]) -> str | None:
    """A name of the answer person the question itself holds ("who discovered miss mitchell's comet").

    The question is not edited: a swapped passage would answer a question that names the gold
    person, most often by a thing named after them ("the rubik's cube"), which a reader sees at
    once (both blind readers of set 36). A place or thing the question names by another name
    ("formerly called nidaros") is what the question asks, and stays.
    """
    for name in gold:
        if len(name) > 2 and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", question, re.I):
            return f"the question names the answer ({name!r})"
    return None


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
        sentences = [outside_text(evidence, spans, *sentence_of(evidence, start)) for start, _ in spans]
        return (
            _number_name([question, *sentences], value)
            or _number_restatement(evidence, value, spans)
            or two_values(evidence, spans)
            or converted(evidence, spans)
            or days_between(evidence, value, spans)
            or year_number(evidence, value, spans)
        )
    if kind == "date":
        return (
            relative_date(evidence, gold[0], spans)
            or derived_date(evidence, gold[0], spans)
            or anniversary(evidence, gold[0], spans)
            or two_calendars(evidence, spans)
        )
    return (
        (_asked(question, gold) if kind.startswith("person") else None)
        or _inside_name(evidence, spans)
        or (_eponym(evidence, gold, spans) if kind.startswith("person") else None)
        or (_bare_given(evidence, gold, spans) if kind.startswith("person") else None)
        or _distinct_aliases(evidence, gold, spans)
        or _named_alias(evidence, gold, spans)
        or echo(evidence, gold, spans, person=kind.startswith("person"))
    )


__all__ = [
    "RESTATED",
    "restatement",
]
