"""A word of the passage that echoes the answer's name, so a swap would leave the name behind.

Part of :func:`.restatements.restatement`: "spilled milk, and so it is called the Milky Way",
"the Shukhov Tower" beside Vladimir Shukhov, "Pininfarina" beside Farina, "named Valletta in
his honour" beside Valette. Kind, title and common name words ("desert", "president", "new")
name no one thing and are left out. Split from :mod:`.restatements`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from halluforge.families.shared.kinds import kind_words
from halluforge.families.shared.passage import outside, sentence_of
from halluforge.families.shared.roles import TITLE_WORDS
from halluforge.textkit.answers import normalize_answer

#: name words too common to show that the passage echoes the answer's name
_GENERIC = frozenset(
    (
        *("world", "united", "nations", "national", "international", "organization", "organisation"),
        *("company", "corporation", "river", "lake", "mount", "mountain", "city", "state", "states"),
        *("republic", "kingdom", "island", "islands", "ocean", "great", "north", "south", "east"),
        *("west", "new", "saint", "university", "college", "institute", "museum", "park", "street"),
        *("bridge", "tower", "house", "church", "empire", "society", "association", "union", "party"),
        # venues ("Narendra Modi Stadium" beside "the stadium": set 47 skipped it as an echo)
        *("stadium", "stadion", "arena", "ground", "oval", "estadio", "estádio", "stadio", "stade"),
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


def _stem(word: str) -> str:
    return word.lower()[: max(4, min(len(word) - 1, 6))]  # "portug" for Portuguese and Portugal


def _single(word: str) -> str:
    """A word with its doubled letters written once: "Valletta" and "Valette" both open "valet"."""
    return re.sub(r"(.)\1+", r"\1", word)


#: what a name word adds to the word it is made from ("Milky" of "milk", "Portuguese" of "Portug-")
_ENDINGS = frozenset(("y", "s", "es", "ic", "an", "ian", "ese", "ish", "i"))


def _clipped(token: str, words: set[str]) -> bool:
    """Whether ``token`` is only the head of the name words it shares a stem with: "hero" of "Heron".

    A name word made from the passage's word adds an ending to it ("Milky" of "milk": an echo);
    one that adds another letter is another word ("The Boy and the Heron" beside the film's
    "young hero", set 77: no echo).
    """
    sharing = [w.lower() for w in words if len(w) >= 4 and token.startswith(_stem(w))]
    return bool(sharing) and all(
        len(w) > len(token) and w.startswith(token) and w[len(token) :] not in _ENDINGS for w in sharing
    )


def _name_words(name: str, person: bool) -> set[str]:
    """The words of a name that could echo it; a person's given names are shared by too many people."""
    found = re.findall(r"[A-Za-z][\w-]*", name)
    return set(found[1:] if person and len(found) > 1 else found)


def echo(
    evidence: str, gold: Sequence[str], spans: Sequence[tuple[int, int]], *, person: bool = False
) -> str | None:
    """A word outside the answers that shares the answer's name ("milk" for Milky Way).

    The words of the main answer count, and those of every alias the passage writes (and the
    swap so replaces): "officially called Mount McKinley, after the president William
    McKinley" explains the alias. Kind and title words ("desert" of "Gobi Desert",
    "president") do not name the answer, nor, for a ``person``, a given name ("Alexander" of
    Alexander Borodin, in a passage that also names Alexander Glazunov), unless a title owns
    it ("the album Harry's House" of Harry Styles, which a blind reader of set 45 noticed).
    """
    words = _name_words(gold[0], person)
    short = {w.lower() for w in words if len(w) <= 3 and w[:1].isupper()} if len(words) == 1 else set()
    written = {normalize_answer(evidence[s:e]) for s, e in spans}
    for alias in gold[1:]:
        if normalize_answer(alias) in written:
            words |= _name_words(alias, person)
    if person and len(gold[0].split()) > 1:  # "Antônio Carlos Gomes" of Carlos Gomes: a given name
        words.discard(gold[0].split()[0])
    generic = _generic()
    stems = {_stem(w) for w in words if len(w) >= 4 and w.lower() not in generic}
    # a name spelt with other doubled letters: "named Valletta in his honour" of Valette (set 58,
    # in-sample); five letters at least, or "Hall" would echo in "halt"
    singles = {_single(s) for s in stems if len(_single(s)) >= 5}
    # a longer word ending in the name: "Pininfarina" of Farina (set 50, in-sample)
    compounds = {w.lower() for w in words if len(w) >= 6 and w.lower() not in generic}
    given = gold[0].split()[0] if person and len(gold[0].split()) > 1 else ""
    # "the album Harry's House" in a passage on Harry Styles: a work named for the given name
    for match in re.finditer(rf"\b{re.escape(given)}['’]s\s+[A-Z]", evidence) if len(given) >= 3 else ():
        if outside(spans, *match.span()):
            return f"the passage echoes the answer's given name in {match.group()[:-2]!r}"
    for match in re.finditer(r"[A-Za-z][\w-]*", evidence):
        token = match.group().lower()
        if not outside(spans, *match.span()):
            continue
        single = _single(token) if singles else ""
        if (
            (any(token.startswith(s) for s in stems) and not _clipped(token, words))
            or any(token.endswith(w) for w in compounds)
            or any(single.startswith(s) for s in singles)
        ):
            return f"the passage echoes the answer's name in {match.group()!r}"
        if len(token) >= 4 and any(token.startswith(s) for s in short):  # then the sentence, if it counts
            sentence = sentence_of(evidence, match.start())
            if any(sentence_of(evidence, s) == sentence for s, _ in spans):
                return f"the passage explains the answer's name by {match.group()!r}"
    return None


__all__ = ["echo"]
