"""A stop while a write of the bot's waits for a lock another writer holds (left36, stopgap37,
review38): the stop begun with no time left for answers, the lock freed as the stop cancels
them or only once the stop is over."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.discord_app.app import STORE_SHARE, GlossaryBot
from bot.storage import Store
from tests.fake_discord import InteractionHandle
from tests.resilience.helpers import warned

from .conftest import Scene

Act = Callable[[], Awaitable[InteractionHandle]]


def write_begun(monkeypatch: pytest.MonkeyPatch, store: Store, write: str) -> asyncio.Event:
    """An event set as the store's `write` begins: its transaction is under way (shielded)
    before the task calling it next yields."""
    writing, original = asyncio.Event(), getattr(store, write)

    async def begun(*args: Any, **kwargs: Any) -> Any:
        writing.set()
        return await original(*args, **kwargs)

    monkeypatch.setattr(store, write, begun)
    return writing


async def stop_with_a_write_held(bot: GlossaryBot, *, released_in_the_stop: bool) -> asyncio.Task:
    """Begin `bot`'s stop with no time left for answers, once it has cancelled the answers under
    way (its INFO line). Released in the stop, the caller frees the lock next and awaits the
    task returned; otherwise the stop is over when this returns (the caller frees the lock
    after)."""
    bot.stop_deadline = asyncio.get_running_loop().time() + STORE_SHARE
    async with warned("still under way at the stop's time", level=logging.INFO):
        closing = asyncio.create_task(bot.close())
    if not released_in_the_stop:
        await closing
    return closing


async def told_during_a_stop(
    scene: Scene,
    bot: GlossaryBot,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    write: str,
    act: Act,
    *,
    released_in_the_stop: bool,
) -> list[str]:
    """`act` (an interaction whose answer follows the store's `write`) while another writer
    holds the SQLite database's write lock; a stop with no time left for answers once the write
    is under way; the lock freed as the stop cancels the answers (or once the stop is over).
    What the member was told after the write (follow-ups)."""
    writing = write_begun(monkeypatch, store, write)
    with contextlib.closing(sqlite3.connect(scene.db_path, isolation_level=None)) as holder:
        holder.execute("BEGIN IMMEDIATE")  # the write lock, held by another writer
        try:
            handle = await act()
            await asyncio.wait_for(writing.wait(), 30)
            closing = await stop_with_a_write_held(bot, released_in_the_stop=released_in_the_stop)
        finally:
            holder.execute("COMMIT")  # the other writer is done: the write goes on
        await closing
    return [str(r.body.get("content")) for r in handle.records if r.kind == "followup"]
