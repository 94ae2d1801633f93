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


def size_of(path: Path) -> int:
    return path.stat().st_size


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
    # swap49: health's words, the reason the ERROR gives (health names the file itself).
    why = await store.why_not_writable()
    assert why is not None
    how = why.removeprefix("the database file changed under the running bot (")
    how = how.removesuffix("): nothing is written until the bot is restarted")
    assert how not in (why, ""), why
    assert f"changed under the running bot: {how}. Nothing" in said, (why, said)
    assert str(db) not in why, why
    if readable:  # the refused count waits in memory, shown
        assert await store.total_lookups(1) == 4
    return said


@pytest.mark.parametrize("suffix", ["-shm"])  # a -wal alone is taken up (swap49, below)
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
    why = await store.why_not_writable()  # swap49: health's words
    assert why is not None
    assert why.startswith("the tables of the database are gone (its schema dropped"), why
    assert "Restart the bot" in why, why
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


def set_back_an_hour(db: Path) -> None:
    an_hour_ago = db.stat().st_mtime - 3600
    os.utime(db, (an_hour_ago, an_hour_ago))


async def a_file_last_written_an_hour_ago(open_store: OpenStore, db: Path) -> Store:
    """A store on a file whose bytes were last written an hour ago (a bot started again on its
    file): the writes since are in its -wal, so a copy over the file changes its time."""
    await (await open_store(db)).close()  # made, migrated, and its log folded in
    set_back_an_hour(db)
    store = await open_store(db)
    await written_before(store)
    return store


