"""Schema versioning: numbered forward migrations in plain SQL, one transaction each.

The version lives in `PRAGMA user_version`; `PRAGMA application_id` marks the file as ours.
A database newer than this code is refused before anything is written to it.
"""

from __future__ import annotations

import sqlite3
from functools import partial

import aiosqlite

from ..errors import NotAGlossaryDatabase, SchemaTooNew, StorageUnavailable
from ..migrations import latest_version as _latest_version
from ..migrations import migrations as _migrations
from .errors import SQLITE_ERRORS, as_storage_error, reported

APPLICATION_ID = 0x476C4274  # "GlBt"

migrations = partial(_migrations, "sqlite")
latest_version = partial(_latest_version, "sqlite")


def split_statements(script: str) -> list[str]:
    """Split a script into statements. `executescript` would commit our open transaction.

    `sqlite3.complete_statement` keeps trigger bodies and quoted semicolons together.
    """
    statements: list[str] = []
    current = ""
    for piece in script.split(";"):
        current += piece + ";"
        if sqlite3.complete_statement(current):
            if _strip_comments(current).strip(" \t\r\n;"):
                statements.append(current.strip())
            current = ""
    if _strip_comments(current).strip(" \t\r\n;"):
        raise ValueError(f"incomplete SQL statement at the end of a migration: {current!r}")
    return statements


def _strip_comments(sql: str) -> str:
    return "\n".join(line.split("--", 1)[0] for line in sql.splitlines())


def is_ours(version: int, app_id: int, objects: int) -> bool:
    """Whether a file with this header is the bot's: one it made (V1 sets the application id,
    and every copy keeps it), or a new empty one. A file of id 0 whose `user_version` is set is
    another program's that numbers its schema too: upgraded, it was written into."""
    return app_id == APPLICATION_ID or (app_id == 0 and version == 0 and objects == 0)


async def check_version(conn: aiosqlite.Connection, path: str) -> int:
    """The file's schema version, refusing files that are newer or not ours. Reads only."""
    try:
        # One statement, so one snapshot: read apart, another process's first migration could
        # commit in between (version 0, yet tables) and the file be taken for someone else's.
        async with conn.execute(
            "SELECT (SELECT user_version FROM pragma_user_version),"
            " (SELECT application_id FROM pragma_application_id),"
            " (SELECT count(*) FROM sqlite_schema)"
        ) as cursor:
            row = await cursor.fetchone()
        version, app_id, objects = (int(v) for v in row) if row else (0, 0, 0)
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        said = reported(exc)
        raise NotAGlossaryDatabase(f"{path} is not a usable SQLite database: {said}") from exc
    if app_id not in (0, APPLICATION_ID):
        raise NotAGlossaryDatabase(f"{path} belongs to another application (id {app_id:#x})")
    if version == 0 and objects:
        raise NotAGlossaryDatabase(f"{path} already holds tables but no Glossary Bot schema")
    if not is_ours(version, app_id, objects):
        raise NotAGlossaryDatabase(f"{path} is not a Glossary Bot database")
    if version > latest_version():
        raise SchemaTooNew(path, version, latest_version())
    return version


async def apply_migrations(conn: aiosqlite.Connection, path: str) -> list[int]:
    """Bring the schema up to date; returns the versions applied. Each runs in one transaction."""
    applied: list[int] = []
    for migration in migrations():
        # Cheap check first, so an up-to-date file (maybe read-only) is never write-locked.
        if await check_version(conn, path) >= migration.version:
            continue
        try:
            await conn.execute("BEGIN IMMEDIATE")
            # Re-check under the write lock: another process may have migrated meanwhile.
            if await check_version(conn, path) >= migration.version:
                await conn.execute("ROLLBACK")
                continue
            for statement in split_statements(migration.sql):
                await conn.execute(statement)
            await conn.execute(f"PRAGMA user_version = {migration.version}")
            await conn.execute("COMMIT")
        except SQLITE_ERRORS as exc:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            error = as_storage_error(exc, path)
            if isinstance(error, StorageUnavailable):
                raise StorageUnavailable(
                    f"cannot upgrade {path} to schema version {migration.version}: {error.reason}"
                ) from exc
            raise error from exc
        applied.append(migration.version)
    return applied
