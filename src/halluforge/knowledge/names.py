"""Invented people: names of one nationality and gender, from Faker's per-locale name lists.

A swapped-in *famous* person is rarely believable: the rest of the passage describes the gold
person (birth year, home town, best-known work), and a reader knows the famous donor's own
life. Three blind held-out readings found 1 plausible case in 54 whose person donor came from
the entity table, the dataset's other answers or the neighbours (``docs/families/answer_swap.md``).
A person nobody has heard of clashes with nothing a reader knows, as long as the name fits the
passage: the same nationality (a Norwegian playwright gets a Norwegian name) and the same
gender as the pronouns say.

The names are the first and last names of Faker's person providers (MIT), one
:class:`NameStock` per locale whose names are in Latin script (Japanese and Chinese through
their romanised lists; Cyrillic, Georgian and Armenian names transliterated by ``anyascii``,
ISC), and one per country Faker writes in Arabic script, from a Wikidata name index in the
country's own Latin spellings (:mod:`halluforge.knowledge.romanised_names`). A country finds
its stocks by ISO code (``no_NO`` for Norway, ``tw_GH`` for Ghana, ``ar_TN`` for Tunisia); a
country with none takes those of a neighbour in one of its official languages (``ru_RU`` for
Belarus), else those of its first language in its subregion (``en_NZ`` for Australia)
(:func:`stocks_of_country`), when those names are the language's common ones (English names,
not ``en_KE``'s Kenyan names: :func:`borrowable`); a country whose names Faker holds only in
a script that does not transliterate as English texts write it (Korean, Greek) finds none,
and no name is invented.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from halluforge.knowledge.name_stock import MIN_NAMES, NameStock, latin_names
from halluforge.knowledge.romanised_names import index_stocks
from halluforge.knowledge.sources import faker_people, first_name_leans

if TYPE_CHECKING:
    from halluforge.knowledge.table import EntityTable


def _stock(locale: str, provider: Any) -> NameStock | None:
    """The locale's Latin-script names, or None when it has too few of either gender or of surnames."""
    first: dict[str, tuple[tuple[str, ...], tuple[float, ...]]] = {}
    last: dict[str, tuple[tuple[str, ...], tuple[float, ...]]] = {}
    for gender in ("male", "female"):
        # Japanese lists pair each name with its kana and romaji; the romaji is the third part
        attributes = (
            f"first_name_{gender}_pairs",
            f"first_romanized_names_{gender}",
            f"first_names_{gender}",
            "first_romanized_names",  # Chinese romanised given names carry no gender
        )
        for attribute in attributes:
            names = latin_names(getattr(provider, attribute, None))
            if len(names[0]) >= MIN_NAMES:
                first[gender] = names
                break
        names = latin_names(getattr(provider, f"last_names_{gender}", None))
        if len(names[0]) >= MIN_NAMES:
            last[gender] = names
    for attribute in ("last_name_pairs", "last_romanized_names", "last_names", "unisex_last_names"):
        names = latin_names(getattr(provider, attribute, None))
        if len(names[0]) >= MIN_NAMES:
            last["any"] = names
            break
    if set(first) != {"male", "female"} or not last:
        return None
    if "any" not in last and set(last) != {"male", "female"}:
        return None
    return NameStock(locale=locale, first=_one_gender(first), last=last)


def _one_gender(
    first: dict[str, tuple[tuple[str, ...], tuple[float, ...]]],
) -> dict[str, tuple[tuple[str, ...], tuple[float, ...]]]:
    """First names by gender, a name both lists hold kept only under the gender it leans to.

    Faker's ``es_ES`` lists "José" among women's names too (of "María José"), and ``sv_SE``
    "Ahmed" and "Ali": RECALL named Spain's Francina Armengol "José Tur" beside "she" (set 83,
    both readers). A name Faker's lists give both genders alike ("Kim", "Jordan") stays in both.
    """
    leans = first_name_leans()
    both = set(first["male"][0]) & set(first["female"][0])
    kept = {}
    for gender, (names, weights) in first.items():
        pairs = [
            (n, w)
            for n, w in zip(names, weights, strict=True)
            if n not in both or leans.get(n.casefold(), gender) == gender
        ]
        kept[gender] = (tuple(n for n, _ in pairs), tuple(w for _, w in pairs))
    return kept


@functools.lru_cache(maxsize=1)
def name_stocks() -> dict[str, NameStock]:
    """Every Faker locale with enough Latin-script names of both genders, by locale (empty without Faker).

    Then the countries Faker writes in Arabic script, from the Wikidata name index
    (:mod:`halluforge.knowledge.romanised_names`), under their own locale tags (``ar_TN``).
    """
    people = faker_people()
    if not people:
        return {}
    stocks: dict[str, NameStock] = {}
    for locale, provider in people:
        stock = _stock(locale, provider)
        if stock is not None and stock.country_code is not None:
            stocks[locale] = stock
    for locale, stock in index_stocks(list(stocks.values())).items():
        stocks.setdefault(locale, stock)
    return stocks


