"""The shared shape of backends that talk to an HTTP API through a vendor's async SDK client.

The OpenAI and Anthropic backends differ in how they build their client and turn one request
into one call; the rest is the same and lives here: one client per event loop (an HTTP
connection pool cannot cross loops), a list of requests fanned out as concurrent calls (the
limit wrapper caps how many are in flight), and closing the client on the loop that made it.
"""

from __future__ import annotations

import abc
import asyncio
from collections.abc import Sequence
from typing import Any

from halluforge.backends.base import Backend
from halluforge.records import Completion, Request


class SdkClientBackend(Backend):
    """A backend whose calls go through one async SDK client per event loop."""

    _client: Any = None
    _client_loop: asyncio.AbstractEventLoop | None = None

    @abc.abstractmethod
    def _new_client(self) -> Any:
        """A fresh SDK client (its own retries off: the retry wrapper does that)."""

    @abc.abstractmethod
    async def _one(self, client: Any, request: Request) -> Completion:
        """One request as one call; failures come back as completions with ``error``."""

    def _get_client(self) -> Any:
        """The client of the running event loop, made on first use."""
        loop = asyncio.get_running_loop()
        if self._client is None or self._client_loop is not loop:
            self._client = self._new_client()
            self._client_loop = loop
        return self._client

    async def generate(self, requests: Sequence[Request]) -> list[Completion]:
        if not requests:
            return []
        client = self._get_client()
        return list(await asyncio.gather(*(self._one(client, r) for r in requests)))

    async def aclose(self) -> None:
        if self._client is not None:
            client, self._client = self._client, None
            if self._client_loop is asyncio.get_running_loop():
                await client.close()
            self._client_loop = None


__all__ = ["SdkClientBackend"]
