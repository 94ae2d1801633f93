"""Whole tables, for copying one database into another (`glossary-bot migrate-db`)."""

from __future__ import annotations

from ..backend import Row, Tx
from . import scalar

# What a copy must carry over, counted the same way on both sides to verify it.
COUNTED = {
    "lookups": "SELECT count(*) FROM lookups",
    "lookup_total": "SELECT coalesce(sum(count), 0) FROM lookups",
    "misses": "SELECT count(*) FROM misses",
    "miss_total": "SELECT coalesce(sum(count), 0) FROM misses",
    "miss_hours": "SELECT count(*) FROM miss_hours",
    "aliases": "SELECT count(*) FROM aliases",
    "audit_log": "SELECT count(*) FROM audit_log",
    "terms": "SELECT count(*) FROM terms",
    "term_audit_log": "SELECT count(*) FROM term_audit_log",
    "suggestions": "SELECT count(*) FROM suggestions",
}

# Tables copied row for row: (columns, what a row the target already has does). Logs and
# suggestions get ids anew, in the same order; a term the target already has stays its own.
ROW_TABLES = {
    "terms": ("scope, id, body, updated_by, updated_at", " ON CONFLICT (scope, id) DO NOTHING"),
    "term_audit_log": ("at, scope, actor_id, action, term_id, before, after", ""),
    "suggestions": (
        "scope, user_id, title, definition, status, created_at, decided_by, decided_at",
        "",
    ),
}


async def table_rows(tx: Tx) -> dict[str, list[Row]]:
    rows = {}
    for table, (columns, _) in ROW_TABLES.items():
        order = "scope, id" if table == "terms" else "id"
        rows[table] = await tx.fetch(f"SELECT {columns} FROM {table} ORDER BY {order}")
    return rows


async def add_table_rows(tx: Tx, rows: dict[str, list[Row]]) -> None:
    for table, (columns, conflict) in ROW_TABLES.items():
        marks = ", ".join("?" * len(columns.split(",")))
        await tx.executemany(
            f"INSERT INTO {table} ({columns}) VALUES ({marks}){conflict}", rows[table]
        )


async def tally(tx: Tx) -> dict[str, int]:
    return {name: await scalar(tx, sql) for name, sql in COUNTED.items()}


async def lookups(tx: Tx) -> list[Row]:
    return await tx.fetch("SELECT scope, entry_id, hour, count FROM lookups")


async def misses(tx: Tx) -> list[Row]:
    return await tx.fetch("SELECT scope, query, first_seen, last_seen FROM misses")


async def miss_hours(tx: Tx) -> list[Row]:
    return await tx.fetch("SELECT scope, query, hour, count FROM miss_hours")


async def aliases(tx: Tx) -> list[Row]:
    return await tx.fetch(
        "SELECT scope, key, text, entry_id, added_by, added_at FROM aliases ORDER BY scope, key"
    )


async def audit_log(tx: Tx) -> list[Row]:
    return await tx.fetch(
        "SELECT at, scope, actor_id, action, alias_key, before, after FROM audit_log ORDER BY id"
    )


async def add_aliases_and_audit(tx: Tx, alias_rows: list[Row], audit_rows: list[Row]) -> None:
    """Aliases the target lacks, and the audit log after the target's own (ids assigned anew,
    in the same order)."""
    await tx.executemany(
        "INSERT INTO aliases (scope, key, text, entry_id, added_by, added_at)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (scope, key) DO NOTHING",
        alias_rows,
    )
    await tx.executemany(
        "INSERT INTO audit_log (at, scope, actor_id, action, alias_key, before, after)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        audit_rows,
    )