def stocks_of_country(
    country: str,
    table: EntityTable,
    stocks: dict[str, NameStock] | None = None,
) -> list[NameStock]:
    """The stocks whose names are a ``country``'s, nearest first.

    1. the country's own locales in a language spoken there (official, or listed by GeoNames:
       ``tw_GH`` for Ghana; ``es_CA``, Spanish names under Canada's code, is not Canada's),
       with a neighbour's locales in its first official language when it has none of its own
       (``en_US`` beside Canada's ``fr_CA``);
    2. else the locales of the countries it borders, in one of its official languages
       (``ru_RU`` for Belarus, ``es_CO`` and ``es_CL`` for Peru);
    3. else the locales of its first official language in its subregion (``en_NZ`` for
       Australia).

    A stock lent by a neighbour or the subregion must pass :func:`borrowable`. No tier, no
    stock: the region alone (a continent) gave Kenyan names to Ghanaians and
    Algerian ones to Djibouti and Senegal, which blind readers called names of another
    community. All of them are returned: :func:`stocks_of_name` chooses one community by the gold name,
    then the English ones when there are any (the passages are English).
    """
    stocks = stocks if stocks is not None else name_stocks()
    info = table.countries.get(country) or {}
    code = info.get("iso2")
    languages = [str(language) for language in info.get("languages") or []]
    spoken = {*languages, *(str(language) for language in info.get("spoken") or [])}
    borders = {str(border) for border in info.get("borders") or []}
    # a neighbour's names in an official language only: English spoken as a lingua franca
    # would give Kenyan names to Ethiopians
    near = [
        s
        for s in stocks.values()
        if table.country_of_code(s.country_code) in borders and s.language in languages
    ]
    own = [s for s in stocks.values() if code and s.country_code == code and s.language in spoken]
    if own and languages and not any(s.language == languages[0] for s in own):
        own += [s for s in near if s.language == languages[0]]
    own = own or near
    subregion = table.subregion(country)
    if not own and languages and subregion is not None:
        own = [
            s
            for s in stocks.values()
            if s.language == languages[0]
            and table.subregion(table.country_of_code(s.country_code)) == subregion
        ]
    # a borrowed stock must hold its language's common names, not one community's under it; the
    # name index's are one country's people (Arabic names for Israel's or Eritrea's would clash)
    own = [s for s in own if (code and s.country_code == code) or (not s.indexed and borrowable(s, stocks))]
    return sorted({s.locale: s for s in own}.values(), key=lambda s: s.locale)


def _english(stocks: Sequence[NameStock]) -> list[NameStock]:
    """The English stocks when there are any, else all."""
    return [s for s in stocks if s.language == "en"] or list(stocks)


#: a stock lent to another country shares at least this part of its surnames with its
#: language's other stocks: en_GB 0.89, en_NZ 0.69, en_US 0.53, es_CO 0.82 in Faker 40.63 do;
#: en_KE 0.03, en_IN 0.02, en_NG 0.05 and fr_DZ 0.00 hold one community's names under a
#: lingua franca's tag
_SHARED_MIN = 0.3
#: a given name of an indexed stock's country that this many of Faker's stocks list is still the
#: country's own (an emigrant community's stock lists it: "Hicham" in ``fr_BE``)
_EMIGRANT_STOCKS = 1


def borrowable(stock: NameStock, stocks: dict[str, NameStock]) -> bool:
    """Whether ``stock``'s names may stand for another country's that speaks its language.

    Kenyan names ("John Njeru") given to Mauritius's prime minister, Indian ones ("Yamini
    Baral") to Pakistan's and Kenyan ones to a Ugandan were read as another community's by
    both blind readers of sets 36 and 37: English is official in all of them, but their names
    are not English ones. A stock whose surnames its language's other stocks mostly lack is
    such a community's; a language with one stock has nothing to compare and lends it.
    """
    others = [s for s in stocks.values() if s.language == stock.language and s.locale != stock.locale]
    if not others or not stock.surnames:
        return True
    common = frozenset().union(*(s.surnames for s in others))
    return len(stock.surnames & common) >= _SHARED_MIN * len(stock.surnames)


