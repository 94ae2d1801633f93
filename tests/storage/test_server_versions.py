"""Each server's own version (migration 9, versions51): moved by that server's changes from any
process, and by no other server's; a cache reads again only the servers whose version moved.
Both backends; on PostgreSQL the two stores are two processes' connections (two shard
processes of one bot, or a shard process and `glossary-bot terms import`)."""

from __future__ import annotations

import asyncio
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.discord_app.alias_cache import ServerCache
from bot.discord_app.state import BotState
from bot.glossary import Glossary
from bot.glossary.server_terms import ServerTerm
from bot.search import SearchIndex
from bot.storage import AliasImport, Store
from bot.storage.sqlite.migrate import migrations
from bot.term_storage import TermChange, change_terms
from tests.discord_app.helpers import count_reads, put

from .conftest import OpenStore, query


def term(n: int) -> ServerTerm:
    return ServerTerm(
        id=f"zq-{n}", title=f"Zorbquux {n}", definition=f"Our job {n}.", category="Fundamentals"
    )


async def test_a_servers_version_moves_with_its_own_changes_only(open_any: OpenStore) -> None:
    bot, operator = await open_any(), await open_any()
    assert await bot.server_versions([1, 2, 3]) == {1: 0, 2: 0, 3: 0}  # never changed

    await operator.import_aliases([AliasImport(1, "kvc", "KVC", "kv-cache")])
    one = await bot.server_version(1)
    assert one > 0
    assert await bot.server_version(2) == 0

    await change_terms(operator, 2, put(term(1), term(2)), 9)  # one write, two rows
    two = await bot.server_version(2)
    assert two > 0
    assert await bot.server_version(1) == one

    await operator.remove_alias(1, "kvc", actor_id=0)
    assert await bot.server_version(1) > one
    await change_terms(operator, 2, lambda *_: (TermChange(remove=("zq-1",)), None), 9)
    assert await bot.server_version(2) > two

    # One write across servers moves each of them, none other.
    before = await bot.server_versions([1, 2, 3, 4])
    await operator.import_aliases(
        [AliasImport(3, "rg", "RG", "rag"), AliasImport(4, "rg", "RG", "rag")]
    )
    after = await bot.server_versions([1, 2, 3, 4])
    assert [after[s] > before[s] for s in (1, 2, 3, 4)] == [False, False, True, True]


