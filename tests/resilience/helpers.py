"""Helpers of the resilience tests: moderator actions, what is on disk, another process's lock."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.storage import Store
from tests.discord_app.conftest import Scene
from tests.discord_app.helpers import is_ephemeral
from tests.fake_discord import FakeChannel, FakeDiscord, FakeUser, InteractionHandle
from tests.storage.conftest import query
from tests.storage.conftest import stored_lookups as stored_lookups  # re-exported

JSON = dict[str, Any]
DEFERRED = 5

# Not a measurement: how long a test waits for what must come, before failing.
HANG_GUARD = 30.0


def unhurried(fake: FakeDiscord) -> None:
    """Discord's 3 s (and the fake's 10 s wait) become guards against a hang, for a test of what
    the bot answers, not how fast: a machine at load 10 stretched a reply past 3.6 s. Every
    other check of the fake (doubled, invalid or pinging replies) still holds."""
    fake.ack_deadline = HANG_GUARD
    fake.wait_timeout = HANG_GUARD


async def moderator_says(
    scene: Scene,
    command: str,
    options: JSON,
    *,
    user: FakeUser | None = None,
    channel: FakeChannel | None = None,
) -> tuple[InteractionHandle, JSON]:
    """Run a moderator command and return its handle and the (ephemeral) answer."""
    handle = await scene.fake.slash(
        user or scene.moderator, command, options, channel=channel or scene.channel
    )
    message = await handle.final_message()
    assert is_ephemeral(message), message
    return handle, message


async def add_alias(
    fake: FakeDiscord, user: FakeUser, alias: str, term: str, channel: FakeChannel
) -> str:
    """/alias add as a moderator types it; the answer's text."""
    handle = await fake.slash(user, "alias add", {"alias": alias, "term": term}, channel=channel)
    return str((await handle.final_message())["content"])


def stored_aliases(path: Path) -> list[tuple[int, str, str]]:
    return [
        (int(s), str(k), str(e))
        for s, k, e in query(path, "SELECT scope, key, entry_id FROM aliases ORDER BY scope, key")
    ]


def integrity(path: Path) -> str:
    return str(query(path, "PRAGMA integrity_check")[0][0])


_HOLD_LOCK = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.readline()
conn.execute("ROLLBACK")
conn.close()
"""


@contextlib.asynccontextmanager
async def locked_by_another_process(path: Path) -> AsyncIterator[None]:
    """Another process holds the database's write lock (mid-transaction) until the block ends."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        _HOLD_LOCK,
        str(path),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert process.stdin is not None
    assert process.stdout is not None
    try:
        async with asyncio.timeout(15):
            assert (await process.stdout.readline()).strip() == b"locked"
        yield
    finally:
        process.stdin.write(b"release\n")
        await process.stdin.drain()
        async with asyncio.timeout(15):
            await process.wait()


Run = Callable[..., Awaitable[Any]]


@contextlib.contextmanager
def hung_database(store: Store) -> Any:
    """Every transaction of ``store`` waits until the returned event is set: a database that
    takes as long as the test likes (seconds, or forever) to answer."""
    gate = asyncio.Event()
    # White-box: the two connections' transactions.
    channels = [store._backend.reader, store._backend.writer]
    originals: list[Run] = [c._run for c in channels]

    def slowed(original: Run) -> Run:
        async def run(*args: Any, **kwargs: Any) -> Any:
            await gate.wait()
            return await original(*args, **kwargs)

        return run

    for channel, original in zip(channels, originals, strict=True):
        channel._run = slowed(original)  # type: ignore[method-assign]
    try:
        yield gate
    finally:
        gate.set()
        for channel, original in zip(channels, originals, strict=True):
            channel._run = original  # type: ignore[method-assign]


@contextlib.asynccontextmanager
async def warned(
    said: str, within: float = 10.0, level: int = logging.WARNING
) -> AsyncIterator[list[logging.LogRecord]]:
    """Collect log records of `level` or worse (WARNING) while the body runs, then wait
    (bounded) for one whose message contains `said` (the bot logs on this loop, after the fake
    has answered)."""
    records: list[logging.LogRecord] = []
    seen = asyncio.Event()
    loop = asyncio.get_running_loop()

    class Watch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)
            if said in record.getMessage():
                loop.call_soon_threadsafe(seen.set)

    watch = Watch(level)
    root = logging.getLogger()
    was = root.level
    root.setLevel(min(level, root.getEffectiveLevel()))  # an INFO line is made, to be seen
    root.addHandler(watch)
    try:
        yield records
        async with asyncio.timeout(within):
            await seen.wait()
    finally:
        root.removeHandler(watch)
        root.setLevel(was)