def community_firsts(
    stock: NameStock, gold: str, stocks: dict[str, NameStock] | None = None
) -> frozenset[str] | None:
    """The first names of a community's stock that its language's other stocks lack, or None for all.

    ``en_IN`` lists "Robert" and "Michael" beside "Rohit": India's cricket captain became
    "Robert Peri", which both blind readers of set 45 doubted. A stock that holds one
    community's names under a lingua franca (not :func:`borrowable`) draws only its own first
    names, unless the gold person's first name is one the language's other stocks share
    ("Victor Osimhen": Nigerian and English alike), then all.
    """
    stocks = stocks if stocks is not None else name_stocks()
    if borrowable(stock, stocks):
        return None
    others = {
        name
        for s in stocks.values()
        if s.language == stock.language and s.locale != stock.locale
        for names, _ in s.first.values()
        for name in names
    }
    if not others or (gold.split() or [""])[0] in others:
        return None
    own = frozenset(name for names, _ in stock.first.values() for name in names if name not in others)
    return own if all(len(stock.firsts(g, own)) >= MIN_NAMES for g in stock.first) else None


def stocks_of_name(stocks: Sequence[NameStock], name: str) -> list[NameStock]:
    """Of a country's stocks, those listing most of ``name``'s first and last word, in either order.

    A country of several languages (Belgium: ``fr_BE`` and ``nl_BE``) gives its people names of
    one community: the Flemish nationalist leader "Bart De Wever" became "David Bailly", a
    Walloon name, which both blind readers of set 31 noted. The gold person's own name tells
    the community when one stock lists more of it than another ("Valérie Plante" of Montreal:
    ``fr_CA``, not the ``en_US`` names "Lori Lee" a blind reader of set 47 doubted); otherwise
    the English ones stay, or all. A stock of the name index stays only for a name of its
    community (:func:`_of_community`).
    """
    stocks = [s for s in stocks if not s.indexed or _of_community(s, name)]
    words = name.split()
    if len(stocks) < 2 or len(words) < 2:
        return _english(stocks)
    first, last = words[0], words[-1]
    held = {s.locale: max(s.holds(first, last), s.holds(last, first)) for s in stocks}
    best = max(held.values())
    return _english([s for s in stocks if held[s.locale] == best] if best else stocks)


def _of_community(stock: NameStock, name: str) -> bool:
    """Whether ``name`` is one of the people an indexed stock's names stand for.

    The index holds each country's names as its Wikidata people are named, one stock for all
    its communities: an invented "Walid Shaheen" for Lebanon's Maronite president Joseph Aoun,
    or "Muhammad Subhani" for Guru Nanak (born in today's Pakistan), would be another
    community's name. So the stock must list a word of the name, and a first name it lacks must
    not be a given name of Faker's stocks ("Joseph", "Hervé": another community's). A given name
    the index lists for the country but cannot gender is its own when at most one Faker stock
    lists it, an emigrant community's ("Hicham" of Morocco, 87 people, is in ``fr_BE`` only; the
    runner Hicham El Guerrouj was skipped in set 74); "Joseph", of Lebanon's Maronites and of
    nineteen Faker stocks, stays another community's. A name of one word (Imhotep) or with a
    patronymic particle ("Mohammed bin Salman", a royal style the index's first and last names
    do not write) is none of its.
    """
    words = name.split()
    if len(words) < 2 or any(word.isalpha() and word.islower() for word in words):
        return False
    first, last = words[0], words[-1]
    if not (stock.holds(first, last) or stock.holds(last, first) or first in stock.given):
        return False
    if stock.holds(first, None):
        return True
    faker = sum(1 for other in name_stocks().values() if not other.indexed and other.holds(first, None))
    return faker <= (_EMIGRANT_STOCKS if first in stock.given else 0)


def name_origin(name: str, stocks: Iterable[NameStock] | None = None) -> list[NameStock]:
    """The stocks a person's name most likely comes from ("Katalin Nagy": hu_HU), or none.

    The stocks listing both its first and its last word (either order: "Wang Wei" writes the
    surname first); else those listing its surname, when they all share one country. Empty
    otherwise: a first name alone is shared by too many countries to tell a nationality.
    """
    words = name.split()
    if len(words) < 2:
        return []
    first, last = words[0], words[-1]
    every = list(stocks if stocks is not None else name_stocks().values())
    both = [s for s in every if s.holds(first, last) == 2 or s.holds(last, first) == 2]
    if both:
        return sorted(both, key=lambda s: s.locale)
    surname = [s for s in every if s.holds(None, last)]
    if len({s.country_code for s in surname}) == 1:
        return sorted(surname, key=lambda s: s.locale)
    return []


#: languages whose names are written family name first, in their own texts and most English ones
_FAMILY_FIRST = frozenset({"zh", "ja", "ko", "vi"})


