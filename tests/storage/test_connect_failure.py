"""A SQLite file that cannot be opened: the error, and nothing left running behind it.

aiosqlite stops its worker thread, after a failed connect, with a call it does not wait for. A
command that ends on the error (`migrate-db --to` a loop of symbolic links) closed its event loop
first, and the thread's late answer to it printed "Event loop is closed" and two tracebacks
(review48's loop test, under load)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from bot.storage import StorageError, Store
from bot.storage.sqlite.channel import connect


def test_a_connect_that_fails_leaves_no_thread_running(tmp_path: Path) -> None:
    (tmp_path / "loop").symlink_to("loop2")
    (tmp_path / "loop2").symlink_to("loop")
    before = set(threading.enumerate())

    async def opened_and_left() -> list[threading.Thread]:
        with pytest.raises(StorageError):
            await connect(str(tmp_path / "loop"), busy_timeout=0, query_only=False)
        # at once, as the command does: nothing of the connect may still run
        return [
            t
            for t in threading.enumerate()
            if t not in before and t.is_alive() and "_connection_worker_thread" in t.name
        ]

    for _ in range(20):  # the thread's stop raced the return: never, now
        assert asyncio.run(opened_and_left()) == []


def test_a_read_connection_where_the_database_was_removed_makes_no_file(tmp_path: Path) -> None:
    """outsider72: the reader opened its file in create mode, so a read (a stale reader
    reconnecting) where the database was removed made an empty file there. It opens it
    read-only (`mode=ro`) now."""
    path = tmp_path / "glossary.sqlite3"

    async def opened() -> None:
        conn = await connect(str(path), busy_timeout=0, query_only=True)
        await conn.close()

    with pytest.raises(StorageError, match="cannot be opened"):
        asyncio.run(opened())
    assert list(tmp_path.iterdir()) == []


def test_a_store_made_on_a_new_file_leaves_no_log_at_its_close(tmp_path: Path) -> None:
    """polish72's mode=ro reader left -wal and -shm beside a new file: the writer switched it
    to WAL and never read after, so only the reader had opened the log, and a read-only
    connection cannot take the write lock to fold it in at the last close (reader72)."""
    path = tmp_path / "glossary.sqlite3"

    async def made_read_and_closed() -> None:
        store = await Store.open(str(path), flush_interval=None)
        await store.stats(None)  # a read: the reader opens the log
        await store.close()

    asyncio.run(made_read_and_closed())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["glossary.sqlite3"]
