"""The database file taken away underneath the store (folder deleted, file moved or replaced):
nothing is written to a file nobody will see again, health turns red, moderator writes are
refused, counts wait in memory (bounded) and land once a database is back at the path."""

from __future__ import annotations

import asyncio
import logging
import shutil
from pathlib import Path

import pytest

from bot.storage import AddAliasStatus, StorageUnavailable, Store
from bot.storage.store import UNWRITTEN_FLUSHES

from .conftest import OpenStore, query, stored_lookups, write_file


def move(source: Path, dest: Path) -> None:
    source.rename(dest)


def remove(path: Path) -> None:
    path.unlink()


def errors_naming(caplog: pytest.LogCaptureFixture, path: Path) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.ERROR and str(path) in r.getMessage()
    ]


def lines_naming(caplog: pytest.LogCaptureFixture, path: Path) -> list[tuple[str, str]]:
    """(level, message) of every warning or error naming the file, as an operator reads them."""
    return [
        (r.levelname, r.getMessage())
        for r in caplog.records
        if r.levelno >= logging.WARNING and str(path) in r.getMessage()
    ]


RESTORED = (
    "the database file DATABASE_PATH={} was replaced by another database (a restored backup?): "
    "the bot writes to that one from now on; what was only in the file it replaced is not in it"
)


