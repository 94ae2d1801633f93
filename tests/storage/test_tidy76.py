"""tidy76: the last closing note's loose ends on the storage side (tests/outsider/PLAN.md,
"## tidy76")."""

from __future__ import annotations

import sqlite3

import asyncpg

from bot.storage.migrations import migrations
from bot.storage.postgres.migrate import VERSION_TABLE
from bot.storage.queries import terms as term_queries
from bot.term_storage import TermChange, change_terms
from tests.storage.test_product75 import ZORB

from .conftest import Databases, OpenStore


class _Asked:
    """A transaction that records the SQL asked of it and finds nothing."""

    def __init__(self) -> None:
        self.sql = ""

    async def fetch(self, sql: str, params: tuple[object, ...] = ()) -> list[object]:
        self.sql = sql
        return []


async def _ever_a_term_sql() -> str:
    asked = _Asked()
    await term_queries.ever_a_term(asked, scope=5, term_id="zorb")  # type: ignore[arg-type]
    return asked.sql


async def _plan(databases: Databases, location: str) -> str:
    """How the backend reads `ever_a_term`'s query: by an index on both columns, or not."""
    sql = await _ever_a_term_sql()
    if databases.backend == "sqlite":
        with sqlite3.connect(location) as db:
            return " / ".join(
                row[-1] for row in db.execute(f"EXPLAIN QUERY PLAN {sql}", (5, "zorb"))
            )
    pg = await asyncpg.connect(location)
    try:
        # An empty table is read whole at any index: ask for the index the planner would take.
        await pg.execute("SET enable_seqscan = off")
        numbered = sql.replace("scope = ?", "scope = $1").replace("term_id = ?", "term_id = $2")
        rows = await pg.fetch(f"EXPLAIN {numbered}", 5, "zorb")
        return " / ".join(row[0] for row in rows)
    finally:
        await pg.close()


def _by_scope_and_term(plan: str) -> bool:
    if "term_audit_log_by_term" not in plan:
        return False
    return "term_id=?" in plan or "(term_id = " in plan


async def _schema_9(databases: Databases, location: str) -> None:
    """The database as a bot of the eleventh session left it: schema 9, one term's log."""
    insert = (
        "INSERT INTO term_audit_log (at, scope, actor_id, action, term_id, before, after)"
        " VALUES (0, 5, 1, 'term_add', 'zorb', NULL, '{}')"
    )
    if databases.backend == "sqlite":
        conn = sqlite3.connect(location)
        for migration in migrations("sqlite")[:9]:
            conn.executescript(migration.sql)
        conn.execute("PRAGMA user_version = 9")
        conn.execute("PRAGMA application_id = 0x476C4274")
        conn.execute(insert)
        conn.commit()
        conn.close()
        return
    pg = await asyncpg.connect(location)
    try:
        async with pg.transaction():
            await pg.execute(f"CREATE TABLE {VERSION_TABLE} (version INTEGER NOT NULL)")
            await pg.execute(f"INSERT INTO {VERSION_TABLE} (version) VALUES (9)")
            for migration in migrations("postgres")[:9]:
                await pg.execute(migration.sql)
            await pg.execute(insert)
    finally:
        await pg.close()


async def test_ever_a_term_reads_an_index_by_server_and_term(
    open_any: OpenStore, databases: Databases, location: str
) -> None:
    """tidy76 item 1: `ever_a_term` (a button to a card gone, tidy75's `BotState.gone_from`)
    read the server's whole term log through the index by (scope, id): 133 ms for an id it
    lacks at 300,000 rows on SQLite. Migration 10 indexes the log by (scope, term_id) on both
    backends, and the query is answered from that index."""
    store = await open_any()
    await change_terms(store, 5, lambda *_: (TermChange(put=(ZORB,)), None), 1)
    assert await store.ever_a_term(5, "zorb")
    assert not await store.ever_a_term(5, "zorbs")
    plan = await _plan(databases, location)
    assert _by_scope_and_term(plan), plan


async def test_a_database_of_schema_9_gets_the_term_log_index(
    open_any: OpenStore, databases: Databases, location: str
) -> None:
    """An existing database (schema 9, a term log already written) is upgraded at open: the
    index is made over the rows there, and the log still answers."""
    await _schema_9(databases, location)
    assert not _by_scope_and_term(await _plan(databases, location))
    store = await open_any()
    assert await store.schema_behind() is None
    latest = await store._backend.schema_versions()
    assert latest[0] == latest[1] >= 10  # schema 10 made the index; later ones may follow
    assert await store.ever_a_term(5, "zorb")
    assert not await store.ever_a_term(6, "zorb")
    plan = await _plan(databases, location)
    assert _by_scope_and_term(plan), plan
