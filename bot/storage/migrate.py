"""Schema versioning: numbered forward migrations in plain SQL, one transaction each.

The version lives in `PRAGMA user_version`; `PRAGMA application_id` marks the file as ours.
A database newer than this code is refused before anything is written to it.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

import aiosqlite

from .errors import NotAGlossaryDatabase, SchemaTooNew, StorageUnavailable, as_storage_error

APPLICATION_ID = 0x476C4274  # "GlBt"
_NAME = re.compile(r"^V(\d+)__(\w+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        return split_statements(self.sql)


@cache
def migrations() -> tuple[Migration, ...]:
    """The bundled migrations, in order. Numbering must run 1, 2, 3... without gaps."""
    found: list[Migration] = []
    for resource in files("bot.storage.migrations").iterdir():
        match = _NAME.match(resource.name)
        if match:
            found.append(Migration(int(match[1]), match[2], resource.read_text("utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {versions}")
    return tuple(found)


def latest_version() -> int:
    return migrations()[-1].version


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


async def _scalar(conn: aiosqlite.Connection, sql: str) -> int:
    async with conn.execute(sql) as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def check_version(conn: aiosqlite.Connection, path: str) -> int:
    """The file's schema version, refusing files that are newer or not ours. Reads only."""
    try:
        version = await _scalar(conn, "PRAGMA user_version")
        app_id = await _scalar(conn, "PRAGMA application_id")
        objects = await _scalar(conn, "SELECT count(*) FROM sqlite_schema")
    except sqlite3.DatabaseError as exc:
        raise NotAGlossaryDatabase(f"{path} is not a usable SQLite database: {exc}") from exc
    if app_id not in (0, APPLICATION_ID):
        raise NotAGlossaryDatabase(f"{path} belongs to another application (id {app_id:#x})")
    if version == 0 and objects:
        raise NotAGlossaryDatabase(f"{path} already holds tables but no Glossary Bot schema")
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
            for statement in migration.statements():
                await conn.execute(statement)
            await conn.execute(f"PRAGMA user_version = {migration.version}")
            await conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            error = as_storage_error(exc)
            if isinstance(error, StorageUnavailable):
                raise StorageUnavailable(
                    f"cannot upgrade {path} to schema version {migration.version}: {error.reason}"
                ) from exc
            raise error from exc
        applied.append(migration.version)
    return applied
