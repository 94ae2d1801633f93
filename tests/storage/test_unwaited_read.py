"""A server's read that no request waits for any more, failing at its deadline (coordinator,
2026-12-05: CI printed "Task exception was never retrieved ... ServerCache._load ...
TimeoutError" with a traceback when such a task was collected; in a running bot that is an
asyncio ERROR with a traceback for a failure the cache has already said in one line)."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path
from typing import Any

from bot.discord_app.alias_cache import ServerCache
from bot.glossary import Glossary
from bot.search import SearchIndex
from tests.polling import eventually
from tests.resilience.helpers import hung_database

from .conftest import OpenStore


async def test_a_read_given_up_by_every_request_fails_without_an_unretrieved_error(
    open_store: OpenStore, db_path: Path, bundled: tuple[Glossary, SearchIndex]
) -> None:
    store = await open_store(db_path)
    cache = ServerCache(lambda: store, lambda: bundled, read_timeout=0.01)
    cache.read_deadline = 0.05  # the read itself gives up soon after the request did
    loop = asyncio.get_running_loop()
    reported: list[dict[str, Any]] = []
    previous = loop.get_exception_handler()
    loop.set_exception_handler(lambda _, context: reported.append(context))
    try:
        with hung_database(store):
            assert not (await cache.local(5)).terms  # answered without the server, at once
            await eventually(lambda: not cache.knows(5) and not cache._loading, "read given up")
        gc.collect()  # the failed task, no longer referenced, is collected
        assert reported == []
    finally:
        loop.set_exception_handler(previous)
