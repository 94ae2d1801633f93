"""An auto-sharded discord.py bot over some of the shards, for the fake's sharding tests.

Processes that share a bot share its IDENTIFY rate limit; ``IdentifyQueue`` stands for the
coordination they need (issue 14 does it through PostgreSQL): one IDENTIFY per bucket
(``shard_id % max_concurrency``) per window, whichever client sends it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

import discord
from discord.ext import commands


class IdentifyQueue:
    """One IDENTIFY per bucket per ``window`` seconds, across every client that shares it."""

    def __init__(self, *, window: float, max_concurrency: int = 1, margin: float = 0.05) -> None:
        self.window = window + margin  # the fake times arrival, a little after the hook returns
        self.max_concurrency = max_concurrency
        self._locks: dict[int, asyncio.Lock] = {}
        self._last: dict[int, float] = {}

    async def wait_turn(self, shard_id: int) -> None:
        bucket = shard_id % self.max_concurrency
        async with self._locks.setdefault(bucket, asyncio.Lock()):
            last = self._last.get(bucket)
            if last is not None:
                # The rate limit itself is the wait here (not synchronisation with the fake).
                await asyncio.sleep(max(0.0, last + self.window - time.monotonic()))
            self._last[bucket] = time.monotonic()


class ShardBot(commands.AutoShardedBot):
    def __init__(
        self,
        *,
        shard_ids: Sequence[int] | None,
        shard_count: int | None,
        queue: IdentifyQueue | None,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
            shard_ids=list(shard_ids) if shard_ids is not None else None,
            shard_count=shard_count,
            guild_ready_timeout=0.05,
        )
        self.queue = queue
        self.identified: list[int] = []  # shard ids, in the order this client identified them

        @self.tree.command(description="Which shard answers")
        async def where(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(
                f"shard {interaction.guild.shard_id if interaction.guild else 0}", ephemeral=True
            )

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py's default sleeps 5 s before every IDENTIFY but the first; the queue waits
        only as long as the (shared) rate limit needs. Without a queue: no wait at all."""
        shard = shard_id or 0
        if self.queue is not None:
            await self.queue.wait_turn(shard)
        self.identified.append(shard)
