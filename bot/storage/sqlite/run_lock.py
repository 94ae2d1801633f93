"""One bot per SQLite file. Two `glossary-bot run` on one file would both take every
interaction (each counting it, both answering), so a bot holds an exclusive lock on a file
beside the database while it runs. The kernel lets go of it when the process ends, even by
`kill -9`, so a crash never blocks a restart. The lock is on a file of its own, not the
database: SQLite's own locks on the database are not touched."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
from collections.abc import AsyncIterator

from ..errors import ShardsTaken

log = logging.getLogger(__name__)

RETRY_SECONDS = 0.25  # how often a starting bot looks again while waiting for one stopping


def lock_path(database: str) -> str:
    # Beside the file itself: a symlink to the database (or another spelling of its path) must
    # find the same lock, or a second bot starts on the same file through it.
    return f"{os.path.realpath(database)}-bot.lock"


@contextlib.asynccontextmanager
async def one_bot_per_file(database: str, *, holder: str, wait: float) -> AsyncIterator[None]:
    """While the block runs, no other bot runs on `database`: `ShardsTaken` naming the bot that
    does, after waiting up to `wait` seconds for it to stop (a restart). Where the lock file
    cannot be made (a read-only folder) the bot runs unchecked, and says so."""
    path = lock_path(database)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except FileNotFoundError:
        # No folder, so no database and no bot on it: opening it says so, in one line.
        yield
        return
    except OSError as exc:
        log.warning("cannot check that no other bot runs on %s (%s: %s)", database, path, exc)
        yield
        return
    try:
        loop = asyncio.get_running_loop()
        give_up = loop.time() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if loop.time() >= give_up:
                    other = os.pread(fd, 500, 0).decode("utf-8", "replace").strip()
                    raise ShardsTaken(None, [other] if other else []) from None
                await asyncio.sleep(RETRY_SECONDS)  # polling a lock: the kernel gives no event
        os.ftruncate(fd, 0)
        os.pwrite(fd, holder.encode(), 0)  # who holds it, for the bot refused
        yield
    finally:
        os.close(fd)  # lets go of the lock
