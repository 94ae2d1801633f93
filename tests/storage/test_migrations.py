"""Schema versioning: migrations from an empty file, refusal of newer or foreign databases."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.storage import Migrate, NotAGlossaryDatabase, SchemaTooNew, StorageError, Store
from bot.storage.sqlite.migrate import (
    APPLICATION_ID,
    latest_version,
    migrations,
    split_statements,
)

from .conftest import OpenStore, file_state, names_in, query, write_file


async def test_empty_file_gets_the_whole_schema(open_store: OpenStore, db_path: Path) -> None:
    write_file(db_path)  # an empty file, as a fresh volume would hold
    store = await open_store()
    await store.close()

    assert query(db_path, "PRAGMA user_version") == [(latest_version(),)]
    assert query(db_path, "PRAGMA application_id") == [(APPLICATION_ID,)]
    assert query(db_path, "PRAGMA journal_mode") == [("wal",)]
    tables = {row[0] for row in query(db_path, "SELECT name FROM sqlite_schema WHERE type='table'")}
    assert {"lookups", "misses", "miss_hours", "aliases", "audit_log", "counters"} <= tables
    assert query(db_path, "PRAGMA integrity_check") == [("ok",)]


async def test_missing_file_is_created(open_store: OpenStore, tmp_path: Path) -> None:
    path = tmp_path / "new" / "bot.db"
    path.parent.mkdir()
    await open_store(path)
    assert query(path, "PRAGMA user_version") == [(latest_version(),)]


async def test_connections_enforce_foreign_keys_and_wait_when_busy(sqlite_store: Store) -> None:
    conn = sqlite_store._backend.writer._conn  # white-box: the settings are per connection
    assert conn is not None
    async with conn.execute("PRAGMA foreign_keys") as cur:
        assert await cur.fetchone() == (1,)
    async with conn.execute("PRAGMA busy_timeout") as cur:
        assert await cur.fetchone() == (5000,)


async def test_reopening_applies_nothing_twice(open_store: OpenStore, db_path: Path) -> None:
    first = await open_store()
    await first.close()
    await open_store()  # would fail on CREATE TABLE if V1 ran again
    assert query(db_path, "PRAGMA user_version") == [(latest_version(),)]


async def test_two_processes_migrating_at_once(open_store: OpenStore, db_path: Path) -> None:
    await asyncio.gather(open_store(), open_store())
    assert query(db_path, "PRAGMA user_version") == [(latest_version(),)]


def _newer_database(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE from_the_future (x)")
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {latest_version() + 1}")
    conn.commit()
    conn.close()


async def test_newer_schema_is_refused_and_left_untouched(db_path: Path) -> None:
    _newer_database(db_path)
    before = file_state(db_path)

    with pytest.raises(SchemaTooNew) as refused:
        await Store.open(db_path, flush_interval=None)

    message = str(refused.value)
    assert f"schema version {latest_version() + 1}" in message
    assert "Upgrade the bot" in message
    assert "not modified" in message
    assert isinstance(refused.value, StorageError)
    assert file_state(db_path) == before
    assert names_in(db_path.parent) == [db_path.name]


async def test_another_applications_database_is_refused(db_path: Path) -> None:
    conn = sqlite3.connect(db_path)
    conn.execute("CREATE TABLE users (id)")
    conn.commit()
    conn.close()
    before = file_state(db_path)

    with pytest.raises(NotAGlossaryDatabase, match="no Glossary Bot schema"):
        await Store.open(db_path, flush_interval=None)
    assert file_state(db_path) == before


async def test_a_file_that_is_not_sqlite_is_refused(db_path: Path) -> None:
    write_file(db_path, b"this is a text file, not a database" * 50)
    with pytest.raises(NotAGlossaryDatabase, match=r"not a (usable )?SQLite database"):
        await Store.open(db_path, flush_interval=None)


async def test_read_only_tools_do_not_migrate(db_path: Path) -> None:
    write_file(db_path)
    with pytest.raises(StorageError, match="holds no Glossary Bot data"):
        await Store.open(db_path, flush_interval=None, migrate=Migrate.NEVER)
    assert file_state(db_path)[0] == b""


def test_migrations_are_numbered_from_one_and_bundled() -> None:
    found = migrations()
    assert [m.version for m in found] == list(range(1, len(found) + 1))
    assert found[0].name == "initial"


def test_splitting_keeps_trigger_bodies_and_quoted_semicolons() -> None:
    script = """
    -- a comment; with a semicolon
    CREATE TABLE t (a TEXT DEFAULT 'x;y');
    CREATE TRIGGER t_ins AFTER INSERT ON t
    BEGIN
        UPDATE t SET a = 'z;' WHERE 0; SELECT 1;
    END;
    INSERT INTO t VALUES ('1'); -- trailing
    """
    statements = split_statements(script)
    assert len(statements) == 3
    assert statements[1].rstrip().endswith("END;")
    with pytest.raises(ValueError, match="incomplete"):
        split_statements("CREATE TRIGGER t_upd AFTER UPDATE ON t BEGIN SELECT 1;")