async def test_a_cache_reads_again_only_the_server_another_process_changed(
    open_any: OpenStore, bundled: tuple[Glossary, SearchIndex], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes on one database: one writes server 1 (and reads it again, as a bot does
    after its own change); the other, with servers 1 and 2 cached, sees the change at its next
    check and reads server 1 again, not server 2."""
    writer_store, reader_store = await open_any(), await open_any()
    await writer_store.import_aliases(
        [
            AliasImport(1, "zorb lax", "zorb lax", "kv-cache"),
            AliasImport(2, "blorp", "blorp", "rag"),
        ]
    )
    writer = ServerCache(lambda: writer_store, lambda: bundled, read_timeout=5.0)
    reader = ServerCache(lambda: reader_store, lambda: bundled, read_timeout=5.0)
    for cache in (writer, reader):
        await cache.check()
        assert set((await cache.get(1)).source) == {"zorb lax"}
        assert set((await cache.get(2)).source) == {"blorp"}
    reads = count_reads(reader_store, monkeypatch)

    async with writer.changes(1):
        assert set((await writer.current(1)).aliases.source) == {"zorb lax"}
        await writer_store.add_alias(1, "qwzx", "qwzx", "rag", actor_id=7)
    await writer.reload(1)
    assert set((await writer.get(1)).source) == {"zorb lax", "qwzx"}

    await reader.check()
    assert set((await reader.get(1)).source) == {"zorb lax", "qwzx"}
    assert set((await reader.get(2)).source) == {"blorp"}
    assert reads == Counter({1: 2})  # server 1's aliases and terms, once; server 2 not at all
    await reader.check()  # nothing new: nothing read
    await reader.get(1)
    assert reads == Counter({1: 2})


async def test_a_change_while_a_server_is_read_is_not_missed(
    open_any: OpenStore, bundled: tuple[Glossary, SearchIndex], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A check that lands while a server is being read (its version and rows read, not yet
    cached) learns that server's version too: what the read keeps is stale, read again at the
    next request, not served as current until some later change."""
    bot, operator = await open_any(), await open_any()
    await operator.import_aliases([AliasImport(1, "zorb lax", "zorb lax", "kv-cache")])
    cache = ServerCache(lambda: bot, lambda: bundled, read_timeout=5.0)
    await cache.check()
    real = bot.terms

    async def change_meanwhile(scope: int) -> Any:
        rows = await real(scope)  # the read has the rows: now another process changes them
        await operator.import_aliases([AliasImport(1, "qwzx", "qwzx", "rag")])
        await cache.check()
        return rows

    monkeypatch.setattr(bot, "terms", change_meanwhile)
    assert set((await cache.get(1)).source) == {"zorb lax"}  # read before the change
    monkeypatch.setattr(bot, "terms", real)
    assert set((await cache.get(1)).source) == {"zorb lax", "qwzx"}


async def test_a_database_of_schema_8_gets_server_versions(
    open_store: OpenStore, db_path: Path
) -> None:
    """Migration 9 on a database that has servers already: they start at version 0, and a
    change moves theirs."""
    conn = sqlite3.connect(db_path)
    for migration in migrations()[:8]:
        conn.executescript(migration.sql)
    conn.execute("PRAGMA user_version = 8")
    conn.execute(
        "INSERT INTO aliases (scope, key, text, entry_id, added_by, added_at)"
        " VALUES (5, 'kvc', 'KVC', 'kv-cache', 1, 0)"
    )
    conn.commit()
    conn.close()
    store = await open_store()
    assert query(db_path, "PRAGMA user_version") == [(len(migrations()),)]
    assert await store.aliases(5) == {"kvc": "kv-cache"}
    assert await store.server_version(5) == 0
    await store.remove_alias(5, "kvc", actor_id=1)
    assert await store.server_version(5) > 0


async def test_kept_servers_are_bounded_by_their_weight_least_recently_asked_first(
    open_store: OpenStore, bundled: tuple[Glossary, SearchIndex]
) -> None:
    """scale50 S2: kept servers were counted (200), not weighed: 200 at their caps held 4.6 GB.
    Now also at most `max_weight` bytes by an estimate of each; the least recently asked goes
    first, and the server just read is kept whatever it weighs (a request waits for it)."""
    store = await open_store()
    for scope in (1, 2, 3, 4, 5):
        made = tuple(
            ServerTerm(
                id=f"s{scope}-{n}",
                title=f"Zorbquux {scope} {n}",
                definition=f"Our job {n}.",
                category="Fundamentals",
            )
            for n in range(3)
        )
        await change_terms(store, scope, put(*made), 9)
    cache = ServerCache(lambda: store, lambda: bundled, read_timeout=5.0)
    await cache.local(1, patient=True)
    one = cache.kept_weight()  # the five servers weigh the same (their texts are as long)
    assert one > 0
    await cache.local(2, patient=True)
    await cache.local(3, patient=True)
    assert cache.kept_weight() == 3 * one

    cache.max_weight = 3 * one  # room for three
    await cache.local(1)  # asked again: server 2 is now the least recently asked
    await cache.local(4, patient=True)
    assert [cache.knows(scope) for scope in (1, 2, 3, 4)] == [True, False, True, True]
    assert cache.kept_weight() == 3 * one

    cache.max_weight = one // 2  # less than any one server
    await cache.local(5, patient=True)
    assert [cache.knows(scope) for scope in (1, 3, 4, 5)] == [False, False, False, True]
    assert cache.indexed_servers() == 1


def test_server_cache_mb_reaches_the_cache(bundled: tuple[Glossary, SearchIndex]) -> None:
    state = BotState(bundled[0], None, server_cache_mb=64)
    assert state.servers.max_weight == 64 * 2**20


async def test_writers_of_one_server_on_postgresql_take_its_rows_in_one_order(
    postgres_only: None, open_any: OpenStore, location: str
) -> None:
    """PostgreSQL: each writer of a kind holds that kind's counter row (`lock_aliases`,
    `lock_terms`, or the statement's own bump) before the server's version row of that kind,
    and the two kinds' rows are apart: a term write that then repoints the server's aliases
    (a rename) beside an alias write of the same server waits its turn, never a deadlock. One
    row per server for both kinds deadlocked here: the alias write waiting for the server's
    row the term write held, the term write for the alias counter the alias write held."""
    store = await open_any()  # the schema, migrated
    await store.import_aliases([AliasImport(1, "kvc", "KVC", "kv-cache")])
    await change_terms(store, 1, put(term(1)), 9)
    before = await store.server_version(1)
    renaming, adding = await asyncpg.connect(location), await asyncpg.connect(location)
    try:
        # A wait that should not happen fails the test at once rather than hang it.
        await adding.execute("SET lock_timeout = '30s'")
        rename = renaming.transaction()
        await rename.start()
        await renaming.execute("UPDATE counters SET value = value WHERE name = 'term_version'")
        await renaming.execute("UPDATE terms SET updated_at = 1 WHERE scope = 1")
        add = adding.transaction()
        await add.start()
        await adding.execute("UPDATE counters SET value = value WHERE name = 'alias_version'")
        await adding.execute(  # not waiting for the rename: its rows are other rows
            "INSERT INTO aliases (scope, key, text, entry_id, added_by, added_at)"
            " VALUES (1, 'rg', 'RG', 'rag', 7, 0)"
        )
        repoint = asyncio.ensure_future(
            renaming.execute("UPDATE aliases SET entry_id = 'rag' WHERE scope = 1")
        )  # waits for the alias counter the add holds
        await add.commit()
        await repoint  # then goes on: no deadlock
        await rename.commit()
    finally:
        await renaming.close()
        await adding.close()
    assert await store.server_version(1) > before
    assert await store.aliases(1) == {"kvc": "rag", "rg": "rag"}


def _as_schema_8(path: Path) -> None:
    """The backup as a bot before migration 9 wrote it: no server versions."""
    conn = sqlite3.connect(path)
    triggers = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%_server'"
    ).fetchall()
    for (name,) in triggers:
        conn.execute(f"DROP TRIGGER {name}")
    conn.execute("DROP TABLE server_versions")
    conn.execute("DROP INDEX term_audit_log_by_term")  # migration 10's
    conn.execute("PRAGMA user_version = 8")
    conn.commit()
    conn.close()


