"""Per-server aliases and the audit log of their changes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..backend import Tx
from ..models import AddAliasResult, AddAliasStatus, AliasRecord, AuditAction, AuditRecord
from ..periods import from_unix
from . import CHUNK, chunks, marks, scalar, where

_ALIAS_COLUMNS = "scope, key, text, entry_id, added_by, added_at"


def _alias(row: Sequence[Any]) -> AliasRecord:
    scope, key, text, entry_id, added_by, added_at = row
    return AliasRecord(scope, key, text, entry_id, added_by, from_unix(added_at))


async def get_alias(tx: Tx, scope: int, key: str) -> AliasRecord | None:
    sql = f"SELECT {_ALIAS_COLUMNS} FROM aliases WHERE scope = ? AND key = ?"
    row = await tx.fetchrow(sql, (scope, key))
    return _alias(row) if row else None


async def alias_map(tx: Tx, scope: int) -> dict[str, str]:
    rows = await tx.fetch("SELECT key, entry_id FROM aliases WHERE scope = ?", (scope,))
    return {str(key): str(entry_id) for key, entry_id in rows}


async def list_aliases(tx: Tx, *, scope: int | None, entry_id: str | None) -> list[AliasRecord]:
    clause, params = where(("scope = ?", scope), ("entry_id = ?", entry_id))
    sql = f"SELECT {_ALIAS_COLUMNS} FROM aliases{clause} ORDER BY scope, key"
    return [_alias(row) for row in await tx.fetch(sql, params)]


async def alias_count(tx: Tx, *, scope: int | None) -> int:
    clause, params = where(("scope = ?", scope))
    return await scalar(tx, f"SELECT count(*) FROM aliases{clause}", params)


async def alias_version(tx: Tx) -> int:
    """Bumped by a trigger on every change to aliases, from any process."""
    return await scalar(tx, "SELECT value FROM counters WHERE name = 'alias_version'")


async def lock_aliases(tx: Tx) -> None:
    """Serialise alias writes that check the server's aliases first: touching the counter row
    takes SQLite's write lock and PostgreSQL's row lock until commit."""
    await tx.execute("UPDATE counters SET value = value WHERE name = 'alias_version'")


async def repoint_aliases(tx: Tx, *, scope: int, old_id: str, new_id: str) -> None:
    """The server's aliases of `old_id` now open `new_id` (the term they named, renamed)."""
    await tx.execute(
        "UPDATE aliases SET entry_id = ? WHERE scope = ? AND entry_id = ?",
        (new_id, scope, old_id),
    )


async def insert_aliases(tx: Tx, records: Sequence[AliasRecord]) -> set[tuple[int, str]]:
    """Insert `records` (keys checked free under `lock_aliases`) a few hundred to a statement:
    the (scope, key) of those inserted. One taken meanwhile by a writer that does not lock (the
    primary key's final word) is left out."""
    inserted: set[tuple[int, str]] = set()
    rows_per = CHUNK // 6
    for start in range(0, len(records), rows_per):
        part = records[start : start + rows_per]
        values = ", ".join("(?, ?, ?, ?, ?, ?)" for _ in part)
        params = [
            v
            for r in part
            for v in (r.scope, r.key, r.text, r.entry_id, r.added_by, int(r.added_at.timestamp()))
        ]
        rows = await tx.fetch(
            f"INSERT INTO aliases ({_ALIAS_COLUMNS}) VALUES {values}"
            " ON CONFLICT (scope, key) DO NOTHING RETURNING scope, key",
            params,
        )
        inserted |= {(int(scope), str(key)) for scope, key in rows}
    return inserted


async def clear_misses(tx: Tx, scope: int, queries: Sequence[str]) -> set[str]:
    """Remove the server's misses of `queries` (aliases now answer them): those removed."""
    cleared: set[str] = set()
    for part in chunks(queries):
        rows = await tx.fetch(
            f"DELETE FROM misses WHERE scope = ? AND query IN ({marks(part)}) RETURNING query",
            (scope, *part),
        )
        cleared |= {str(query) for (query,) in rows}
    return cleared


