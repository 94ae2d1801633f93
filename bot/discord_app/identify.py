"""IDENTIFY across processes: Discord allows one IDENTIFY per rate-limit bucket
(`shard_id % max_concurrency`, from `/gateway/bot`) every 5 s for the whole bot, whichever
process sends it. Processes sharing a PostgreSQL database take turns through it
(`Store.identify_slot`); a lone process running several shards takes turns in memory (its
shards in different buckets IDENTIFY at once, as Discord allows: discord.py's own pacing waits
5 s between any two, reading no `max_concurrency`); an unsharded one keeps discord.py's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.storage import Store

log = logging.getLogger(__name__)

# Added to the window: Discord times the IDENTIFY's arrival, a little after the slot is taken.
MARGIN = 0.1


class IdentifyGate:
    """Wait for a shard's turn to IDENTIFY, then keep its bucket for `window` seconds (while
    the IDENTIFY goes out and Discord counts it), in every process of the bot."""

    def __init__(self, store: Store | None, *, window: float, max_concurrency: int) -> None:
        """`store`: the shared database processes take turns through (None: this process
        alone, its buckets held in memory)."""
        self.store = store
        self.window = window + MARGIN
        self.max_concurrency = max(1, max_concurrency)
        self._held: set[asyncio.Task[None]] = set()
        self._buckets: dict[int, asyncio.Lock] = {}

    async def wait_turn(self, shard_id: int) -> None:
        """Return once this shard may IDENTIFY; raises `StorageError` if the database cannot
        be asked. The bucket stays held after returning, for the rest of the window."""
        bucket = shard_id % self.max_concurrency
        taken = asyncio.Event()
        holding = asyncio.create_task(self._hold(bucket, taken))
        self._held.add(holding)
        holding.add_done_callback(self._held.discard)
        waiting = asyncio.create_task(taken.wait())
        try:
            await asyncio.wait({holding, waiting}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            # The shard's connection given up (discord.py's timeout around it): no IDENTIFY
            # follows, so no window to keep, nor to take later while others wait behind it.
            holding.cancel()
            raise
        finally:
            waiting.cancel()
        if not taken.is_set():
            holding.result()  # the database's error
        log.info("shard %d may identify (bucket %d of %d)", shard_id, bucket, self.max_concurrency)

    def _slot(self, bucket: int) -> contextlib.AbstractAsyncContextManager[object]:
        if self.store is not None:
            return self.store.identify_slot(bucket)
        return self._buckets.setdefault(bucket, asyncio.Lock())

    async def _hold(self, bucket: int, taken: asyncio.Event) -> None:
        async with self._slot(bucket):
            taken.set()
            await asyncio.sleep(self.window)  # the rate limit itself, not synchronisation

    def close(self) -> None:
        for task in self._held:
            task.cancel()