def surname_first(name: str, stock: NameStock) -> bool:
    """Whether ``name`` is written surname first in this stock's names ("Wang Wei", not "Wei Wang").

    Either both words are the stock's the other way round ("Wang Wei") and, outside the
    languages that write the family name first, neither is the stock's this way ("Paul
    Maurice": Paul is a given name in en_US; it was written "Smith Anthony" for a blind reader
    of set 47), or only the first is,
    as a surname and never as a given name, and the last is no surname of the stock: a given
    name the stock does not list ("Wu Zetian", a Tang empress) is still read in the stock's own
    order, where "Jackson Pollock" (Jackson a given name too) is not.
    """
    words = name.split()
    if len(words) < 2:
        return False
    first, last = words[0], words[-1]
    # where names are written family name first ("Wang Wei": Wang is also a given name there),
    # one word read this way does not outweigh both read the other way; elsewhere it does
    this_way = stock.holds(first, last)
    if stock.holds(last, first) == 2 and this_way < (2 if stock.language in _FAMILY_FIRST else 1):
        return True
    # "Wu Zetian": only the first word known, as a surname, in a language that writes names so;
    # elsewhere a given name the stock lacks ("Martin Schlegel" in de_CH, set 53: "Probst Jaron")
    # is no evidence
    return (
        stock.language in _FAMILY_FIRST
        and stock.holds(None, first) == 1
        and stock.holds(first, None) == 0
        and stock.holds(None, last) == 0
    )


def family_name_first(name: str, stocks: Iterable[NameStock] | None = None) -> bool:
    """Whether ``name`` is written family name first.

    By the stocks it comes from (:func:`surname_first`), else by a stock of a language that writes
    names so and lists its first word as a surname only. "Zhao Xintong": Faker's Chinese stocks
    list Zhao as a surname and not Xintong, so no stock holds both words and :func:`name_origin`
    finds none; the name is still read family name first.
    """
    every = list(stocks if stocks is not None else name_stocks().values())
    origin = name_origin(name, every)
    family_first = [stock for stock in every if stock.language in _FAMILY_FIRST]
    return any(surname_first(name, stock) for stock in (*origin, *family_first))


def invent_person(
    stocks: Sequence[NameStock],
    gender: str | None,
    rng: random.Random,
    *,
    family_first: bool = False,
    allowed: frozenset[str] | None = None,
) -> tuple[str, str] | None:
    """A new name from one of ``stocks`` and the locale it came from, or None when there is no stock.

    ``gender`` None draws one at random (the passage says nothing of it); ``allowed`` limits
    the first names (those attested in an era).
    """
    if not stocks:
        return None
    stock = stocks[rng.randrange(len(stocks))]
    first, last = stock.invent(gender or rng.choice(("female", "male")), rng, allowed)
    return (f"{last} {first}" if family_first else f"{first} {last}"), stock.locale


def lent_from_another_community(
    stocks: Iterable[NameStock], country: str, gold: str, table: EntityTable
) -> bool:
    """Whether every stock is a neighbour's in a second language and none lists a word of the gold name.

    Kazakhstan has no stock of its own and borrows Russia's (Russian is its second official
    language): its prime minister Olzhas Bektenov became "Prokofiy Davydov" and "Borislav
    Shchukin", another community's names to both blind readers of set 89. A stock in the
    country's first language stays (Canada's ``en_US``, Uruguay's ``es_AR``), and so does one
    that lists a word of the gold name.
    """
    info = table.countries.get(country) or {}
    languages = [str(language) for language in info.get("languages") or []]
    words = gold.split()
    if len(words) < 2 or not languages:
        return False
    first, last = words[0], words[-1]
    return all(
        stock.country_code != info.get("iso2")
        and stock.language != languages[0]
        and not (stock.holds(first, last) or stock.holds(last, first))
        for stock in stocks
    )


def stock_gender(stocks: Iterable[NameStock], gold: str) -> str | None:
    """The gender the drawn stocks list the gold first name under, when only one.

    Faker's Latin lists and the name index gender no "Mikheil"; the Georgian stock, in
    transliteration, lists him among men (set 87: Georgia's president, "a former professional
    footballer" with no pronoun, became "Elena Peradze", hard to both blind readers).
    """
    words = gold.split()
    if len(words) < 2:
        return None
    first = words[0].casefold()
    found = {
        gender
        for stock in stocks
        for gender, (names, _) in stock.first.items()
        if any(name.casefold() == first for name in names)
    }
    return found.pop() if len(found) == 1 else None


__all__ = [
    "NameStock",
    "community_firsts",
    "family_name_first",
    "invent_person",
    "lent_from_another_community",
    "name_origin",
    "name_stocks",
    "stock_gender",
    "stocks_of_country",
    "stocks_of_name",
    "surname_first",
]
