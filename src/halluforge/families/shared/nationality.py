"""Where a passage says a person comes from: demonyms, countries and heritage around the answer.

Read for the invented names (:mod:`.invented`) and the fact checks (:mod:`.facts`): "the
Spanish midfielder" after the name, "Norway's" before it, "X of Austria", "X, a former South
Africa captain", "The Argentine had" opening the next sentence, "born in Mississauga to
Romanian parents", and the weighted countries a text names (:func:`countries_named`), which
INVITE's world judge reads too. Split from :mod:`.mentions`, which decides which sentences and
words speak of the answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from halluforge.families.shared.mentions import WORD
from halluforge.families.shared.passage import sentence_of
from halluforge.families.shared.spans import answer_spans
from halluforge.textkit.dates import MONTH_NAMES

if TYPE_CHECKING:
    from halluforge.knowledge.table import EntityTable


#: two words joined by a hyphen: "Lebanese-Canadian", "Indian-American"
_HYPHENED = re.compile(r"\b([A-Z][a-z]+)-([A-Z][a-z]+)\b")


def heritage_first(text: str, table: EntityTable, *, context: str | None = None) -> str:
    """``text`` with each hyphened pair of demonyms cut to its first word, or to the birthplace's.

    "A Lebanese-Canadian engineer" reads "a Lebanese engineer": the pair names the heritage
    first, and a person's name follows the heritage (an Anglo name there reads as a clash). Not
    every writer keeps that order: "French-Moroccan novelist Leïla Slimani ... Born in Rabat"
    (set 79, both readers strict: "Susanne Maillet") is Moroccan by birth, so a birthplace the
    text gives in the second word's country picks that one (read in ``context`` when given:
    the whole passage around a sentence).
    """
    born = _birth_country(text if context is None else context, table)

    def cut(match: re.Match[str]) -> str:
        first, second = match.group(1), match.group(2)
        if not (table.is_demonym(first) and table.is_demonym(second)):
            return match.group()
        own = table.demonyms.get(second.lower())
        return second if born is not None and own == born != table.demonyms.get(first.lower()) else first

    return _HYPHENED.sub(cut, text)


#: a birthplace: "Born in Rabat in 1981", "born in Nairobi, Kenya"
_BORN_PLACE = re.compile(r"\b[Bb]orn in ([A-Z][\w'’-]+(?:,? [A-Z][\w'’-]+)*)")


def _birth_country(text: str, table: EntityTable) -> str | None:
    """The country of the one birthplace ``text`` gives, as the table knows it, else None."""
    found = set()
    for match in _BORN_PLACE.finditer(text):
        for name in (match.group(1), *match.group(1).replace(",", "").split()):
            place = table.country(name) or getattr(table.place(name), "country", None)
            if place is not None:
                found.add(place)
                break
    return found.pop() if len(found) == 1 else None


#: a heritage the passage states: "born in Mississauga to Romanian parents", "of Pakistani descent",
#: "Born in France to an American military family" (set 53, in-sample: a French name for Bruce Bochy)
_HERITAGE = re.compile(
    r"\b(?:to|of)\s+(?:an?\s+)?([A-Z][\w'’-]+)(?:\s+and\s+[A-Z][\w'’-]+)?\s+(?:[a-z]+\s+)?"
    r"(?:parents|immigrants|descent|heritage|origin|ancestry|father|mother|family)\b"
    r"|\b([A-Z][\w'’]+)-born\b"  # "Japanese-born American climate scientist"
)
#: parents from a country: "born in Kentville to parents who emigrated from India" (set 63,
#: in-sample: "Michelle Thornton" for Anita Anand, both readers strict)
_PARENTS_FROM = re.compile(
    r"\bto\s+(?:a\s+family|parents|immigrants)\s+(?:who\s+(?:had\s+)?)?"
    r"(?:emigrated|immigrated|came|moved|fled)\s+(?:to\s+[A-Z][\w'’ -]*?\s+)?from\s+"
    r"((?:the\s+)?[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,3})"
)
#: a language community before an occupation: "Russian-speaking politicians" (not "the
#: Spanish-speaking world" of a Venezuelan poet's prize)
_SPEAKING = re.compile(r"\b([A-Z][\w'’]+)-speaking\s+([a-z]+)")
#: a country right after a name: "Henri Auer of Austria became", "X of the United States was"
_OF_COUNTRY = re.compile(r"^,?\s+of\s+((?:the\s+)?[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,3})")
#: a country's name as the adjective of a role in apposition: "Desiree Ellis, a former South Africa
#: captain," (set 59, in-sample: the final's venue, "Accra, Ghana", gave her a Ghanaian name)
_APPOSED_COUNTRY = re.compile(
    r"^,\s+(?:an?|the)\s+(?:(?:former|current|then|retired)\s+)?([A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,3})\s+[a-z]"
)


def heritage_country(sentences: Sequence[str], table: EntityTable) -> str | None:
    """The country of a heritage the sentences about the answer state, or None.

    A Canadian "born to Romanian parents" bears a Romanian name: blind readers of set 35 called
    "Dawn Knox" for Bianca Andreescu a clash; so does a "Japanese-born American" scientist
    (set 45: "Stephen Anthony" for Syukuro Manabe), and so does "one of the best-known
    Russian-speaking politicians in Estonia" (set 61, in-sample: an Estonian name for Tallinn's
    mayor was a strict clash to both readers). The first heritage whose demonym maps to a
    country counts ("of South Asian heritage" names no country).
    """
    for sentence in sentences:
        for match in _HERITAGE.finditer(sentence):
            country = table.demonyms.get((match.group(1) or match.group(2)).lower())
            if country is not None:
                return country
        for match in _PARENTS_FROM.finditer(sentence):
            country = _opening_country(match.group(1), table)
            if country is not None:
                return country
        for match in _SPEAKING.finditer(sentence):
            noun = match.group(2)
            if {noun, noun.removesuffix("s")} & table.occupation_words:
                country = table.demonyms.get(match.group(1).lower())
                if country is not None:
                    return country
    return None


def country_after(after: str, table: EntityTable) -> str | None:
    """The country named right after the answer ("Doreen Bogdan-Martin of the United States"), or None.

    Also a country's name standing as a role's adjective in apposition ("Desiree Ellis, a former
    South Africa captain,").

    Such a phrase states the answer's country; without it the passage's other countries were
    counted, and "a former Russian deputy minister", her rival, gave the American winner a
    Russian name. The longest run of capitalised words the table knows as a country counts.
    """
    match = _OF_COUNTRY.match(after) or _APPOSED_COUNTRY.match(after)
    return _opening_country(match.group(1), table) if match is not None else None


def _opening_country(words: str, table: EntityTable) -> str | None:
    """The country the longest opening run of ``words`` names ("the United States Navy")."""
    parts = words.split()
    for n in range(len(parts), 0, -1):
        country = table.country(" ".join(parts[:n]))
        if country is not None:
            return country
    return None


#: a country owning the name right after it: "Norway's " before "Jakob Ingebrigtsen"
_OWNER = re.compile(r"((?:[A-Z][\w-]*\s){0,2}[A-Z][\w-]*)['’]s\s+$")


def country_before(before: str, table: EntityTable) -> str | None:
    """The country owning the answer's name, written right before it ("Norway's Jakob Ingebrigtsen").

    Set 45's RECALL gave the Norwegian a Kenyan name from "Kenya's world champion" further on.
    """
    owner = _OWNER.search(before)
    return table.country(owner.group(1)) if owner else None


#: a country within a state, as the table's descriptions put it ("Country within the United Kingdom")
_CONSTITUENT = re.compile(r"(?:Constituent )?[Cc]ountry within ")
#: a place counts only after a word that places something in it ("in Nairobi", "near Poznań")
_PLACING = frozenset({"in", "near", "at", "from", "of"})
#: up to three lower-case words and a capitalised one right after them: " world champion Timothy"
_BEFORE_NAME = re.compile(r"((?:\s+[a-z][\w-]*){1,3})\s+[A-Z]")


def _holder(text: str, pos: int, table: EntityTable) -> bool:
    """Whether a role and its holder's name follow ``pos``: "Kenya's| world champion Timothy Cheruiyot".

    The last lower-case word must be an occupation of the table's people, so "India's| second
    T20 World Cup" and "the British| driver for Mercedes" name no holder.
    """
    match = _BEFORE_NAME.match(text, pos)
    return match is not None and match.group(1).split()[-1] in table.occupation_words


#: a word after a demonym that makes it a group's or a state's, not one person's: a plural
#: ("troops", "forces") or an adjective of a state's deeds ("colonial", "imperial", "military")
_GROUP_WORD = re.compile(r"(?<!s)s$|(?:al|ary)$")


def countries_named(text: str, table: EntityTable, *, places: bool = True) -> list[tuple[str, int]]:
    """Each country a text names, with its weight.

    A demonym (of one word or two: "South African") before a common noun ("the Kenyan runner";
    one before a group or a state's deed, "French troops", "French colonial expansion") or a
    country owning one ("Ethiopia's prime minister") counts two, unless the holder's name
    follows ("the German oceanographer Klaus Hasselmann" speaks of him: none; "Kenya's world
    champion Timothy Cheruiyot": one); a demonym or a country before a name ("the Swedish
    Academy", "the United States Soccer Federation") none; any other mention counts one: a
    country's name, a demonym, a country within a state ("managed England": the United
    Kingdom) and (with ``places``) a place the table puts in a country, after a word that places
    something in it ("in Nairobi", "from Louisiana").
    """
    found: list[tuple[str, int]] = []
    plain = without_languages(heritage_first(text, table))  # "Lebanese-Canadian": Lebanese
    tokens = list(WORD.finditer(plain))
    words = [token.group() for token in tokens]
    skip = -1
    for i, word in enumerate(words):
        if not word[:1].isupper() or i <= skip:
            continue
        following = words[i + 1] if i + 1 < len(words) else ""
        # a demonym of two words first ("South African", "Sri Lankan"), then of one
        country = table.demonyms.get(f"{word} {following}".lower())
        if country is not None:
            skip = i + 1
            following = words[i + 2] if i + 2 < len(words) else ""
        else:
            country = table.demonyms.get(word.lower())
        if country is not None:
            last = tokens[i + 1] if skip == i + 1 else tokens[i]  # the demonym's last word
            # two only before one person's noun: "the Kenyan runner", not a group or a deed of a
            # state ("French troops", "French colonial expansion": set 78 gave the Mandinka leader
            # Samori Touré French names)
            # (a rank in -al, "the British general", counts one too: the table's occupations
            # hold "military" as well, which "Indian military personnel" would count two)
            person = not _GROUP_WORD.search(following)
            weight = (2 if person else 1) if following[:1].islower() else 0 if following[:1].isupper() else 1
            # "the German oceanographer Klaus Hasselmann": the phrase speaks of the name after it
            holder = _holder(plain, last.end(), table)
            found.append((country, 0 if holder else weight))
            continue
        # "managed England", "a former England defender": a country within a state is that state
        nation = table.place(word)
        if nation is not None and nation.country and _CONSTITUENT.match(nation.description or ""):
            found.append((nation.country, 0 if following[:1].isupper() else 1))
            continue
        # "in March" is a month, not the town in Cambridgeshire (set 77's French coach took a
        # British name from "on the final weekend in March")
        if not places or i == 0 or words[i - 1].lower() not in _PLACING or word in MONTH_NAMES:
            continue
        # a place the table puts in a country, after a placing word: "in Nairobi", "from
        # Louisiana", "in Las Vegas" (two words tried before one)
        pair = f"{word} {following}" if following[:1].isupper() else None
        place = (table.place(pair) if pair else None) or table.place(word)
        if place is not None and place.country is not None:
            found.append((place.country, 1))
    for country, match in table.countries_in(text):
        # "Ethiopia's prime minister, Abiy Ahmed": a country owning a role speaks of its holder
        owns = re.match(r"['’]s [a-z]", text[match.end() : match.end() + 4]) is not None
        # "Kenya's world champion Timothy Cheruiyot": the role's holder is named right there
        owns = owns and not _holder(text, match.end() + 2, table)
        # "the United States Soccer Federation named Pochettino": part of a longer name, as a
        # demonym before a name is ("the Swedish Academy")
        named = re.match(r" [A-Z]", text[match.end() : match.end() + 2]) is not None
        # "born in Georgetown, British Guiana": a demonym before it makes a colony's name (set 50
        # read French Guiana there, and Clive Lloyd got no name)
        before = WORD.findall(text[max(0, match.start() - 30) : match.start()])[-1:]
        named = named or (bool(before) and before[0][:1].isupper() and before[0].lower() in table.demonyms)
        found.append((country, 2 if owns else 0 if named else 1))
    return found


def _apposed(evidence: str, gold: list[str]) -> Iterator[str]:
    """The capitalised words in apposition after a mention of the answer, or of its surname.

    "Anderson, an American, joined": "American"; "Solbakken, a former Norway midfielder": "Norway".
    """
    words = gold[0].split()
    names = {*gold, words[-1]} if len(words) > 1 else set(gold)
    for name in sorted(names, key=len, reverse=True):
        pattern = (
            rf"(?<![\w-]){re.escape(name)},\s+(?:an?|the)\s+(?:(?:former|retired|then)\s+)?"
            r"([A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)[\s,]"
        )
        for match in re.finditer(pattern, evidence):
            yield match.group(1)


def demonym_apposed(evidence: str, gold: list[str], table: EntityTable) -> str | None:
    """A demonym in apposition after a later mention: "Anderson, an American, joined from Roche".

    Set 57 (in-sample, one reader hard, one strict): Bayer's American chief executive took a
    German name from the German group and Leverkusen. Also after "former", "retired" or "then"
    ("Jacobsen, a former Danish international wing": set 65, in-sample, a German name from the
    German club he coached; not measured on a fresh pair).
    """
    for found in _apposed(evidence, gold):
        for word in (found, found.split()[0]):
            if table.is_demonym(word):
                return word
    return None


def country_apposed(evidence: str, gold: list[str], table: EntityTable) -> str | None:
    """A country's name as a role's adjective in apposition after a later mention, or None.

    "Solbakken, a former Norway midfielder": set 71 (in-sample, both readers hard) gave
    Norway's coach an Italian name from the match in Milan his sentence reports.
    """
    for found in _apposed(evidence, gold):
        country = _opening_country(found, table)
        if country is not None:
            return country
    return None


#: words either side of the answer read for its role and demonym ("the Danish architect X")
WINDOW = 6


#: a demonym joined to "language" names a language: "a non-English-language series"
_LANGUAGE = re.compile(r"\b[A-Z][\w'’]*-language\b")


def without_languages(text: str) -> str:
    """``text`` with "English-language" written "language": no nationality is read from it.

    Set 71 (in-sample): "the first win for a non-English-language series" gave the South
    Korean director of Squid Game an English name.
    """
    return _LANGUAGE.sub("language", text)


def demonym_after(after: str, table: EntityTable) -> str | None:
    """A demonym in apposition after the answer ("Aitana Bonmatí, the Spanish midfielder, ...").

    Only before any other capitalised word, and followed by a lower-case word: in "beat the
    Serbian Novak Djokovic" the demonym belongs to the next name.
    """
    words = WORD.findall(without_languages(after))[:WINDOW]
    for i, word in enumerate(words):
        following = words[i + 1] if i + 1 < len(words) else ""
        if table.is_demonym(word):
            return word if following[:1].islower() else None
        if word[:1].isupper():
            return None
    return None


#: a verb or adverb after a demonym that makes it a sentence's subject, a person ("The Argentine
#: had previously managed", "The South Korean had been appointed")
_SUBJECT_VERB = r"(?:had|has|was|is|also|later|then|previously|first|became|won|would|went|joined|took)\b"
#: occupation words of the table that name a body, not a person: "the German group" that
#: Källenius led is Daimler, and gave the Swede a German name in set 41
_BODIES = frozenset(
    (
        *("group", "company", "firm", "band", "team", "club", "side", "squad", "party", "bank"),
        *("brand", "label", "maker", "carmaker", "government", "federation", "association", "orchestra"),
    )
)
#: a person named by nationality and occupation alone: "The Italian executive had run ..."; a
#: second occupation before a name ("the American journalist and historian Anne Applebaum")
#: still speaks of someone else
_DESCRIBED = re.compile(
    r"\b(?:[Tt]he|[Tt]his|[Tt]hat)\s+([A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)\s+([a-z][a-z-]+)\b"
    r"(?:(?:,|\s+and|\s+or)\s+[a-z][a-z-]+\b)*+(?![ ,]*[A-Z])"
)
#: a demonym as the subject of a sentence: "The South Korean had been appointed at the end of
#: 2019" (set 49 gave him an Indonesian name from the team he coached)
_ANY_DEMONYM_SUBJECT = re.compile(
    rf"(?:^|[.;]\s+)The\s+([A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)\s+{_SUBJECT_VERB}"
)
#: demonyms that are plural as nouns ("The British had", "The Dutch", "The Japanese", "The Swiss")
_PEOPLE_NOUN = re.compile(r"(?:sh|ch|ese|ss)$")
#: a sentence that opens by naming the answer by nationality: "The Argentine had previously managed"
_DEMONYM_SUBJECT = re.compile(rf"^\s*The\s+([A-Z][\w'’-]+)\s+{_SUBJECT_VERB}")


def demonym_next(evidence: str, gold: list[str], table: EntityTable) -> str | None:
    """A demonym that stands for the answer at the opening of the next sentence, or None.

    News passages go on "Mauricio Pochettino ... The Argentine had previously managed
    Tottenham": the demonym is the answer's own. Only before a verb or an adverb, so "The
    French government said" (a demonym before a noun) speaks of no one.
    """
    spans = answer_spans(evidence, gold)
    if not spans:
        return None
    _, end = sentence_of(evidence, spans[0][0])
    match = _DEMONYM_SUBJECT.match(evidence[end:])
    return match.group(1) if match is not None and table.is_demonym(match.group(1)) else None


def described_country(evidence: str, table: EntityTable) -> str | None:
    """The one country of the people the passage names by nationality and occupation alone, or None.

    "The Italian executive had run Seat": a demonym before an occupation of the table's people,
    with no name after it, speaks of a person the passage has named already, most often its
    subject, the answer. It outweighs every country the passage names for other reasons (the
    French carmaker he led): both blind readers of set 39 saw a French name given to "the
    Italian executive". A phrase before a name ("the German long jumper Luz Long") speaks of
    someone else; two countries so named say nothing. A demonym that opens a sentence as its
    subject ("The South Korean had been appointed") is such a phrase too.
    """
    found: set[str] = set()
    for match in _DESCRIBED.finditer(evidence):
        country = table.demonyms.get(match.group(1).lower())
        if country is not None and match.group(2) in table.occupation_words - _BODIES:
            found.add(country)
    for match in _ANY_DEMONYM_SUBJECT.finditer(evidence):
        country = table.demonyms.get(match.group(1).lower())
        if country is not None and not _PEOPLE_NOUN.search(match.group(1)):
            found.add(country)
    return found.pop() if len(found) == 1 else None


__all__ = [
    "WINDOW",
    "countries_named",
    "country_after",
    "country_apposed",
    "country_before",
    "demonym_after",
    "demonym_apposed",
    "demonym_next",
    "described_country",
    "heritage_country",
    "heritage_first",
    "without_languages",
]
