"""SQL for per-server aliases and the audit log. Each function runs inside the caller's transaction."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

import aiosqlite

from .count_queries import where
from .models import AddAliasResult, AddAliasStatus, AliasRecord, AuditAction, AuditRecord
from .periods import from_unix

_ALIAS_COLUMNS = "scope, key, text, entry_id, added_by, added_at"


def _alias(row: Sequence[Any]) -> AliasRecord:
    scope, key, text, entry_id, added_by, added_at = row
    return AliasRecord(scope, key, text, entry_id, added_by, from_unix(added_at))


async def get_alias(conn: aiosqlite.Connection, scope: int, key: str) -> AliasRecord | None:
    sql = f"SELECT {_ALIAS_COLUMNS} FROM aliases WHERE scope = ? AND key = ?"
    async with conn.execute(sql, (scope, key)) as cur:
        row = await cur.fetchone()
    return _alias(row) if row else None


async def alias_map(conn: aiosqlite.Connection, scope: int) -> dict[str, str]:
    async with conn.execute("SELECT key, entry_id FROM aliases WHERE scope = ?", (scope,)) as cur:
        return {key: entry_id async for key, entry_id in cur}


async def list_aliases(
    conn: aiosqlite.Connection, scope: int | None, entry_id: str | None
) -> list[AliasRecord]:
    clause, params = where(("scope = ?", scope), ("entry_id = ?", entry_id))
    sql = f"SELECT {_ALIAS_COLUMNS} FROM aliases{clause} ORDER BY scope, key"
    async with conn.execute(sql, params) as cur:
        return [_alias(row) async for row in cur]


async def alias_count(conn: aiosqlite.Connection, scope: int | None) -> int:
    clause, params = where(("scope = ?", scope))
    async with conn.execute(f"SELECT count(*) FROM aliases{clause}", params) as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def alias_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("SELECT value FROM counters WHERE name = 'alias_version'") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def add_alias(
    conn: aiosqlite.Connection,
    record: AliasRecord,
    *,
    actor_id: int,
    action: AuditAction,
    cap: int,
    clears: Sequence[str],
) -> AddAliasResult:
    """Insert an alias unless the key is taken or the server is at its cap."""
    existing = await get_alias(conn, record.scope, record.key)
    if existing is not None:
        return _already_there(existing, record.entry_id)
    if await alias_count(conn, record.scope) >= cap:
        return AddAliasResult(AddAliasStatus.CAP_REACHED, None)
    at = int(record.added_at.timestamp())
    try:
        await conn.execute(
            f"INSERT INTO aliases ({_ALIAS_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
            (
                record.scope,
                record.key,
                record.text,
                record.entry_id,
                record.added_by,
                at,
            ),
        )
    except sqlite3.IntegrityError:
        # The primary key is the final word when two writers race for one key.
        existing = await get_alias(conn, record.scope, record.key)
        if existing is None:
            raise
        return _already_there(existing, record.entry_id)
    # The alias answers these queries from now on: they are no longer misses.
    marks = ",".join("?" * len(clears))
    delete = f"DELETE FROM misses WHERE scope = ? AND query IN ({marks})"
    async with conn.execute(delete, (record.scope, *clears)) as cur:
        cleared = cur.rowcount > 0
    await _audit(conn, at, record.scope, actor_id, action, record.key, None, record.entry_id)
    return AddAliasResult(AddAliasStatus.ADDED, record, cleared_miss=cleared)


def _already_there(existing: AliasRecord, entry_id: str) -> AddAliasResult:
    if existing.entry_id == entry_id:
        return AddAliasResult(AddAliasStatus.ALREADY_EXISTS_SAME_ENTRY, existing)
    return AddAliasResult(AddAliasStatus.CONFLICT, existing)


async def remove_alias(
    conn: aiosqlite.Connection, scope: int, key: str, *, actor_id: int, at: int
) -> AliasRecord | None:
    existing = await get_alias(conn, scope, key)
    if existing is None:
        return None
    await conn.execute("DELETE FROM aliases WHERE scope = ? AND key = ?", (scope, key))
    await _audit(conn, at, scope, actor_id, AuditAction.ALIAS_REMOVE, key, existing.entry_id, None)
    return existing


async def _audit(
    conn: aiosqlite.Connection,
    at: int,
    scope: int,
    actor_id: int,
    action: AuditAction,
    key: str,
    before: str | None,
    after: str | None,
) -> None:
    await conn.execute(
        "INSERT INTO audit_log (at, scope, actor_id, action, alias_key, before, after)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (at, scope, actor_id, action.value, key, before, after),
    )


async def audit_log(conn: aiosqlite.Connection, scope: int, limit: int) -> list[AuditRecord]:
    sql = (
        "SELECT id, at, scope, actor_id, action, alias_key, before, after FROM audit_log"
        " WHERE scope = ? ORDER BY id DESC LIMIT ?"
    )
    async with conn.execute(sql, (scope, limit)) as cur:
        return [
            AuditRecord(row_id, from_unix(at), s, actor, AuditAction(action), key, before, after)
            async for row_id, at, s, actor, action, key, before, after in cur
        ]
