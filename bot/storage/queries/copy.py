"""Whole tables, for copying one database into another (`glossary-bot migrate-db`), a page of
rows at a time: a year of counts (millions of rows) never sits in memory at once."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

from ..backend import Row, Tx
from . import marks, scalar
from .counts import UPSERT_LOOKUP, UPSERT_MISS, UPSERT_MISS_HOUR

# Rows read and written at a time: a few MB of memory, and statements far inside the
# PostgreSQL backend's command timeout.
PAGE = 5_000

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
    "term_drafts": "SELECT count(*) FROM term_drafts",
}


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    columns: str  # what is copied
    key: str  # the primary key: pages follow it
    insert: str  # adds one row (the copied columns) to the target

    @property
    def key_width(self) -> int:
        return len(self.key.split(","))


def _kept(name: str, columns: str, key: str) -> Table:
    """A row the target already has (same key) stays the target's own."""
    values = marks(columns.split(","))
    return Table(
        name,
        columns,
        key,
        f"INSERT INTO {name} ({columns}) VALUES ({values}) ON CONFLICT DO NOTHING",
    )


def _appended(name: str, columns: str) -> Table:
    """Logs and suggestions: after the target's own, ids given anew, in the same order."""
    return Table(
        name, columns, "id", f"INSERT INTO {name} ({columns}) VALUES ({marks(columns.split(','))})"
    )


# Every table a copy carries, in an order the foreign keys accept (a miss before its hours).
# Counts are added to the target's counts of the same key.
TABLES = (
    Table("lookups", "scope, entry_id, hour, count", "scope, entry_id, hour", UPSERT_LOOKUP),
    Table("misses", "scope, query, count, first_seen, last_seen", "scope, query", UPSERT_MISS),
    Table("miss_hours", "scope, query, hour, count", "scope, query, hour", UPSERT_MISS_HOUR),
    _kept("aliases", "scope, key, text, entry_id, added_by, added_at", "scope, key"),
    _appended("audit_log", "at, scope, actor_id, action, alias_key, before, after, write_id"),
    _kept("terms", "scope, id, body, updated_by, updated_at", "scope, id"),
    _appended("term_audit_log", "at, scope, actor_id, action, term_id, before, after, write_id"),
    _appended(
        "suggestions",
        "scope, user_id, title, definition, status, created_at, decided_by, decided_at",
    ),
    # Open term forms: a form open across a move (a restart onto the new database) keeps them.
    _kept("term_drafts", "nonce, scope, owner_id, body, saved_at", "nonce"),
)


async def pages(tx: Tx, table: Table, size: int = PAGE) -> AsyncIterator[list[Row]]:
    """The table's rows (its copied columns), `size` at a time in key order; each page starts
    after the last key of the one before, so none reads past what it returns."""
    after: list[object] = []
    while True:
        clause = f" WHERE ({table.key}) > ({marks(after)})" if after else ""
        rows = await tx.fetch(
            f"SELECT {table.key}, {table.columns} FROM {table.name}{clause}"
            f" ORDER BY {table.key} LIMIT ?",
            [*after, size],
        )
        if not rows:
            return
        yield [row[table.key_width :] for row in rows]
        if len(rows) < size:
            return
        after = list(rows[-1][: table.key_width])


async def add(tx: Tx, table: Table, rows: list[Row]) -> None:
    await tx.executemany(table.insert, rows)


async def tally(tx: Tx) -> dict[str, int]:
    return {name: await scalar(tx, sql) for name, sql in COUNTED.items()}
