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
from collections.abc import Callable, Sequence

import asyncpg

from ..errors import ShardsTaken

log = logging.getLogger(__name__)

# One key space per schema, apart from the IDENTIFY buckets' locks.
_KEY = "hashtext('glossary-bot shards ' || current_schema())"
# A sharded process also holds its SHARD_COUNT here (shared): a guild's shard depends on the
# count, so processes with different counts would serve some guilds twice and others not at all.
_COUNT_KEY = "hashtext('glossary-bot shard count ' || current_schema())"
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

# Other sessions holding a key ($1, an int4) with another value than $2 (an int4): another
# SHARD_COUNT, another schema of the bot's application; with who holds each.
_OTHER_VALUES = """
SELECT l.objid::int8 AS value, a.application_name, a.pid
FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted AND a.pid <> pg_backend_pid()
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND l.classid::int8 = $1::int8 & 4294967295
  AND l.objsubid = 2 AND l.objid::int8 <> $2::int8 & 4294967295
ORDER BY value, a.pid
"""
# The bot's application across every schema of the database (not per schema, as the keys
# above): each process holds (this, its schema) shared, so that one bot run in two schemas is
# refused; Discord lets a shard connect once, and the two would knock each other's sessions
# off. Keyed by a hash of the application id, which is no secret (the token never is used).
_APPLICATION_KEY = "SELECT hashtext('glossary-bot application ' || $1::text)"
_SCHEMA = "SELECT hashtext(current_schema())"


