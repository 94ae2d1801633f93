"""The database's files changed in place under the running store (swap48): its `-wal` or `-shm`
deleted, the file truncated or written over by another program. The path still names the same
file, so the watch on the file's identity (test_lost_file) saw nothing: the store wrote on into
a deleted log, health stayed green. Now writes are refused with one ERROR naming the file and
what to do, and what was written before stays (the stop writes the log into the file)."""

from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

from bot.storage import AddAliasStatus, StorageUnavailable, Store
from bot.storage.sqlite.backend import SqliteBackend

from .conftest import Databases, OpenStore, query, stored_lookups


def remove(path: Path | str) -> None:
    Path(path).unlink()


def exists(path: Path | str) -> bool:
    return Path(path).exists()


def move(source: Path, dest: Path) -> None:
    source.rename(dest)


def read_in_another_process(db: Path) -> None:
    """A connection of another process (a command line's), opened, read from and closed."""
    read = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('SELECT 1 FROM lookups').fetchall(); c.close()"
    subprocess.run([sys.executable, "-c", read, str(db)], check=True, timeout=60)


def errors_naming(caplog: pytest.LogCaptureFixture, path: Path) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.ERROR and str(path) in r.getMessage()
    ]


async def written_before(store: Store) -> None:
    for _ in range(3):
        store.record_lookup(1, "rag")
    assert await store.flush()
    assert (await store.add_alias(1, "kept", "kept", "rag", 7)).status is AddAliasStatus.ADDED


async def assert_refused(
    store: Store, caplog: pytest.LogCaptureFixture, db: Path, *, readable: bool = True
) -> str:
    store.record_lookup(1, "moe")
    assert not await store.flush()
    assert not await store.can_write()
    with pytest.raises(StorageUnavailable, match=re.escape(db.name)):
        await store.add_alias(1, "refused", "refused", "rag", 7)
    assert not await store.flush()  # still refused, said once
    assert not await store.can_write()
    [said] = errors_naming(caplog, db)
    assert f"DATABASE_PATH={db}" in said
    assert "restart the bot" in said, said  # what to do
    if readable:  # the refused count waits in memory, shown
        assert await store.total_lookups(1) == 4
    return said


@pytest.mark.parametrize("suffix", ["-wal", "-shm"])
async def test_a_log_deleted_under_the_store_refuses_writes_and_loses_nothing(
    open_store: OpenStore, db_path: Path, caplog: pytest.LogCaptureFixture, suffix: str
) -> None:
    caplog.set_level(logging.INFO, logger="bot.storage")
    store = await open_store(db_path)
    await written_before(store)
    remove(f"{db_path}{suffix}")
    said = await assert_refused(store, caplog, db_path)
    assert f"its {suffix} was deleted or replaced" in said, said
    assert await store.aliases(1) == {"kept": "rag"}  # reads still answer
    await store.close()
    # The stop writes what the deleted log held into the file; the count kept in memory is
    # said lost, not claimed.
    assert query(db_path, "SELECT key FROM aliases") == [("kept",)]
    assert stored_lookups(db_path) == 3
    closing = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert closing[-1].startswith("closing with 1 lookup and "), closing
    assert query(db_path, "PRAGMA integrity_check") == [("ok",)]


