"""SQL for lookup counts and misses: writing a buffered batch, and the reads stats need.

Every read also returns `flush_seq`, read in the same transaction, so the caller can tell which
in-memory buffers the rows already include.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import aiosqlite

from .buffer import CountBuffer

_UPSERT_LOOKUP = """
INSERT INTO lookups (scope, entry_id, hour, count) VALUES (?, ?, ?, ?)
ON CONFLICT (scope, entry_id, hour) DO UPDATE SET count = count + excluded.count
"""
_UPSERT_MISS = """
INSERT INTO misses (scope, query, count, first_seen, last_seen) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (scope, query) DO UPDATE SET
    count = count + excluded.count,
    first_seen = min(first_seen, excluded.first_seen),
    last_seen = max(last_seen, excluded.last_seen)
"""
_UPSERT_MISS_HOUR = """
INSERT INTO miss_hours (scope, query, hour, count) VALUES (?, ?, ?, ?)
ON CONFLICT (scope, query, hour) DO UPDATE SET count = count + excluded.count
"""
_SET_FLUSH_SEQ = "UPDATE counters SET value = max(value, ?) WHERE name = 'flush_seq'"

# SQLite allows 32766 parameters; stay far below, and keep statements short.
_CHUNK = 500


async def write_batch(conn: aiosqlite.Connection, batch: CountBuffer) -> None:
    """Add a batch to the stored counts (inside the caller's transaction)."""
    await conn.executemany(_UPSERT_LOOKUP, batch.lookup_rows())
    await conn.executemany(_UPSERT_MISS, batch.miss_rows())  # parents first: foreign key
    await conn.executemany(_UPSERT_MISS_HOUR, batch.miss_hour_rows())
    await conn.execute(_SET_FLUSH_SEQ, (batch.seq,))


async def flush_seq(conn: aiosqlite.Connection) -> int:
    return await _scalar(conn, "SELECT value FROM counters WHERE name = 'flush_seq'", ())


def where(*conditions: tuple[str, Any]) -> tuple[str, list[Any]]:
    """A WHERE clause from fixed fragments; only the values are parameters.

    Each condition is (fragment, value): skipped when the value is None; a list value fills
    every placeholder of its fragment (`entry_id IN (?, ?)`).
    """
    clauses: list[str] = []
    params: list[Any] = []
    for fragment, value in conditions:
        if value is None:
            continue
        clauses.append(fragment)
        params.extend(value if isinstance(value, list) else [value])
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", params


def _where(
    scope: int | None, first_hour: int | None, *extra: tuple[str, Any]
) -> tuple[str, list[Any]]:
    return where(("scope = ?", scope), ("hour >= ?", first_hour), *extra)


async def total_lookups(
    conn: aiosqlite.Connection, scope: int | None, first_hour: int | None
) -> tuple[int, int]:
    where, params = _where(scope, first_hour)
    total = await _scalar(conn, f"SELECT coalesce(sum(count), 0) FROM lookups{where}", params)
    return await flush_seq(conn), total


async def entry_lookups(conn: aiosqlite.Connection, scope: int, entry_id: str) -> tuple[int, int]:
    total = await _scalar(
        conn,
        "SELECT coalesce(sum(count), 0) FROM lookups WHERE scope = ? AND entry_id = ?",
        (scope, entry_id),
    )
    return await flush_seq(conn), total


async def term_counts(
    conn: aiosqlite.Connection,
    scope: int | None,
    first_hour: int | None,
    limit: int,
    also: Iterable[str],
) -> tuple[int, dict[str, int]]:
    """The top `limit` entries, plus the stored counts of the entries in `also`.

    Merging these with buffered counts gives the exact top list: an entry absent from both sets
    has no buffered count and ranks below `limit` stored ones.
    """

    def grouped(where: str) -> str:
        return f"SELECT entry_id, sum(count) AS n FROM lookups{where} GROUP BY entry_id"

    where, params = _where(scope, first_hour)
    counts: dict[str, int] = {}
    top_sql = f"{grouped(where)} ORDER BY n DESC, entry_id LIMIT ?"
    async with conn.execute(top_sql, [*params, limit]) as cur:
        counts.update({row[0]: row[1] async for row in cur})
    for chunk in _chunks(sorted(set(also) - counts.keys())):
        marks = ",".join("?" * len(chunk))
        where, params = _where(scope, first_hour, (f"entry_id IN ({marks})", list(chunk)))
        async with conn.execute(grouped(where), params) as cur:
            counts.update({row[0]: row[1] async for row in cur})
    return await flush_seq(conn), counts


@dataclass(frozen=True, slots=True)
class StoredMiss:
    count: int  # within the period
    first_seen: int  # ever
    last_seen: int


async def miss_counts(
    conn: aiosqlite.Connection,
    scope: int | None,
    first_hour: int | None,
    limit: int,
    also: Iterable[str],
) -> tuple[int, dict[str, StoredMiss]]:
    """Like `term_counts`, for misses; first and last seen are all-time, the count per period."""
    if first_hour is None:
        where, params = _where(scope, None)
        top_sql = f"SELECT query, sum(count) AS n FROM misses{where} GROUP BY query"
    else:
        where, params = _where(scope, first_hour)
        top_sql = f"SELECT query, sum(count) AS n FROM miss_hours{where} GROUP BY query"
    async with conn.execute(f"{top_sql} ORDER BY n DESC, query LIMIT ?", [*params, limit]) as cur:
        top = [row[0] async for row in cur]
    wanted = sorted(set(top) | set(also))
    return await flush_seq(conn), await _miss_details(conn, scope, first_hour, wanted)


async def _miss_details(
    conn: aiosqlite.Connection, scope: int | None, first_hour: int | None, queries: Sequence[str]
) -> dict[str, StoredMiss]:
    scope_clause = "m.scope = ? AND " if scope is not None else ""
    scope_param = [scope] if scope is not None else []
    if first_hour is None:
        count_expr = "m.count"
        hour_param: list[Any] = []
    else:
        count_expr = (
            "(SELECT coalesce(sum(h.count), 0) FROM miss_hours h"
            " WHERE h.scope = m.scope AND h.query = m.query AND h.hour >= ?)"
        )
        hour_param = [first_hour]
    found: dict[str, StoredMiss] = {}
    for chunk in _chunks(queries):
        marks = ",".join("?" * len(chunk))
        sql = (
            f"SELECT m.query, sum({count_expr}), min(m.first_seen), max(m.last_seen)"
            f" FROM misses m WHERE {scope_clause}m.query IN ({marks}) GROUP BY m.query"
        )
        async with conn.execute(sql, [*hour_param, *scope_param, *chunk]) as cur:
            async for query, count, first, last in cur:
                found[query] = StoredMiss(count, first, last)
    return found


def _chunks(items: Sequence[str]) -> Iterator[Sequence[str]]:
    for start in range(0, len(items), _CHUNK):
        yield items[start : start + _CHUNK]


async def _scalar(conn: aiosqlite.Connection, sql: str, params: Sequence[Any]) -> int:
    async with conn.execute(sql, params) as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row and row[0] is not None else 0
