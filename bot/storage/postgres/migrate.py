"""Schema versioning on PostgreSQL: the same numbered migrations as SQLite's, in PostgreSQL's SQL.

The version lives in a one-row table, `glossary_bot_schema`, which also marks the schema as ours.
Every process starting runs this under one advisory lock, so two starting at once never race:
the second waits, then finds the schema up to date. A newer schema than this code knows, or a
schema holding other tables, is refused before anything is written.
"""

from __future__ import annotations

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from ..backend import Migrate, may_migrate, out_of_date
from ..errors import NotAGlossaryDatabase, SchemaTooNew, StorageError
from ..migrations import latest_version as _latest_version
from ..migrations import migrations as _migrations

Connection = asyncpg.Connection | PoolConnectionProxy
VERSION_TABLE = "glossary_bot_schema"
# One lock per schema: tests (and operators) may keep several bots' schemas in one database.
_LOCK = "SELECT pg_advisory_xact_lock(hashtext('glossary-bot migrations ' || current_schema()))"


# The first schema of a search_path (`"$user", public`) that exists yet is not the role's to use.
_UNUSABLE = """
    SELECT n.nspname FROM unnest(string_to_array($1, ',')) WITH ORDINALITY AS p(name, place)
    JOIN pg_namespace n
      ON n.nspname = replace(btrim(btrim(p.name), '"'), '$user', current_user)
    WHERE NOT has_schema_privilege(n.oid, 'USAGE')
    ORDER BY p.place LIMIT 1
"""


def latest_version() -> int:
    return _latest_version("postgres")


async def schema_version(conn: Connection, location: str) -> int:
    """The schema's version (0: empty), refusing schemas that are newer or not ours."""
    schema = await conn.fetchval("SELECT current_schema()")
    if schema is None:
        path = await conn.fetchval("SELECT current_setting('search_path')")
        # NULL too when the schemas are there but the role may not use them.
        if unusable := await conn.fetchval(_UNUSABLE, path):
            role = await conn.fetchval("SELECT current_user")
            raise StorageError(
                f"{location} has no schema its role may use: {role} may not use schema "
                f"{unusable} (as the schema's owner: GRANT USAGE, CREATE ON SCHEMA {unusable} "
                f"TO {role})"
            )
        raise StorageError(
            f"{location} has no schema to use: none of its search_path ({path}) exists "
            "(create it first: CREATE SCHEMA name)"
        )
    if await conn.fetchval("SELECT to_regclass($1)", f'"{schema}".{VERSION_TABLE}') is None:
        tables = await conn.fetchval("SELECT count(*) FROM pg_tables WHERE schemaname = $1", schema)
        if tables:
            raise NotAGlossaryDatabase(
                f"{location} (schema {schema}) already holds tables but no Glossary Bot schema"
            )
        return 0
    version = int(await conn.fetchval(f"SELECT version FROM {VERSION_TABLE}"))
    if version > latest_version():
        raise SchemaTooNew(location, version, latest_version())
    return version


# What a migration makes, found there already: `pg_restore --clean` of an older version's dump
# over a newer database drops and makes again only what the dump holds.
_ALREADY_THERE = (
    asyncpg.DuplicateTableError,
    asyncpg.DuplicateFunctionError,
    asyncpg.DuplicateObjectError,
)


def left_behind(location: str, version: int, migration: int, exc: Exception) -> StorageError:
    return StorageError(
        f"{location} has schema version {version}, yet holds what migration {migration} makes "
        f"({exc}): a dump of an older Glossary Bot restored over a newer database? pg_restore "
        "--clean leaves what the dump lacks; restore it into an empty database (nothing was "
        "changed)"
    )


async def apply_migrations(conn: Connection, location: str, *, migrate: Migrate) -> list[int]:
    """Bring the schema up to date in one transaction; returns the versions applied."""
    async with conn.transaction():
        await conn.execute(_LOCK)  # held until this transaction ends
        version = await schema_version(conn, location)
        if version == latest_version():
            return []
        if not may_migrate(migrate, version):
            raise out_of_date(location, version, latest_version())
        if version == 0:
            await conn.execute(f"CREATE TABLE {VERSION_TABLE} (version INTEGER NOT NULL)")
            await conn.execute(f"INSERT INTO {VERSION_TABLE} (version) VALUES (0)")
        applied: list[int] = []
        for migration in _migrations("postgres"):
            if migration.version > version:
                try:
                    await conn.execute(migration.sql)  # a script: several statements
                except _ALREADY_THERE as exc:
                    raise left_behind(location, version, migration.version, exc) from exc
                applied.append(migration.version)
        await conn.execute(f"UPDATE {VERSION_TABLE} SET version = $1", applied[-1])
    return applied
