"""Pytest glue: the ``fake_discord`` fixture and ``run_client`` to run a bot against it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import discord
import pytest

from .server import FakeDiscord


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A running fake with discord.py pointed at it; fails the test on recorded violations."""
    async with FakeDiscord() as fake:
        with fake.patch_discord_py():
            yield fake
    report = fake.violation_report()
    if report is not None:
        pytest.fail(report, pytrace=False)


def client_shards(client: discord.Client, fake: FakeDiscord) -> set[int]:
    """The shards ``client`` will identify as: its ``shard_ids``, all of them for an
    AutoShardedClient without any, else its ``shard_id`` (0 when unsharded)."""
    if isinstance(client, discord.AutoShardedClient):
        if client.shard_ids:
            return set(client.shard_ids)
        return set(range(client.shard_count or fake.sharding.shard_count))
    return {client.shard_id or 0}


@contextlib.asynccontextmanager
async def run_client(
    client: discord.Client,
    fake: FakeDiscord,
    *,
    synced: bool = True,
    guild_id: int | None = None,
) -> AsyncIterator[discord.Client]:
    """Start ``client`` against ``fake``, wait until it is ready, and close it on exit.

    Ready means this client's own IDENTIFYs were answered (READY and every GUILD_CREATE sent,
    on each of its shards: see ``client_shards``) and, if ``synced``, it synced the global
    commands (or ``guild_id``'s) since it started, so a second client on the same fake (a
    restart) is waited for properly. A client that dies while starting (e.g. LoginFailure)
    raises here instead of timing out. On exit the client is closed and its gateway
    connections are gone.
    """
    gateway = fake.gateway
    shards = client_shards(client, fake)
    identifies = {s: gateway.identify_counts.get(s, 0) for s in shards}
    syncs = fake.registry.sync_counts.get(guild_id, 0)

    def started() -> bool:
        identified = all(
            gateway.identify_counts.get(s, 0) > identifies[s] and gateway.shard_ready(s)
            for s in shards
        )
        fresh_sync = fake.registry.sync_counts.get(guild_id, 0) > syncs
        return identified and (fresh_sync or not synced)

    runner = asyncio.create_task(client.start(fake.token), name="fake-discord-client")
    ready = asyncio.create_task(fake.waiter.wait_for(started, "the client to IDENTIFY and sync"))
    try:
        await asyncio.wait({runner, ready}, return_when=asyncio.FIRST_COMPLETED)
        if runner.done():
            runner.result()  # re-raise the client's failure
            raise RuntimeError("the client stopped before it was ready")
        ready.result()
        yield client
    finally:
        ready.cancel()
        await client.close()
        await asyncio.wait({runner, ready})
        await fake.waiter.wait_for(
            lambda: not shards & gateway.live_shards(), "the client to disconnect"
        )
        if not ready.cancelled():
            ready.exception()  # retrieved, so asyncio does not warn about it
    crash = runner.exception()
    if crash is not None:  # the client died while the test ran
        raise crash