async def _cached_past_the_copy(store: Store, bundled: tuple[Glossary, SearchIndex]) -> ServerCache:
    """Server 1's aliases moved on past a copy holding only "kept": a cache that read them."""
    await store.add_alias(1, "after the copy", "after the copy", "rag", 7)
    await store.add_alias(1, "later still", "later still", "rag", 7)
    cache = ServerCache(lambda: store, lambda: bundled, read_timeout=5.0)
    await cache.check()
    assert set((await cache.get(1)).source) == {"kept", "after the copy", "later still"}
    return cache


async def _read_again_from_the_copy(store: Store, cache: ServerCache) -> None:
    """The store back at the copy: the cache's next check reads server 1 again, and a change
    after that is seen too."""
    assert await store.aliases(1) == {"kept": "rag"}
    await cache.check()
    assert set((await cache.get(1)).source) == {"kept"}
    await store.add_alias(1, "new", "new", "rag", 7)
    await cache.check()
    assert set((await cache.get(1)).source) == {"kept", "new"}


@pytest.mark.parametrize("before_v9", [False, True], ids=["backup", "backup-before-v9"])
async def test_a_backup_put_in_place_under_a_running_bot_is_read_again(
    open_store: OpenStore,
    db_path: Path,
    tmp_path: Path,
    bundled: tuple[Glossary, SearchIndex],
    before_v9: bool,
) -> None:
    """review56: a backup put at DATABASE_PATH under a running bot is taken up at its next
    write (test_lost_file), but its servers' versions are older (or, from before migration 9,
    all 0): a cache that kept what it read from the file replaced, at higher versions, served
    it as current. Before versions51 any move of the counters made every server stale."""
    store = await open_store(db_path)
    await store.add_alias(1, "kept", "kept", "rag", 7)
    backup = tmp_path / "backup.db"
    await store.backup(backup)
    if before_v9:
        _as_schema_8(backup)
    cache = await _cached_past_the_copy(store, bundled)

    backup.replace(db_path)  # restored from backup, underneath the running bot
    store.record_lookup(1, "rag")
    assert await store.flush()  # the bot's next write takes the backup up
    await _read_again_from_the_copy(store, cache)


