"""Which process runs which shards, for every process on one PostgreSQL database.

Each claim is a session-level advisory lock, held by a connection of its own for as long as the
process runs: two processes configured with overlapping SHARD_IDS cannot both hold a shard, and
one that dies, however it dies, lets its shards go when its session ends. Nothing is written,
so there is nothing to clean up or expire; the server notices a vanished host through the TCP
keepalives set on that session.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import asyncpg

from ..errors import ShardsTaken

log = logging.getLogger(__name__)

# One key space per schema, apart from the IDENTIFY buckets' locks.
_KEY = "hashtext('glossary-bot shards ' || current_schema())"
# Every process holds this key too: each shard's process shared, a process running every shard
# (SHARD_COUNT unset) alone; so that one and any other process on the database conflict.
WHOLE_BOT = -1
# A dead host's session ends within about idle + interval x count seconds.
KEEPALIVES = {
    "tcp_keepalives_idle": "10",
    "tcp_keepalives_interval": "5",
    "tcp_keepalives_count": "3",
}

_HOLDERS = f"""
SELECT DISTINCT a.application_name, a.pid
FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted AND a.pid <> pg_backend_pid()
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND l.classid::int8 = ({_KEY})::int8 & 4294967295
  AND l.objid::int8 = $1::int8 & 4294967295 AND l.objsubid = 2
ORDER BY a.pid
"""


async def take_claims(
    conn: asyncpg.Connection, shard_ids: Sequence[int] | None, *, wait: float
) -> None:
    """Claim `shard_ids` (None: the whole bot) on `conn`'s session, waiting up to `wait`
    seconds in all for a process that still holds them (one stopping, say). Raises
    `ShardsTaken` naming the holders; ending the session lets go of what it took."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + wait
    claims = [(WHOLE_BOT, shard_ids is not None)] + [(i, False) for i in sorted(shard_ids or ())]
    said = False
    for key, shared in claims:
        kind = "_shared" if shared else ""
        if not await conn.fetchval(f"SELECT pg_try_advisory_lock{kind}({_KEY}, $1)", key):
            if not said:  # the wait is a restart's handover; not a silent one
                said = True
                what = "shards run" if key == WHOLE_BOT else f"shard {key} is held"
                log.warning(
                    "%s by another process on this database (%s); waiting up to %.0f s for it "
                    "to let go (a restart) before refusing",
                    what,
                    ", ".join(await _holders(conn, key)) or "unnamed",
                    wait,
                )
            left = max(1, int((give_up - loop.time()) * 1000))
            await conn.execute(f"SET lock_timeout = {left}")
            try:
                await conn.execute(f"SELECT pg_advisory_lock{kind}({_KEY}, $1)", key)
            except asyncpg.LockNotAvailableError:
                holders = await _holders(conn, key)
                raise ShardsTaken(None if key == WHOLE_BOT else key, holders) from None
    await conn.execute("SET lock_timeout = 0")


async def _holders(conn: asyncpg.Connection, key: int) -> list[str]:
    """The other sessions that hold `key`, by name (`holder`) and server pid."""
    found = await conn.fetch(_HOLDERS, key)
    return [f"{name or '(unnamed)'} [server pid {pid}]" for name, pid in found]