async def test_a_backup_copied_over_the_file_with_its_log_left_refuses_writes(
    open_store: OpenStore, db_path: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """swap48 left it: `cp backup.db glossary.db` under the running bot, its -wal left beside it.
    The same file, the same logs, a database's header: unnoticed, and the bot's log was later
    checkpointed over the copy (the restore undone or mixed). Now the file's time and bytes
    changed with no checkpoint in the wal-index (SQLite writes the file only in checkpoints):
    refused as the other swaps are."""
    caplog.set_level(logging.INFO, logger="bot.storage")
    store = await a_file_last_written_an_hour_ago(open_store, db_path)
    backup = tmp_path / "backup.db"
    await store.backup(backup)
    shutil.copyfile(backup, db_path)  # in place: the same file, its bytes written over
    assert exists(f"{db_path}-wal")
    said = await assert_refused(store, caplog, db_path)
    assert "written over in place" in said, said


async def test_a_file_touched_or_checkpointed_by_another_process_is_no_swap(
    open_store: OpenStore, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """What the copy's watch must not take for one: the file's time changed alone (`touch`, a
    tool setting it), and another process's checkpoint writing the file (its time, bytes and
    size change, the wal-index says so)."""
    caplog.set_level(logging.INFO, logger="bot.storage")
    store = await a_file_last_written_an_hour_ago(open_store, db_path)
    os.utime(db_path)  # touch
    store.record_lookup(1, "moe")
    assert await store.flush()
    for i in range(3):
        store.record_lookup(1, f"entry-{i}")
        assert await store.flush()
        query(db_path, "PRAGMA wal_checkpoint(PASSIVE)")
        os.utime(db_path)
    assert await store.can_write()
    assert (await store.add_alias(1, "later", "later", "rag", 7)).status is AddAliasStatus.ADDED
    assert stored_lookups(db_path) == 3 + 1 + 3
    assert errors_naming(caplog, db_path) == []
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


HOLD_CHECKPOINTER = """
import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.fcntl(fd, fcntl.F_SETLK, struct.pack("@hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, 121, 1, 0))
print("held", flush=True)
sys.stdin.read()
"""


def hold_checkpointer(shm: Path) -> subprocess.Popen[str]:
    """Another process holding SQLite's checkpointer lock on `shm`, as a checkpoint does, until
    its stdin is closed (it says "held" once it holds it)."""
    return subprocess.Popen(
        [sys.executable, "-c", HOLD_CHECKPOINTER, str(shm)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


async def test_a_file_changed_while_another_process_checkpoints_is_judged_once_it_is_done(
    open_store: OpenStore, db_path: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A checkpoint writes the file before it sets the wal-index's fields: while one holds the
    checkpointer's lock (SQLite's, on the -shm) a changed file is not judged, and the writes go
    on; once it lets go, the copy over the file is seen."""
    caplog.set_level(logging.INFO, logger="bot.storage")
    store = await a_file_last_written_an_hour_ago(open_store, db_path)
    backup = tmp_path / "backup.db"
    await store.backup(backup)
    holder = hold_checkpointer(Path(f"{db_path}-shm"))
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline() == "held\n"
        shutil.copyfile(backup, db_path)
        store.record_lookup(1, "moe")
        assert await store.flush()  # not judged while a checkpoint may be under way
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=60)
    said = await assert_refused(store, caplog, db_path, readable=False)
    assert "written over in place" in said, said
    assert await store.total_lookups(1) == 3 + 1 + 1  # the one written meanwhile, one waiting


async def test_a_wal_deleted_alone_is_taken_up_and_loses_nothing(
    open_store: OpenStore, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """swap48 stopped the writes until a restart for a -wal deleted under the store, whatever
    else had happened. Deleted alone (the file as last vouched for, byte for byte), what the
    deleted log holds is folded into the file and new connections make a new -wal: one
    WARNING, the writes go on, another process reads them, nothing is lost."""
    caplog.set_level(logging.INFO, logger="bot.storage")
    store = await open_store(db_path)
    await written_before(store)
    remove(f"{db_path}-wal")
    store.record_lookup(1, "moe")
    assert await store.flush()
    assert await store.can_write()
    assert (await store.add_alias(1, "later", "later", "rag", 7)).status is AddAliasStatus.ADDED
    assert exists(f"{db_path}-wal")  # the new one
    read_in_another_process(db_path)  # "disk I/O error" while the deleted log was in use
    assert stored_lookups(db_path) == 3 + 1
    assert query(db_path, "SELECT key FROM aliases ORDER BY key") == [("kept",), ("later",)]
    [said] = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert f"DATABASE_PATH={db_path}" in said, said
    assert "nothing was lost" in said, said
    for i in range(3):  # and on, through the new log
        store.record_lookup(1, f"entry-{i}")
        assert await store.flush()
    await store.close()
    assert stored_lookups(db_path) == 3 + 1 + 3
    assert query(db_path, "PRAGMA integrity_check") == [("ok",)]
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


CHECKPOINT_UNDER_LIMIT = """
import resource, sqlite3, sys
limit = int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))  # Python ignores SIGXFSZ: EFBIG
conn = sqlite3.connect(sys.argv[1])
try:
    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
except sqlite3.Error as exc:
    print(exc)
finally:
    conn.close()
"""


def checkpoint_failing_past(db: Path, limit: int) -> str:
    """Another process's checkpoint that cannot grow the file past `limit` bytes (a disk that
    fills up): SQLite copies the log's pages up to there, then fails; what it says."""
    done = subprocess.run(
        [sys.executable, "-c", CHECKPOINT_UNDER_LIMIT, str(db), str(limit)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return done.stdout.strip()


async def test_a_checkpoint_failing_part_way_twice_is_no_swap(
    open_store: OpenStore, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """swap49's argued false alarm, met: a checkpoint that fails part-way (a full disk, a file
    size limit) marks its attempt in the wal-index (nBackfillAttempted) before it writes and
    not its end (nBackfill); a second one at the same frames (no write between: a moderator's
    change that changes nothing, the health check's write) writes more pages with the fields
    the same. That is SQLite's own work, not a copy over the file: the writes go on."""
    caplog.set_level(logging.INFO, logger="bot.storage")
    store = await a_file_last_written_an_hour_ago(open_store, db_path)
    for i in range(3000):  # pages past the file's end, in the log
        store.record_lookup(1, f"a-longer-entry-name-{i}")
    assert await store.flush()
    size, page = size_of(db_path), int(query(db_path, "PRAGMA page_size")[0][0])
    assert checkpoint_failing_past(db_path, size + page) != ""  # it failed part-way
    assert await store.can_write()  # a write that adds no page: the file as it is vouched for
    assert checkpoint_failing_past(db_path, size + 3 * page) != ""  # further, the same frames
    store.record_lookup(1, "moe")
    assert await store.flush()
    assert await store.can_write()
    assert (await store.add_alias(1, "later", "later", "rag", 7)).status is AddAliasStatus.ADDED
    assert errors_naming(caplog, db_path) == []
    await store.close()
    assert stored_lookups(db_path) == 3 + 3000 + 1
    assert query(db_path, "PRAGMA integrity_check") == [("ok",)]