async def take_claims(
    conn: asyncpg.Connection,
    shard_ids: Sequence[int] | None,
    *,
    wait: float,
    shard_count: int | None = None,
    application_id: int | None = None,
) -> None:
    """Claim `shard_ids` (None: the whole bot) of `shard_count` on `conn`'s session, and
    `application_id` (None: unknown, unchecked) for this schema, waiting up to `wait` seconds
    in all for a process that still holds them (one stopping, say). Raises `ShardsTaken`
    naming the holders; ending the session lets go of what it took."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + wait
    claims = [(WHOLE_BOT, shard_ids is not None)] + [(i, False) for i in sorted(shard_ids or ())]
    said = False
    if application_id is not None:
        said = await _one_schema(conn, application_id, give_up)
    for key, shared in claims:
        kind = "_shared" if shared else ""
        if not await conn.fetchval(f"SELECT pg_try_advisory_lock{kind}({_KEY}, $1)", key):
            # The wait is a restart's handover, not a silent one; none (CLAIM_WAIT=0), none said.
            if not said and wait > 0:
                said = True
                what = "shards run" if key == WHOLE_BOT else f"shard {key} is held"
                log.warning(
                    "%s by another process on this database (%s); waiting up to %.0f s for it "
                    "to let go (a restart) before refusing",
                    what,
                    ", ".join(await _holders(conn, key)) or "unnamed",
                    wait,
                )
            await _wait_for(conn, give_up - loop.time())
            try:
                await conn.execute(f"SELECT pg_advisory_lock{kind}({_KEY}, $1)", key)
            except asyncpg.LockNotAvailableError:
                holders = await _holders(conn, key)
                raise ShardsTaken(None if key == WHOLE_BOT else key, holders) from None
        if key == WHOLE_BOT and shared and shard_count is not None:
            said = await _same_count(conn, shard_count, give_up, said=said)
    await conn.execute("SET lock_timeout = 0")


async def _one_schema(conn: asyncpg.Connection, application_id: int, give_up: float) -> bool:
    """Hold this schema for `application_id`, and wait (until `give_up`) for every process of
    it on another schema of the database to stop (a move between schemas): `ShardsTaken`
    naming one that does not."""
    key = await conn.fetchval(_APPLICATION_KEY, str(application_id))
    schema = await conn.fetchval(_SCHEMA)

    def waiting(_: int, holders: str, seconds: float) -> None:
        log.warning(
            "this bot (application %d) runs on this database in another schema (%s); waiting up "
            "to %.0f s for it to stop before refusing",
            application_id,
            holders,
            seconds,
        )

    def refused(_: int, holders: list[str]) -> ShardsTaken:
        return ShardsTaken(None, holders, application=application_id)

    return await _alone_with(conn, key, schema, give_up, said=False, say=waiting, refuse=refused)


async def _same_count(conn: asyncpg.Connection, count: int, give_up: float, *, said: bool) -> bool:
    """Hold `count` among the sharded processes' counts, and wait (until `give_up`) for every
    process with another count to stop: `ShardsTaken` naming one that does not. Returns
    whether a wait was said."""
    key = await conn.fetchval(f"SELECT {_COUNT_KEY}")

    def waiting(theirs: int, holders: str, seconds: float) -> None:
        log.warning(
            "another process on this database runs SHARD_COUNT %d (%s); waiting up to "
            "%.0f s for it to stop (a resharding restart) before refusing",
            theirs,
            holders,
            seconds,
        )

    def refused(theirs: int, holders: list[str]) -> ShardsTaken:
        return ShardsTaken(None, holders, count=theirs)

    return await _alone_with(conn, key, count, give_up, said=said, say=waiting, refuse=refused)


async def _alone_with(
    conn: asyncpg.Connection,
    key: int,
    mine: int,
    give_up: float,
    *,
    said: bool,
    say: Callable[[int, str, float], None],
    refuse: Callable[[int, list[str]], ShardsTaken],
) -> bool:
    """Hold (`key`, `mine`) shared, and wait (until `give_up`, on the loop's clock) until no
    other session holds `key` with another value, saying the wait once (`say`: their value,
    holders, seconds) unless `said`; `refuse`'s error for one that does not let go. Both of two
    processes starting at once take theirs before looking, so at least one of them sees the
    other. Returns whether a wait was said."""
    loop = asyncio.get_running_loop()
    # Within the claim's own wait, not a wait before it left in lock_timeout (or none): a
    # process of another value waiting for this one to go queues this shared lock behind it.
    await _wait_for(conn, give_up - loop.time())
    try:
        await conn.execute("SELECT pg_advisory_lock_shared($1, $2)", key, mine)
    except (asyncpg.LockNotAvailableError, asyncpg.DeadlockDetectedError):
        others = await conn.fetch(_OTHER_VALUES, key, mine)
        if not others:  # the one it waited behind has just gone: said as the database's error
            raise
        raise refuse(*_first_value(others)) from None
    while others := await conn.fetch(_OTHER_VALUES, key, mine):
        theirs, holders = _first_value(others)
        if not said and give_up > loop.time():  # as above: no wait left, none said
            said = True
            say(theirs, ", ".join(holders), give_up - loop.time())
        await _wait_for(conn, give_up - loop.time())
        try:  # taken once every process holding that value has let go; let go again at once
            await conn.execute("SELECT pg_advisory_lock($1, $2)", key, theirs)
        except (asyncpg.LockNotAvailableError, asyncpg.DeadlockDetectedError):
            # Deadlock: the other started at the same moment and waits for ours; the server
            # ends one of the two waits, and that process is refused as after the wait.
            raise refuse(theirs, holders) from None
        await conn.execute("SELECT pg_advisory_unlock($1, $2)", key, theirs)
    return said


def _first_value(others: Sequence[asyncpg.Record]) -> tuple[int, list[str]]:
    """The first other value among `_OTHER_VALUES`' rows (some), and who holds it."""
    theirs = _int4(others[0]["value"])
    return theirs, [
        _holder(row["application_name"], row["pid"])
        for row in others
        if _int4(row["value"]) == theirs
    ]


def _int4(objid: int) -> int:
    """A lock's second int4 key from pg_locks' objid (an unsigned oid)."""
    return objid - (1 << 32) if objid >= 1 << 31 else objid


async def _wait_for(conn: asyncpg.Connection, seconds: float) -> None:
    """The next lock statement waits at most `seconds` (at least a millisecond)."""
    await conn.execute(f"SET lock_timeout = {max(1, int(seconds * 1000))}")


async def _holders(conn: asyncpg.Connection, key: int) -> list[str]:
    """The other sessions that hold `key`, by name (`holder`) and server pid."""
    return [_holder(name, pid) for name, pid in await conn.fetch(_HOLDERS, key)]


def _holder(name: str | None, pid: int) -> str:
    """Another session as the refusals name it: its `holder` name and server pid."""
    return f"{name or '(unnamed)'} [server pid {pid}]"
