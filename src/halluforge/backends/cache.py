"""A response cache in SQLite, keyed by a hash of what changes a model's output.

The key covers the backend address, engine options that change outputs, and the request's
messages and decoding options (temperature, top_p and the seed: a seeded sample is cached
under its seed). Timeouts and retry counts are not part of the key. Only successful
completions are stored. The default location is ``~/.cache/halluforge/cache.sqlite``
(``HALLUFORGE_CACHE_DIR`` overrides it); a run can point it elsewhere or switch it off.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from halluforge.errors import StoreError
from halluforge.records import Completion

CACHE_VERSION = 1


def default_cache_path() -> Path:
    """Where the cache lives unless a run says otherwise."""
    root = os.environ.get("HALLUFORGE_CACHE_DIR")
    base = Path(root) if root else Path.home() / ".cache" / "halluforge"
    return base / "cache.sqlite"


class ResponseCache:
    """A thread-safe SQLite key-value store of completions."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS completions (key TEXT PRIMARY KEY, data TEXT NOT NULL)"
            )
            self._db.commit()
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"cannot open response cache {self.path}: {exc}",
                hint="delete the file or set HALLUFORGE_CACHE_DIR to another folder",
            ) from exc
        self.hits = 0
        self.misses = 0

    @staticmethod
    def key(backend: str, engine: dict[str, Any], request: dict[str, Any]) -> str:
        """Hash the output-changing inputs of one call."""
        blob = json.dumps(
            {"v": CACHE_VERSION, "backend": backend, "engine": engine, "request": request},
            sort_keys=True,
            ensure_ascii=False,
        )
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    def get_many(self, keys: Iterable[str]) -> dict[str, Completion]:
        """Return the cached completions for the keys that are present."""
        wanted = list(dict.fromkeys(keys))
        found: dict[str, Completion] = {}
        with self._lock:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start : start + 500]
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    f"SELECT key, data FROM completions WHERE key IN ({marks})", chunk
                ).fetchall()
                for key, data in rows:
                    found[key] = Completion.model_validate_json(data)
        self.hits += len(found)
        self.misses += len(wanted) - len(found)
        return found

    def put_many(self, items: dict[str, Completion]) -> None:
        """Store successful completions; errors are refused so they are retried next time."""
        rows = [
            (key, c.model_copy(update={"cached": False, "request_id": ""}).model_dump_json())
            for key, c in items.items()
            if c.ok
        ]
        if not rows:
            return
        with self._lock:
            self._db.executemany("INSERT OR REPLACE INTO completions VALUES (?, ?)", rows)
            self._db.commit()

    def __len__(self) -> int:
        with self._lock:
            (count,) = self._db.execute("SELECT COUNT(*) FROM completions").fetchone()
        return int(count)

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()


__all__ = ["ResponseCache", "default_cache_path"]
