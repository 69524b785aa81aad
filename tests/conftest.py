"""Shared fixtures: an isolated cache dir per test and the path of the shared real data."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never touch the user's response cache from tests."""
    monkeypatch.setenv("HALLUFORGE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture
def shared_data() -> Path:
    """The team's shared real data, or skip when this checkout has none beside it."""
    path = SHARED / "data"
    if not path.is_dir():
        pytest.skip("shared/data is not beside this checkout")
    return path
