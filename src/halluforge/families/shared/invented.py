"""An invented person for a person answer: a name of the gold person's nationality and gender.

The ``invented`` path of :class:`~halluforge.families.shared.wrong_answer.WrongAnswer` and of
RECALL's counterfactual answers. Why invent rather than borrow a real person: see
:mod:`halluforge.knowledge.names`. The passage keeps every detail of the gold person's life
(birth year, home town, works), so the new name must only fit what the passage says of its
bearer:

- **nationality**: a heritage the sentences about the answer state ("born in Mississauga to
  Romanian parents"), else the demonym next to the answer ("the Norwegian playwright") or a
  country right after it ("Henri Auer of Austria"), else the gold person's nationality in the
  entity table, else the one nationality of the people the passage names by demonym and
  occupation alone ("The Italian executive had run ...", :func:`described_country`); else
  nothing when the sentences about the answer place the person in a state
  that no longer exists (:func:`former_state`: "the Soviet cosmonaut", "the Kingdom of
  Hawaii"); else the country those sentences name most, weighted (:func:`home_country`: "Born
  in Haugesund on Norway's west coast"), else the passage's own country; next to a demonym of
  no known country ("the Flemish artist" of a painting in London) only a birthplace or a
  demonym before a noun counts; else the country
  of the name's own stock (:func:`~halluforge.knowledge.names.name_origin`). With none of
  these, or a country whose names Faker holds only in a script that does not transliterate
  well, nothing is invented. Of a country's stocks in several languages, those listing more
  of the gold name are drawn from (:func:`~halluforge.knowledge.names.stocks_of_name`: a
  Flemish leader takes Flemish names);
- **era**: a person born before 1950 (with no birth year, one whose sentences are dated
  before 1975, or name an earlier century: :func:`person_era`) takes only
  first names that the entity table's people of the same subregion, else region, else of any
  country, born before then bore ("Ada", "Isaac"; not "Briana" for a 1902 birth); with too few
  of them, today's names (a small clash, where a real person in the role is a plain one), but
  none before 1800;
- **gender**: the pronouns and gendered words around the answer when only one side's occur,
  else the gold person's (table description or first name), else a clear majority of those
  words, else the pronoun that opens a sentence about the answer, else (before 1950) drawn by
  the shares of the table's earlier people of the region, else either;
- **not real**: a name the entity table knows as a person, or any of whose words the passage
  already holds, is drawn again;
- **title**: a peer's title takes the new surname, a knight's the new full name (:func:`titled`).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from halluforge.families.shared.answer_types import ORDINAL_WORDS
from halluforge.families.shared.facts import YEAR, men_only
from halluforge.families.shared.mentions import WORD, passage_pronouns
from halluforge.families.shared.name_eras import MODERN, TODAY, attested, earlier_gender
from halluforge.families.shared.nationality import countries_named, described_country
from halluforge.knowledge.names import (
    community_firsts,
    invent_person,
    lent_from_another_community,
    name_origin,
    stock_gender,
    stocks_of_country,
    stocks_of_name,
    surname_first,
)
from halluforge.knowledge.romanised_names import index_first_genders
from halluforge.knowledge.sources import first_name_leans
from halluforge.textkit.answers import strip_accents
from halluforge.textkit.sentences import sentence_spans

if TYPE_CHECKING:
    from halluforge.families.shared.facts import Facts
    from halluforge.knowledge.table import EntityTable

#: names drawn before giving up on one seed case (a draw is refused when the table or passage has it)
_DRAWS = 8
#: how much older than a year of their deeds a person is taken to be, for the era of their names
_ADULT_AGE = 25
#: before this year, a person with no attested first names of the region is not invented
_EARLY = 1800
#: before this year no name is invented: Faker's stocks and the table's people hold none of
#: the first millennium ("Jean Burton" for Boudica, queen of the Iceni around AD 60)
_ANCIENT = 1000
#: a stock needs this many attested first names of the gender to invent an earlier person
_MIN_ATTESTED = 3
#: and this many for a person born from :data:`MODERN` to :data:`TODAY` (three names of the
#: whole table gave a Turkish economist born in 1967 "Oliver")
_MIN_RECENT = 10


#: a sentence opening with "She" or "He" after the answer speaks of the answer
_OPENING_PRONOUN = re.compile(r"(?:^|[.!?]\s+)(She|He)\b")
#: a gendered word of one side must outnumber the other's this many times ("she ... her father")
_GENDER_MAJORITY = 2
#: a rank among women or men, said of the person a passage is about ("making her the second woman
#: to lead", "the first female president"): it outweighs pronouns of the other people named
_RANKED_GENDER = re.compile(
    r"\b(?:first|second|third|fourth|fifth|only|youngest|oldest)\s+(?:[a-z]+\s+)?(women|woman|female|men|man|male)\b"
)


#: where a person comes from: "born in Ipoh, Malaysia", "raised near Poznań", "grew up in Kenya"
#: (the place within a few words: "born in 1966, had served as housing minister ... while his
#: predecessor received medical treatment in Germany" made set 79's Egyptian prime minister German)
_BORN_IN = re.compile(
    r"\b(?i:born|raised|grew up)\b[^.;]{0,50}?\b(?:in|near|at)\s+((?:[A-Z][\w'’-]*[ ,]*){1,5})"
)
#: the weight of a birthplace among the countries a passage names about a person
_BIRTHPLACE = 4
#: a birthplace said by its demonym: "The English-born coach had taken charge of Canada"
_BORN_DEMONYM = re.compile(r"\b([A-Z][\w'’]+)-born\s+[a-z][a-z-]+\b(?![ ,]*[A-Z])")
#: a state named by its kind: "the Kingdom of Hawaii", "the Joseon dynasty"
_STATE_PHRASE = re.compile(
    r"\b(?:Kingdom|Empire|Khanate|Sultanate|Caliphate|Duchy|Principality) of ((?:[A-Z][\w'’-]*\s?)+)"
    r"|\b[A-Z][\w'’-]+ [Dd]ynasty\b"
)


#: words after an adjective that make it a noun ("a Sikh who", "the Ottomans and"), not a modifier
_CLAUSE_WORDS = frozenset(("who", "whom", "whose", "which", "that", "and", "or", "is", "was", "were", "are"))


def _names_a_thing(evidence: str, demonym: list[str], after: list[str]) -> bool:
    """Whether the passage writes a question's demonym and the word after it as a name.

    "who won the 2023 australian open women's singles": the passage writes "Australian Open",
    a tournament, which says nothing of the winner (Belarus's Aryna Sabalenka).
    """
    if not after:
        return False
    words = r"\s+".join(re.escape(word) for word in demonym)
    return re.search(rf"(?i:\b{words})\s+{re.escape(after[0].capitalize())}\b", evidence) is not None


def former_state(sentences: Iterable[str], table: EntityTable) -> str | None:
    """A state that no longer exists, named in ``sentences``, or None.

    One the table dates ("Soviet Union", "the Soviet cosmonaut" by its adjective before a
    common noun), a dynasty, or a kingdom or empire of a place that is no country today ("the
    Kingdom of Hawaii"; "the Kingdom of Norway" is one). Its people's names are those of no
    living country's stock: the passage's modern countries ("the United States annexed
    Hawaii", "a joint mission with the United States") gave Hawaii's last queen and a Soviet
    cosmonaut American names, and "Chinese characters" a Korean king a Chinese one. A state
    the table dates as ended before every year of ``sentences`` is no one's home there.
    """
    sentences = list(sentences)
    years = [int(year) for sentence in sentences for year in YEAR.findall(sentence)]
    for state in _named_states(sentences, table):
        end = table.state_end(state)
        # "after the Soviet Union, the United States and China had made such landings" in a
        # passage of 2019 and 2023: the state had ended before anything said of the person (set
        # 87's ISRO project director was skipped as a Soviet; in-sample)
        if end is None or not years or min(years) <= end:
            return state
    return None


def _named_states(sentences: Iterable[str], table: EntityTable) -> Iterator[str]:
    """The former states ``sentences`` name, in order: see :func:`former_state`."""
    states = table.former_states
    for sentence in sentences:
        for match in _STATE_PHRASE.finditer(sentence):
            place = match.group(1)
            if place is None or not any(True for _ in table.countries_in(place)):
                yield match.group().strip()
        words = WORD.findall(sentence)
        for i, word in enumerate(words):
            following = words[i + 1] if i + 1 < len(words) else ""
            # "the Soviet cosmonaut"; not "a practising Sikh who wears a turban" (set 79's Canadian
            # party leader, born 1979, was placed in the Sikh Empire and skipped)
            if states.get(word, word) != word and following[:1].islower() and following not in _CLAUSE_WORDS:
                yield states[word]
        for name in states.values():
            if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", sentence):
                yield name


def home_country(
    facts: Facts, evidence: str, gold: list[str], question: str, table: EntityTable
) -> tuple[str | None, str]:
    """The country whose names fit the gold person, and where it was read (see the module docstring).

    In the passage, the countries the sentences about the answer name are counted
    (:func:`countries_named`: "the Polish poet", "Norway's west coast", "near Poznań"), a
    birthplace ("born in Ipoh, Malaysia") four more times; a demonym of the question ("which
    polish poet") counts two. A country counted once is no nationality unless one of its stocks
    lists a word of the gold name: over the people of every held-out set this skips 26 of 1,020,
    about half of them read in the wrong country before (Pat Gelsinger in Honduras, Xabi Alonso
    in Brazil, Carolyn Bertozzi in Denmark; in-sample, after set 55 gave a Saudi scorer an
    Argentine name, a case it does not catch: Argentina is counted three times there).
    """
    if facts.heritage_country:  # "born in Mississauga to Romanian parents": a Romanian name
        return facts.heritage_country, "heritage"
    if facts.demonym_country:
        return facts.demonym_country, "demonym"
    if facts.gold is not None and facts.gold.nationality:
        return facts.gold.nationality, "table"
    # "the Italian executive": a person named by nationality and occupation, after the answer
    described = described_country(evidence, table)
    if described is not None:
        return described, "passage"
    former = former_state(facts.about, table)
    if former is not None:
        return None, f"the passage places the person in a former state ({former})"
    counts: Counter[str] = Counter()
    words, i = [w.lower() for w in WORD.findall(question)], 0
    while i < len(words):  # "which south african singer": a demonym of two words before one
        pair = table.demonyms.get(" ".join(words[i : i + 2])) if i + 1 < len(words) else None
        country = pair or table.demonyms.get(words[i])
        size = 2 if pair else 1
        if country is not None and not _names_a_thing(
            evidence, words[i : i + size], words[i + size : i + size + 1]
        ):
            counts[country] += 2
        i += 2 if pair else 1
    # "who became president of kazakhstan": a country the question puts a role "of" counts two,
    # as its demonym would (set 41's Kazakh president took a Swiss name from "at Geneva")
    titled_question = " ".join(word[:1].upper() + word[1:] for word in question.split())
    for country, match in table.countries_in(titled_question):
        if titled_question[: match.start()].endswith(" Of "):
            counts[country] += 2
    about = set(facts.about)
    # "the Flemish artist": a nationality of no country the table knows is said, so a country
    # merely named nearby (the London gallery of his painting) is no evidence; a birthplace or
    # "the Belgian painter" still is
    unmapped = bool(facts.demonym_words)
    for start, end in sentence_spans(evidence):
        sentence = evidence[start:end]
        for country, weight in countries_named(sentence, table):
            # outside the sentences about the answer, only "the Kenyan runner" speaks of a person
            if (sentence in about and not unmapped) or weight == 2:
                counts[country] += weight
        for born in _BORN_IN.finditer(sentence):  # "Born in Ipoh, Malaysia": the home, four more
            # four: a birthplace outweighs the country of the firm or the city a person works in
            # ("Born in Sweden ... the first from outside Germany to lead the German group")
            for country, _ in countries_named(f"in {born.group(1)}", table):
                counts[country] += _BIRTHPLACE
        for born in _BORN_DEMONYM.finditer(sentence):
            if (country := table.demonyms.get(born.group(1).lower())) is not None:
                counts[country] += _BIRTHPLACE
    if not counts and unmapped:
        return None, f"the demonym {facts.demonym_words[0]!r} names no country the table knows"
    if not counts:  # nothing said about the person: the passage's own country, if it names one
        for country, weight in countries_named(evidence, table):
            counts[country] += weight
    if counts:
        # a tie goes to a country the passage names over one a place's name gives: "commanded
        # at Gallipoli" (a town in Italy too) beside "the Republic of Turkey"
        named = {country for country, _ in countries_named(evidence, table, places=False)}
        best = max(counts, key=lambda country: (counts[country], country in named))
        if counts[best] <= 1 and not _fits_name(gold[0], best, table):
            return None, f"one mention of {best} is no nationality for {gold[0]!r}"
        return best, "passage"
    origins = {table.country_of_code(s.country_code) for s in name_origin(gold[0])} - {None}
    if len(origins) == 1:
        return origins.pop(), "name"
    return None, "unknown"


def _fits_name(name: str, country: str, table: EntityTable) -> bool:
    """Whether a stock of ``country`` lists a word of ``name`` as a first name or a surname."""
    words = name.split()
    first, last = (words[0], words[-1]) if len(words) > 1 else (None, words[0] if words else "")
    return any(stock.holds(first, last) for stock in stocks_of_country(country, table))


def person_gender(facts: Facts, gold: list[str], table: EntityTable) -> str | None:
    """The gold person's gender, or None when nothing tells it.

    The context's when only one side's words occur (:attr:`Facts.gender`), unless a single word
    contradicts the gold person's own gender (by the table); else the gold
    person's own, by the table's description or first name, when it is known: mixed cues often
    come from another person in the sentences read ("Sharpless's second Nobel, after his 2001
    award" beside "Bertozzi became one of only a handful of women"); else a clear majority of
    the context's gendered words ("the first woman ... she ... her father"), unless the context ranks
    the person among women or men ("the second woman to lead"), which decides; else the pronoun
    that opens a sentence about the answer; else, when the passage has no gendered word at all,
    the gender the gold first name leans to (:func:`~halluforge.knowledge.sources.first_name_leans`,
    else :func:`~halluforge.knowledge.romanised_names.index_first_genders`).
    """
    own = table.gender(gold[0])
    # one gendered word against the person's own name is another person's ("Judge Aileen
    # Cannon dismissed the case accusing Trump of mishandling documents at his estate": set 57
    # gave her men's names, in-sample)
    if facts.gender is not None and not (own is not None and own != facts.gender and sum(facts.cues) <= 1):
        return facts.gender
    if own is not None:
        return own
    female, male = facts.cues
    # mixed pronouns of a successor and a predecessor ("succeeds her party colleague Kariņš, who
    # resigned after disputes within his coalition"): the rank said of the person decides (set 59,
    # in-sample)
    ranked = {m.group(1) in ("women", "woman", "female") for m in _RANKED_GENDER.finditer(facts.gender_text)}
    if len(ranked) == 1:
        return "female" if ranked == {True} else "male"
    if female >= _GENDER_MAJORITY * max(male, 1) and female > male:
        return "female"
    if male >= _GENDER_MAJORITY * max(female, 1) and male > female:
        return "male"
    # a tie: a sentence opening with "She" or "He" after the answer speaks of the answer
    openers = {m.lower() for m in _OPENING_PRONOUN.findall(facts.gender_text)}
    if not openers:  # the sentences about the answer, further on ("He spent several months ...")
        openers = {m.lower() for m in _OPENING_PRONOUN.findall(" ".join(facts.about))}
    if len(openers) == 1:
        return "female" if openers == {"she"} else "male"
    # no word about the person's gender at all: the gender the gold first name leans to
    first = gold[0].split()[0] if len(gold[0].split()) > 1 else ""
    if female or male:
        return None
    # Faker's Latin lists, else the name index's ("Yasir", set 79)
    return first_name_leans().get(first.casefold()) or index_first_genders().get(first.casefold())


#: a century the sentences about the answer name ("in the late 17th century"): its first year
_CENTURY = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)[\s-]+century|\b({'|'.join(ORDINAL_WORDS)})[\s-]+century\b", re.I
)


#: a year written with its era: "AD 60", "61 CE", "44 BC"
_ERA_YEAR = re.compile(
    r"\b(?:AD|A\.D\.)\s*(\d{1,4})\b|\b(\d{1,4})\s*(?:AD|CE)\b|\b(\d{1,4})\s*(?:BC|BCE|B\.C\.)"
)


def person_era(facts: Facts, evidence: str = "") -> int | None:
    """The year the gold person was born, or about: the passage's or the table's birth year, else earlier.

    With no birth year, the earliest year of the answer's sentence, the question or the
    sentences about the answer (:func:`~.mentions.about_answer`), :data:`_ADULT_AGE`
    years earlier: what a passage tells of a person is mostly done as an adult ("founded the
    research centre in 1967": a zoologist born before 1950, no "Kayla", which a blind reader
    of set 38 saw). In an ``evidence`` with no year after 999, a year written with its era counts
    wherever it stands ("around AD 60": no "Kim Mitchell" for Boudica, set 44). With no year either, the first
    year of a century those sentences name ("the late 17th century": 1600).
    """
    born = [y for y in (facts.born, facts.gold.born if facts.gold else None) if y is not None]
    if born:
        return min(born)
    about = " ".join(facts.about)
    deeds = {*facts.years, *(int(year) for year in YEAR.findall(about))}
    # a passage dated only by years with their era ("around AD 60") is set in the first
    # millennium; one that also gives a later year may name an ancient city's modern mayor
    if not YEAR.search(evidence):
        deeds |= {-int(bc) if bc else int(ad or ce) for ad, ce, bc in _ERA_YEAR.findall(evidence)}
    if deeds:
        return min(deeds) - _ADULT_AGE
    years = [
        (int(digits) if digits else ORDINAL_WORDS.index(word.lower()) + 1) * 100 - 100
        for digits, word in _CENTURY.findall(" ".join(facts.about))
    ]
    return min(years) if years else None


#: a title the gold name opens with, kept on the invented one ("Lord Reed of Allermuir", "Sir Ernest")
_TITLED = re.compile(
    r"^(Lord|Lady|Baron|Baroness|Sir|Dame)\s+[^\s]+(?:\s+[^\s]+)*?(\s+of\s+[A-Z][\w'’ -]*)?$"
)


def titled(gold: str, name: str, *, family_first: bool = False) -> str:
    """``name`` with the title the gold name bears: a peer's surname in the title, a knight's full name.

    A peer is called by title and surname ("Lord Reed", "Lord Reed of Allermuir"), so the
    invented one is too ("Lord Allen of Allermuir"); a name put in the title's place read as
    broken to both blind readers of set 39 ("Phillip Allen of Allermuir"). A knight or dame
    keeps "Sir" or "Dame" before the full name.
    """
    match = _TITLED.match(gold)
    if match is None:
        return name
    title, words = match.group(1), name.split()
    if title in ("Sir", "Dame"):
        return f"{title} {name}"
    surname = words[0] if family_first else words[-1]
    return f"{title} {surname}{match.group(2) or ''}"


def invented_names(
    facts: Facts,
    evidence: str,
    gold: list[str],
    question: str,
    table: EntityTable,
    rng: random.Random,
    *,
    gender: str | None = None,
) -> tuple[list[str], dict[str, str]]:
    """Up to a few invented names for the gold person, best first, and what they were read from.

    ``gender`` overrides what the passage says (the question asks for a woman). The second
    value is recorded on the forged case (``country``, ``country_from``, ``gender``) or, when
    the list is empty, says why nothing was invented.
    """
    country, source = home_country(facts, evidence, gold, question, table)
    if country is None:
        why = source if source != "unknown" else "no nationality in the passage, table or name"
        return [], {"invented": why}
    of_country = stocks_of_country(country, table)
    stocks = stocks_of_name(of_country, gold[0])
    if of_country and not stocks:
        return [], {"invented": f"the name index's names of {country} are not {gold[0]!r}'s community"}
    if not stocks:
        return [], {
            "invented": f"no Latin-script names of {country} in Faker or the name index, nor of a "
            "neighbour or its subregion that hold their language's common names"
        }
    if lent_from_another_community(stocks, country, gold[0], table):
        lent = ", ".join(stock.locale for stock in stocks)
        why = f"{country}'s names are lent in a second language ({lent}), not {gold[0]!r}'s"
        return [], {"invented": why}
    gender = (
        gender
        or person_gender(facts, gold, table)
        or passage_pronouns(evidence)
        or men_only(evidence)
        or stock_gender(stocks, gold[0])
    )
    era = person_era(facts, evidence)
    if era is not None and era < _ANCIENT:
        return [], {"invented": f"no names of {country} are invented before {_ANCIENT} ({era})"}
    drawn_gender = gender is None and era is not None and era < MODERN
    if drawn_gender:  # "the painter" of 1434: as often a woman as the table's people of then and there
        gender = earlier_gender(table, country, rng)
    allowed: frozenset[str] | None = None
    before = TODAY  # the end of the era whose names ``allowed`` holds
    # Faker's names are today's: an earlier person takes names attested then. Born after 1950,
    # today's name is a small clash and another community's a plain one: only the subregion's or
    # the region's names, when they are many; the name index's are already people's of then
    recent = era is not None and era >= MODERN
    if era is not None and era < TODAY and not (recent and any(s.indexed for s in stocks)):
        genders = [gender] if gender else ["female", "male"]
        least = _MIN_RECENT if recent else _MIN_ATTESTED
        for cut, names in attested(table, country, era, everywhere=not recent):
            dated = [s for s in stocks if all(len(s.firsts(g, names)) >= least for g in genders)]
            if dated:
                stocks, allowed, before = dated, names, cut
                break
        # with too few attested names, today's, back to 1800: blind readers called an
        # anachronistic first name a small clash there; before it, "Matthew" for the founder of
        # the Asante kingdom in "the late 17th century" was a plain one
        if allowed is None and era < _EARLY:
            return [], {"invented": f"no first names of {country}'s region attested before {TODAY}; {era}"}
    of_era = allowed is not None  # the first names are those attested in the person's era
    # "Rohit Sharma": not "Robert" of en_IN's names, nor "Benjamin" of the names attested before
    # 1950 (set 47: "Benjamin Anne" for an architect born in Pune in 1927, which a blind reader
    # refused; another community's name is a plain clash, today's name of his a small one)
    own = community_firsts(stocks[0], gold[0]) if len(stocks) == 1 else None
    if own is not None:
        genders = [gender] if gender else ["female", "male"]
        narrowed = own & allowed if allowed is not None else own
        enough = all(len(stocks[0].firsts(g, narrowed)) >= _MIN_ATTESTED for g in genders)
        allowed, of_era = (narrowed, of_era) if enough else (own, False)
    # "Itō Hirobumi": Faker's romanised Japanese surnames carry no macron ("Ito")
    family_first = any(surname_first(name, s) for s in stocks for name in {gold[0], strip_accents(gold[0])})
    held = {w.casefold() for w in WORD.findall(evidence)}
    found: list[str] = []
    for _ in range(_DRAWS):
        drawn = invent_person(stocks, gender, rng, family_first=family_first, allowed=allowed)
        if drawn is None:
            break
        name = drawn[0]
        words = name.split()
        # "Muhammad Muhammad": the name index lists patronymic surnames that are given names too,
        # and a name written twice read as a placeholder to both blind readers of set 68
        if (
            table.person(name) is not None
            or any(w.casefold() in held for w in words)
            or len(set(words)) < len(words)
        ):
            continue
        name = titled(gold[0], name, family_first=family_first)
        if name not in found:
            found.append(name)
        if len(found) >= 3:
            break
    info = {"country": country, "country_from": source, "gender": gender or "either"}
    if drawn_gender:
        info["gender_from"] = f"the table's people born before {MODERN} in the region"
    if era is not None and era < TODAY:
        info["era"] = f"names attested before {before}" if of_era else "names of today"
    return found, info


__all__ = [
    "earlier_gender",
    "home_country",
    "invented_names",
    "person_era",
    "person_gender",
    "titled",
]