_AUDIT_ROW = (
    "INSERT INTO audit_log (at, scope, actor_id, action, alias_key, before, after, write_id)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


async def audit_added(
    tx: Tx, records: Sequence[AliasRecord], actor_id: int, action: AuditAction
) -> None:
    """One audit row an alias added, in order (`_audit`'s row, many at once)."""
    await tx.executemany(
        _AUDIT_ROW,
        [
            (
                int(r.added_at.timestamp()),
                r.scope,
                actor_id,
                action.value,
                r.key,
                None,
                r.entry_id,
                None,
            )
            for r in records
        ],
    )


def already_there(existing: AliasRecord, entry_id: str) -> AddAliasResult:
    if existing.entry_id == entry_id:
        return AddAliasResult(AddAliasStatus.ALREADY_EXISTS_SAME_ENTRY, existing)
    return AddAliasResult(AddAliasStatus.CONFLICT, existing)


async def remove_alias(
    tx: Tx, *, scope: int, key: str, actor_id: int, at: int, write_id: str
) -> AliasRecord | None:
    """`write_id`: the write's (a term's removal shares it with the aliases it takes)."""
    existing = await get_alias(tx, scope, key)
    if existing is None:
        return None
    if not await tx.execute("DELETE FROM aliases WHERE scope = ? AND key = ?", (scope, key)):
        # PostgreSQL: another write removed it since the read (a term's removal and an
        # `/alias remove` at once); its removal is the one logged, and this one is none.
        return None
    await _audit(
        tx, at, scope, actor_id, AuditAction.ALIAS_REMOVE, key, existing.entry_id, None, write_id
    )
    return existing


async def _audit(
    tx: Tx,
    at: int,
    scope: int,
    actor_id: int,
    action: AuditAction,
    key: str,
    before: str | None,
    after: str | None,
    write_id: str | None = None,
) -> None:
    await tx.execute(
        _AUDIT_ROW,
        (at, scope, actor_id, action.value, key, before, after, write_id),
    )


async def last_removal(tx: Tx, *, scope: int, key: str) -> tuple[AuditRecord, str | None] | None:
    """The alias `key`'s newest audit entry if it is a removal (None: never added, or added
    again since), with its write's id (None if logged before write ids were kept). Newest in
    time, then by id: ids order one database's writes, but `migrate-db --force` appends
    another database's log after this one's, where only the time tells which came last (a
    server's aliases are written by the one process running its shard, on one clock)."""
    sql = (
        "SELECT id, at, scope, actor_id, action, alias_key, before, after, write_id"
        " FROM audit_log WHERE scope = ? AND alias_key = ? ORDER BY at DESC, id DESC LIMIT 1"
    )
    row = await tx.fetchrow(sql, (scope, key))
    if row is None or row[4] != AuditAction.ALIAS_REMOVE.value:
        return None
    row_id, at, s, actor, action, alias_key, before, after, write_id = row
    record = AuditRecord(
        row_id, from_unix(at), s, actor, AuditAction(action), alias_key, before, after
    )
    return record, write_id


async def audit_log(tx: Tx, *, scope: int, limit: int) -> list[AuditRecord]:
    """Newest in time first, then by id (a log merged by `migrate-db --force`: `term_audit_log`)."""
    sql = (
        "SELECT id, at, scope, actor_id, action, alias_key, before, after FROM audit_log"
        " WHERE scope = ? ORDER BY at DESC, id DESC LIMIT ?"
    )
    return [
        AuditRecord(row_id, from_unix(at), s, actor, AuditAction(action), key, before, after)
        for row_id, at, s, actor, action, key, before, after in await tx.fetch(sql, (scope, limit))
    ]
