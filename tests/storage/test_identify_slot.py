"""IDENTIFY turns across processes: `Store.identify_slot(bucket)` on a shared (PostgreSQL)
database lets one holder per bucket at a time, whichever store asks, and a holder whose
connection dies frees its bucket at once. A SQLite file is one process's: nothing to share."""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qsl, urlsplit

import pytest

from bot.storage import Store

from .conftest import Databases, OpenStore


async def holding(store: Store, bucket: int, entered: asyncio.Event, leave: asyncio.Event) -> None:
    async with store.identify_slot(bucket):
        entered.set()
        await leave.wait()


async def test_one_holder_per_bucket_across_stores(
    open_any: OpenStore, postgres_only: None
) -> None:
    first, second = await open_any(), await open_any()  # two processes of one bot
    assert first.shared
    assert second.shared
    first_in, first_out = asyncio.Event(), asyncio.Event()
    second_in, second_out = asyncio.Event(), asyncio.Event()
    other_in, other_out = asyncio.Event(), asyncio.Event()
    holders = [asyncio.create_task(holding(first, 0, first_in, first_out))]
    await asyncio.wait_for(first_in.wait(), 10)
    holders.append(asyncio.create_task(holding(second, 0, second_in, second_out)))
    holders.append(asyncio.create_task(holding(second, 1, other_in, other_out)))
    # Another bucket is free: it is taken while bucket 0 is still held.
    await asyncio.wait_for(other_in.wait(), 10)
    assert not second_in.is_set()
    first_out.set()  # the first holder leaves: the second gets bucket 0
    await asyncio.wait_for(second_in.wait(), 10)
    second_out.set()
    other_out.set()
    await asyncio.gather(*holders)


async def test_a_dead_holder_frees_its_bucket(
    open_any: OpenStore, databases: Databases, location: str, postgres_only: None
) -> None:
    """A process killed while holding a bucket: its session ends, and the lock with it."""
    first, second = await open_any(), await open_any()
    first_in, never = asyncio.Event(), asyncio.Event()
    stuck = asyncio.create_task(holding(first, 3, first_in, never))
    await asyncio.wait_for(first_in.wait(), 10)
    schema = dict(parse_qsl(urlsplit(location).query))["application_name"]
    ended = await databases.execute_admin(
        "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity"
        f" WHERE application_name = '{schema}' AND query LIKE '%pg_advisory_lock%'"
    )
    assert ended == 1
    second_in, leave = asyncio.Event(), asyncio.Event()
    leave.set()
    await asyncio.wait_for(holding(second, 3, second_in, leave), 10)
    assert second_in.is_set()
    stuck.cancel()
    with pytest.raises(asyncio.CancelledError):
        await stuck


async def test_a_sqlite_file_has_nothing_to_share(sqlite_store: Store) -> None:
    assert not sqlite_store.shared
    with pytest.raises(NotImplementedError, match="one process"):
        async with sqlite_store.identify_slot(0):
            pass