async def test_a_log_replaced_under_the_store_refuses_writes(
    open_store: OpenStore, db_path: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.storage")
    store = await open_store(db_path)
    await written_before(store)
    wal = Path(f"{db_path}-wal")
    shutil.copyfile(wal, tmp_path / "copy")
    (tmp_path / "copy").replace(wal)  # a sync tool puts its own copy of the log there
    said = await assert_refused(store, caplog, db_path)
    assert "its -wal was deleted or replaced" in said, said


async def test_a_file_truncated_under_the_store_refuses_writes(
    open_store: OpenStore, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.storage")
    store = await open_store(db_path)
    await written_before(store)
    os.truncate(db_path, 0)
    said = await assert_refused(store, caplog, db_path, readable=False)  # what it held is gone
    assert "written over in place" in said, said


async def test_a_backup_copied_over_the_file_with_its_log_deleted_refuses_writes(
    open_store: OpenStore, db_path: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """ops47's case: `cp backup.db glossary.db; rm glossary.db-wal` under the running bot."""
    caplog.set_level(logging.INFO, logger="bot.storage")
    store = await open_store(db_path)
    await written_before(store)
    backup = tmp_path / "backup.db"
    await store.backup(backup)
    shutil.copyfile(backup, db_path)  # in place: the same file, its bytes written over
    remove(f"{db_path}-wal")
    await assert_refused(store, caplog, db_path)


async def test_a_log_deleted_then_a_file_renamed_in_is_taken_up(
    open_store: OpenStore, db_path: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The way out the README gives while running: a database renamed into place is written
    from then on, and the broken one, moved away, keeps what it held."""
    caplog.set_level(logging.INFO, logger="bot.storage")
    store = await open_store(db_path)
    await written_before(store)
    backup = tmp_path / "backup.db"
    await store.backup(backup)
    remove(f"{db_path}-shm")
    await assert_refused(store, caplog, db_path)
    moved = tmp_path / "moved.db"
    move(db_path, moved)
    move(backup, db_path)
    assert await store.can_write()
    assert await store.flush()
    assert stored_lookups(db_path) == 3 + 1
    assert (await store.add_alias(1, "new", "new", "rag", 7)).status is AddAliasStatus.ADDED
    assert query(moved, "SELECT key FROM aliases") == [("kept",)]
    assert stored_lookups(moved) == 3


async def test_nothing_is_said_of_files_left_alone(
    open_store: OpenStore, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A checkpoint (SQLite's own write into the file) and another process's connection opened
    and closed beside the store are not read as a swap. The watch's own look at the file keeps
    SQLite's locks: with them dropped (a descriptor of the file closed), the other process took
    the file as unused and deleted its -wal and -shm at its close."""
    caplog.set_level(logging.INFO, logger="bot.storage")
    store = await open_store(db_path)
    await written_before(store)
    for i in range(12):
        store.record_lookup(1, f"entry-{i}")
        assert await store.flush()
        if i % 4 == 0:
            query(db_path, "PRAGMA wal_checkpoint(TRUNCATE)")
        if i % 4 == 1:
            read_in_another_process(db_path)
            assert exists(f"{db_path}-wal")
    assert await store.can_write()
    assert stored_lookups(db_path) == 3 + 12
    assert errors_naming(caplog, db_path) == []
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


async def test_postgres_tables_dropped_under_the_store_say_what_to_do(
    open_any: OpenStore,
    location: str,
    databases: Databases,
    postgres_only: None,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """PostgreSQL's equivalent: the schema dropped under the running bot. Writes were refused and
    health turned red, but the one line said only 'relation "lookups" does not exist'."""
    caplog.set_level(logging.INFO, logger="bot.storage")
    store = await open_any()
    await written_before(store)
    schema = dict(parse_qsl(urlsplit(location).query))["search_path"]
    await databases.execute_admin(f"DROP SCHEMA {schema} CASCADE")
    store.record_lookup(1, "moe")
    assert not await store.flush()
    assert not await store.can_write()
    with pytest.raises(StorageUnavailable, match="Restart the bot"):
        await store.add_alias(1, "refused", "refused", "rag", 7)
    [said] = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert "are gone (its schema dropped" in said, said
    assert "pg_restore" in said, said


async def test_the_stores_own_reconnection_is_not_read_as_a_swap(
    open_store: OpenStore, db_path: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """review49: a connection that met an I/O error (or a read-only or vanished file) is closed
    and opened afresh. Closed first, it could be the last connection the store had open to the
    file: SQLite's close then deletes the -wal and -shm, the new connection makes new ones, and
    the guard took that as a swap (writes refused until a restart, the waiting counts lost at the
    stop). The reader has no connection after a file renamed in is taken up (`_reattach`), until
    its next read; the writer reconnecting then was that last connection."""
    caplog.set_level(logging.INFO, logger="bot.storage")
    store = await open_store(db_path)
    await written_before(store)
    renamed_in = tmp_path / "renamed-in.db"
    await store.backup(renamed_in)
    renamed_in.replace(db_path)  # a database put in place on purpose: taken up
    store.record_lookup(1, "moe")
    assert await store.flush()
    backend = store._backend
    assert isinstance(backend, SqliteBackend)
    backend.writer._stale = True  # as after an SQLITE_IOERR (`REOPEN_AFTER`)
    store.record_lookup(1, "moe")
    assert await store.flush()
    assert await store.can_write()
    assert (await store.add_alias(1, "later", "later", "rag", 7)).status is AddAliasStatus.ADDED
    assert errors_naming(caplog, db_path) == []
    assert stored_lookups(db_path) == 3 + 2