@pytest.fixture
def nested_db(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    return folder / "glossary.sqlite3"


async def test_deleted_folder_refuses_writes_then_resumes_when_it_is_back(
    open_store: OpenStore, nested_db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.storage")
    store = await open_store(nested_db)
    for _ in range(10):
        store.record_lookup(1, "rag")
    assert await store.flush()
    assert (await store.add_alias(1, "x", "x", "rag", 7)).status is AddAliasStatus.ADDED

    shutil.rmtree(nested_db.parent)
    for _ in range(4):
        store.record_lookup(1, "lora")
    store.record_miss(1, "zorblax")
    assert not await store.flush()
    assert not await store.can_write()
    with pytest.raises(StorageUnavailable, match=r"glossary\.sqlite3"):
        await store.add_alias(1, "y", "y", "rag", 7)
    with pytest.raises(StorageUnavailable):
        await store.remove_alias(1, "x", 7)
    assert len(errors_naming(caplog, nested_db)) == 1  # once, not at every flush
    assert not nested_db.parent.exists()  # nothing recreated the folder behind the operator
    assert await store.total_lookups(1) >= 4  # what waits in memory is still shown

    nested_db.parent.mkdir()  # the folder is back, empty: a new database with the schema
    assert await store.can_write()
    assert await store.flush()
    assert stored_lookups(nested_db) == 4
    assert query(nested_db, "SELECT query, count FROM misses") == [("zorblax", 1)]
    assert (await store.add_alias(1, "y", "y", "rag", 7)).status is AddAliasStatus.ADDED
    assert query(nested_db, "SELECT key FROM aliases") == [("y",)]
    assert await store.total_lookups(1) == 4
    assert len(errors_naming(caplog, nested_db)) == 1
    [again] = [r.getMessage() for r in caplog.records if r.getMessage().startswith("writing")]
    assert "a new, empty database" in again, again  # not read as the old file back

    shutil.rmtree(nested_db.parent)  # lost again: a new loss, said again
    assert not await store.can_write()
    assert not await store.can_write()
    assert len(errors_naming(caplog, nested_db)) == 2


async def test_a_file_replaced_by_a_backup_is_written_from_then_on(
    open_store: OpenStore, nested_db: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.storage")
    store = await open_store(nested_db)
    store.record_lookup(1, "rag")
    await store.add_alias(1, "kept", "kept", "rag", 7)
    backup = tmp_path / "backup.db"
    await store.backup(backup)
    store.record_lookup(1, "rag")
    await store.add_alias(1, "after backup", "after backup", "rag", 7)
    assert await store.flush()
    assert stored_lookups(nested_db) == 2

    backup.replace(nested_db)  # restored from backup, underneath the running store
    for _ in range(3):
        store.record_lookup(1, "moe")
    assert await store.flush()
    assert stored_lookups(nested_db) == 1 + 3
    assert query(nested_db, "SELECT key FROM aliases") == [("kept",)]
    assert await store.aliases(1) == {"kept": "rag"}  # no alias cached from the old file
    assert await store.total_lookups(1) == 4
    # One line, a warning: nothing was refused or lost by the bot, but "after backup" is gone.
    assert lines_naming(caplog, nested_db) == [("WARNING", RESTORED.format(nested_db))]


async def test_a_file_moved_away_is_left_alone_and_a_new_one_takes_its_place(
    open_store: OpenStore, nested_db: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.storage")
    store = await open_store(nested_db)
    store.record_lookup(1, "rag")
    assert await store.flush()
    moved = tmp_path / "moved.db"
    move(nested_db, moved)
    store.record_lookup(1, "lora")
    assert await store.flush()
    # The moved file is complete (what its -wal held went into it) and got nothing new.
    assert query(moved, "SELECT entry_id, count FROM lookups") == [("rag", 1)]
    assert query(moved, "PRAGMA integrity_check") == [("ok",)]
    assert query(nested_db, "SELECT entry_id, count FROM lookups") == [("lora", 1)]
    assert lines_naming(caplog, nested_db) == [
        (
            "ERROR",
            f"the database file DATABASE_PATH={nested_db} is gone (deleted or moved away): the "
            "bot made a new, empty database there and writes to it; what the old file held "
            "(aliases, terms, counts) is not in it",
        )
    ]


async def test_counts_kept_in_memory_are_bounded_and_the_log_says_so(
    open_store: OpenStore, nested_db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.storage")
    store = await open_store(nested_db, max_pending_lookups=5, max_pending_misses=2)
    shutil.rmtree(nested_db.parent)
    for i in range(8):
        store.record_lookup(1, f"entry-{i}")
        store.record_lookup(1, f"entry-{i}")
        store.record_miss(1, f"query {i}")
    assert not await store.flush()
    dropping = [r.getMessage() for r in caplog.records if "not counted" in r.getMessage()]
    assert len(dropping) == 2, dropping  # once for lookups, once for misses
    assert any("5 distinct lookups" in m for m in dropping)

    nested_db.parent.mkdir()
    assert await store.flush()
    # The keys kept are counted in full; the ones past the bound were dropped, as logged.
    assert stored_lookups(nested_db) == 10
    assert query(nested_db, "SELECT count(*) FROM misses") == [(2,)]
    store.record_lookup(1, "entry-late")  # room again once written
    assert await store.flush()
    assert stored_lookups(nested_db) == 11


async def test_a_replacement_that_is_not_a_database_keeps_counts_waiting(
    open_store: OpenStore, nested_db: Path
) -> None:
    store: Store = await open_store(nested_db)
    remove(nested_db)
    write_file(nested_db, b"not a database at all, just some bytes" * 100)
    store.record_lookup(1, "rag")
    assert not await store.flush()
    assert not await store.can_write()
    remove(nested_db)
    assert await store.flush()
    assert stored_lookups(nested_db) == 1


async def test_a_restored_backup_is_taken_up_once_when_writes_arrive_together(
    open_store: OpenStore, nested_db: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.storage")
    store = await open_store(nested_db)
    await store.add_alias(1, "kept", "kept", "rag", 7)
    backup = tmp_path / "backup.db"
    await store.backup(backup)
    await store.add_alias(1, "lost", "lost", "rag", 7)

    backup.replace(nested_db)
    store.record_lookup(1, "moe")
    # The flusher, a moderator and the health check all write at the same moment.
    flushed, added, writable = await asyncio.gather(
        store.flush(), store.add_alias(1, "new", "new", "lora", 7), store.can_write()
    )
    assert flushed
    assert writable
    assert added.status is AddAliasStatus.ADDED
    assert query(nested_db, "SELECT key FROM aliases ORDER BY key") == [("kept",), ("new",)]
    assert stored_lookups(nested_db) == 1
    assert lines_naming(caplog, nested_db) == [("WARNING", RESTORED.format(nested_db))]


async def test_health_back_after_an_outage_writes_the_waiting_counts_rather_than_say_them_unwritten(
    open_store: OpenStore, nested_db: Path
) -> None:
    """outsider72 (B5): the database back after flushes failed, `health` said once more
    "lookup counts cannot be written (…); they wait in memory", the second the flush loop wrote
    them: the failure was older than the probe that had just gone through. The health check now
    writes them then and is healthy (failed before polish72: it said them unwritten)."""
    store = await open_store(nested_db)
    shutil.rmtree(nested_db.parent)
    store.record_lookup(1, "rag")
    for _ in range(UNWRITTEN_FLUSHES):
        assert not await store.flush()
    assert (await store.why_not_writable() or "").startswith("the database file is gone")

    nested_db.parent.mkdir()
    assert await store.why_not_writable() is None
    assert stored_lookups(nested_db) == 1  # written by the health check, none left waiting
