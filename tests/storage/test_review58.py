"""review58 (tests/outsider/PLAN.md, "Attacks on review56, review57 and versions51
(review58)"): the server cache's versions after a backup restored under a running bot, each
test failing on main 63d71e5 first."""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.discord_app.alias_cache import ServerCache
from bot.glossary import Glossary
from bot.search import SearchIndex
from bot.storage import StorageError, Store

from .conftest import OpenStore
from .test_server_versions import _as_schema_8

# Either line (review59: a backup from before migration 9 is said as the schema gone back).
WENT_BACK = "went back"


async def restored_before_v9_in_place(
    store: Store, db_path: Path, tmp_path: Path, bundled: tuple[Glossary, SearchIndex]
) -> ServerCache:
    """A running bot's server cache over `store`'s SQLite file, which then gets a backup from
    before migration 9 restored into it in place (`sqlite3 glossary.db ".restore backup.db"`:
    SQLite's own write, the same file, underneath the bot)."""
    await store.add_alias(1, "kept", "kept", "rag", 7)
    backup = tmp_path / "backup.db"
    await store.backup(backup)
    _as_schema_8(backup)
    await store.add_alias(1, "after backup", "after backup", "rag", 7)
    cache = ServerCache(lambda: store, lambda: bundled, read_timeout=5.0)
    await cache.check()
    assert set((await cache.get(1)).source) == {"kept", "after backup"}
    assert await store.schema_behind() is None
    source, target = sqlite3.connect(backup), sqlite3.connect(db_path)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()
    return cache


async def test_versions_gone_back_are_said_once_though_the_servers_versions_fail(
    open_store: OpenStore,
    db_path: Path,
    tmp_path: Path,
    bundled: tuple[Glossary, SearchIndex],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A backup from before migration 9 restored into the file in place under the running bot
    (`sqlite3 glossary.db ".restore backup.db"`: SQLite's own write, the same file) takes the
    counters back and has no `server_versions`. review56's check counted the counters going
    back, then failed to read the servers' versions and took nothing in: every check after
    (one a second) counted it again, one more warning each, for as long as the bot ran. Now
    the going back is taken in when seen (every server is stale by it already): said once."""
    store = await open_store(db_path)
    cache = await restored_before_v9_in_place(store, db_path, tmp_path, bundled)
    assert await store.aliases(1) == {"kept": "rag"}
    caplog.set_level(logging.WARNING, logger="bot.discord_app.alias_cache")
    with pytest.raises(StorageError, match="server_versions"):
        await cache.check()  # the counters read, then the servers' versions fail
    for _ in range(2):  # the next checks
        with contextlib.suppress(StorageError):
            await cache.check()
    said = [r.getMessage() for r in caplog.records if WENT_BACK in r.getMessage()]
    assert len(said) == 1, said


# What `pg_restore --clean` of a dump from before migration 9 leaves of it in a database a bot
# of migration 9 ran on: it drops and makes again only what the dump holds (the tables, with
# their triggers, and the schema's version, 8), not `server_versions` nor its function. A table
# dropped takes its indexes along: migration 10's index too, the dump's table made without it.
PG_DUMP_OF_V8_RESTORED = """
DROP INDEX term_audit_log_by_term;
DROP TRIGGER aliases_changed_servers_inserted ON aliases;
DROP TRIGGER aliases_changed_servers_updated ON aliases;
DROP TRIGGER aliases_changed_servers_deleted ON aliases;
DROP TRIGGER terms_changed_servers_inserted ON terms;
DROP TRIGGER terms_changed_servers_updated ON terms;
DROP TRIGGER terms_changed_servers_deleted ON terms;
UPDATE glossary_bot_schema SET version = 8;
"""


async def test_a_dump_from_before_v9_restored_over_a_v9_database_starts(
    postgres_only: None, open_any: OpenStore, location: str
) -> None:
    """README's rollback after an upgrade ("restore the backup"; `pg_restore --clean
    --if-exists`, the bots stopped) of a dump taken before migration 9, into the database a
    bot of migration 9 ran on (checked with pg_dump and pg_restore 16 by hand: exactly this is
    left): every bot's start then failed, migration 9 meeting its own table ("relation
    "server_versions" already exists"). What it left is versions of a database no longer
    there: migration 9 makes them anew, and they move with the restored servers' changes."""
    store = await open_any()
    await store.add_alias(1, "kept", "kept", "rag", 7)
    await store.add_alias(1, "after dump", "after dump", "rag", 7)
    await store.close()
    conn = await asyncpg.connect(location)
    try:
        await conn.execute(PG_DUMP_OF_V8_RESTORED)
    finally:
        await conn.close()

    store = await open_any()  # a bot's start: migration 9 again
    assert await store.server_versions([1, 2]) == {1: 0, 2: 0}
    await store.add_alias(1, "new", "new", "rag", 7)
    assert await store.server_version(1) > 0
    assert await store.server_version(2) == 0


async def test_a_dump_of_an_older_version_restored_over_a_newer_database_is_named(
    postgres_only: None, open_any: OpenStore, location: str
) -> None:
    """The same with a dump from before migration 5: its tables of migrations 5-9 stay behind,
    holding data (term_drafts), and migration 5 meets them. The start failed on "relation
    "term_drafts" already exists" alone; now its one line says what happened and what to do,
    and nothing is changed."""
    store = await open_any()
    await store.close()
    conn = await asyncpg.connect(location)
    try:
        await conn.execute(PG_DUMP_OF_V8_RESTORED.replace("= 8", "= 4"))
        with pytest.raises(StorageError) as refused:
            await open_any()
        assert await conn.fetchval("SELECT version FROM glossary_bot_schema") == 4
    finally:
        await conn.close()
    said = str(refused.value)
    assert "\n" not in said
    assert "term_drafts" in said
    assert "schema version 4" in said
    assert "restore it into an empty database" in said, said