async def test_servers_with_aliases_alone_are_weighed_and_bounded_too(
    open_store: OpenStore, bundled: tuple[Glossary, SearchIndex]
) -> None:
    """review56: a server with aliases and no terms weighed 0 and was outside both bounds
    (200 servers, SERVER_CACHE_MB), kept until idle (15 minutes): 0.96 MiB at the alias cap
    (1,000 of 100 characters), 0.56 MiB of 1,000 short ones (in-process RSS, 20 servers). Now
    weighed by its aliases and let go least recently asked first within the budget; they do not
    count among the 200 with terms."""
    store = await open_store()
    for scope in (1, 2, 3):
        await store.import_aliases(
            [AliasImport(scope, f"zq{scope} {n}", f"zq{scope} {n}", "rag") for n in range(50)]
        )
    cache = ServerCache(lambda: store, lambda: bundled, read_timeout=5.0)
    await cache.local(1, patient=True)
    one = cache.kept_weight()  # the three servers' aliases are as long
    assert one > 0
    assert cache.indexed_servers() == 0  # none has an index of its own
    await cache.local(2, patient=True)
    assert cache.kept_weight() == 2 * one

    cache.max_weight = 2 * one  # room for two
    await cache.local(3, patient=True)
    assert [cache.knows(scope) for scope in (1, 2, 3)] == [False, True, True]
    assert cache.kept_weight() == 2 * one


async def test_a_dump_restored_under_running_bots_is_read_again(
    postgres_only: None,
    open_any: OpenStore,
    location: str,
    bundled: tuple[Glossary, SearchIndex],
) -> None:
    """review56: PostgreSQL, a dump restored while bots run on the database (README says stop
    them first; pg_restore does not refuse): the tables are loaded again without their triggers,
    so the counters and every server's version go back. A cache kept what it had read, at
    higher versions, as current (before versions51 any move of the counters made every server
    stale). Counters that went back make every cached server stale now."""
    store = await open_any()
    await store.add_alias(1, "kept", "kept", "rag", 7)
    conn = await asyncpg.connect(location)
    try:
        tables = ("aliases", "counters", "server_versions")
        dump = {name: await conn.fetch(f"SELECT * FROM {name}") for name in tables}
        cache = await _cached_past_the_copy(store, bundled)

        # pg_restore --clean: the tables made again, the dump's rows loaded before the triggers.
        async with conn.transaction():
            await conn.execute("ALTER TABLE aliases DISABLE TRIGGER USER")
            for name, rows in dump.items():
                await conn.execute(f"DELETE FROM {name}")
                await conn.copy_records_to_table(
                    name, records=[tuple(row) for row in rows], columns=list(rows[0].keys())
                )
            await conn.execute("ALTER TABLE aliases ENABLE TRIGGER USER")
    finally:
        await conn.close()
    await _read_again_from_the_copy(store, cache)


async def test_writers_of_two_servers_in_opposite_orders_wait_never_deadlock(
    postgres_only: None, open_any: OpenStore, location: str
) -> None:
    """review56: two shard processes (or an import beside one) each writing aliases of servers
    1 and 2 in one transaction, in opposite orders: each statement's trigger takes the alias
    counter row before the server's version row, so the second writer waits at its first
    statement for the first to commit, never holding a server's row the first needs."""
    store = await open_any()  # the schema, migrated
    one, two = await asyncpg.connect(location), await asyncpg.connect(location)
    insert = (
        "INSERT INTO aliases (scope, key, text, entry_id, added_by, added_at)"
        " VALUES ($1, $2, $2, 'rag', 7, 0)"
    )
    try:
        for conn in (one, two):  # a wait that should not happen fails the test, not hangs it
            await conn.execute("SET lock_timeout = '30s'")
        first, second = one.transaction(), two.transaction()
        await first.start()
        await one.execute(insert, 1, "a1")
        await second.start()
        waiting = asyncio.ensure_future(two.execute(insert, 2, "b2"))  # waits for the counter
        await one.execute(insert, 2, "a2")  # not waiting for the second: it holds nothing yet
        await first.commit()
        await waiting
        await two.execute(insert, 1, "b1")
        await second.commit()
    finally:
        await one.close()
        await two.close()
    assert await store.aliases(1) == {"a1": "rag", "b1": "rag"}
    assert await store.aliases(2) == {"a2": "rag", "b2": "rag"}
