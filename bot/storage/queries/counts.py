"""Lookup counts and misses: writing a buffered batch, and the reads stats need.

Every read also returns this writer's flush mark, read in the same transaction, so the caller
can tell which of its in-memory buffers the rows already include.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..backend import Tx
from ..buffer import CountBuffer
from . import chunks, marks, scalar, where

# Each adds to what is stored (a flush, and a database copied onto another with --force).
UPSERT_LOOKUP = """
INSERT INTO lookups (scope, entry_id, hour, count) VALUES (?, ?, ?, ?)
ON CONFLICT (scope, entry_id, hour) DO UPDATE SET count = lookups.count + excluded.count
"""
UPSERT_MISS = """
INSERT INTO misses (scope, query, count, first_seen, last_seen) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (scope, query) DO UPDATE SET
    count = misses.count + excluded.count,
    first_seen = CASE WHEN excluded.first_seen < misses.first_seen
        THEN excluded.first_seen ELSE misses.first_seen END,
    last_seen = CASE WHEN excluded.last_seen > misses.last_seen
        THEN excluded.last_seen ELSE misses.last_seen END
"""
UPSERT_MISS_HOUR = """
INSERT INTO miss_hours (scope, query, hour, count) VALUES (?, ?, ?, ?)
ON CONFLICT (scope, query, hour) DO UPDATE SET count = miss_hours.count + excluded.count
"""
_MARK = """
INSERT INTO flush_marks (writer, seq, at) VALUES (?, ?, ?)
ON CONFLICT (writer) DO UPDATE SET seq = excluded.seq, at = excluded.at
"""

# A writer's mark outlives its process only if the process died; a week later it is dropped.
STALE_MARK_SECONDS = 7 * 24 * 3600


async def write_batch(tx: Tx, batch: CountBuffer, *, writer: str, at: int) -> None:
    """Add a batch to the stored counts and mark it written by `writer`."""
    await tx.executemany(UPSERT_LOOKUP, batch.lookup_rows())
    await tx.executemany(UPSERT_MISS, batch.miss_rows())  # parents first: foreign key
    await tx.executemany(UPSERT_MISS_HOUR, batch.miss_hour_rows())
    await tx.execute(_MARK, (writer, batch.seq, at))


async def merge_lookups(tx: Tx, *, scope: int, old_id: str, new_id: str) -> None:
    """The server's lookup counts of `old_id`, hour by hour, added to those of `new_id`."""
    rows = await tx.fetch(
        "SELECT hour, count FROM lookups WHERE scope = ? AND entry_id = ?", (scope, old_id)
    )
    await tx.executemany(UPSERT_LOOKUP, [(scope, new_id, hour, count) for hour, count in rows])
    await tx.execute("DELETE FROM lookups WHERE scope = ? AND entry_id = ?", (scope, old_id))


async def forget_writer(tx: Tx, *, writer: str, at: int) -> None:
    """Drop `writer`'s mark (it is closing) and those of writers gone for long."""
    await tx.execute(
        "DELETE FROM flush_marks WHERE writer = ? OR at < ?", (writer, at - STALE_MARK_SECONDS)
    )


async def flushed_seq(tx: Tx, writer: str) -> int:
    return await scalar(tx, "SELECT seq FROM flush_marks WHERE writer = ?", (writer,))


async def touch(tx: Tx) -> None:
    """A real write of an unchanged row: read-only, full or locked databases refuse it."""
    await tx.execute("UPDATE counters SET value = value WHERE name = 'flush_seq'")


def _where(
    scope: int | None, first_hour: int | None, last_hour: int | None, *extra: tuple[str, Any]
) -> tuple[str, list[Any]]:
    # A period ends at the present hour: counts dated ahead (a clock set wrong for a while)
    # would otherwise sit in "the last day" until the clock caught up with them.
    return where(("scope = ?", scope), ("hour >= ?", first_hour), ("hour <= ?", last_hour), *extra)


async def total_lookups(
    tx: Tx, *, writer: str, scope: int | None, first_hour: int | None, last_hour: int | None = None
) -> tuple[int, int]:
    clause, params = _where(scope, first_hour, last_hour)
    total = await scalar(tx, f"SELECT coalesce(sum(count), 0) FROM lookups{clause}", params)
    return await flushed_seq(tx, writer), total


async def hourly_lookups(
    tx: Tx, *, writer: str, scope: int | None, first_hour: int | None, last_hour: int | None = None
) -> tuple[int, dict[int, int]]:
    clause, params = _where(scope, first_hour, last_hour)
    rows = await tx.fetch(f"SELECT hour, sum(count) FROM lookups{clause} GROUP BY hour", params)
    return await flushed_seq(tx, writer), {int(hour): int(n) for hour, n in rows}


async def last_lookup_hours(tx: Tx) -> dict[int, int]:
    # Server by server through the (scope, hour) index: two seeks each. A GROUP BY read every
    # row of the index (a year of 300 servers: 7.9 M rows, a second or more at start-up).
    rows = await tx.fetch(
        "WITH RECURSIVE servers(scope) AS ("
        " SELECT min(scope) FROM lookups"
        " UNION ALL"
        " SELECT (SELECT min(scope) FROM lookups WHERE scope > servers.scope)"
        " FROM servers WHERE servers.scope IS NOT NULL)"
        " SELECT scope, (SELECT max(hour) FROM lookups WHERE lookups.scope = servers.scope)"
        " FROM servers WHERE scope IS NOT NULL"
    )
    return {int(scope): int(hour) for scope, hour in rows}


async def entry_lookups(
    tx: Tx,
    *,
    writer: str,
    scope: int,
    entry_id: str,
    first_hour: int | None,
    last_hour: int | None = None,
) -> tuple[int, int]:
    clause, params = _where(scope, first_hour, last_hour, ("entry_id = ?", entry_id))
    total = await scalar(tx, f"SELECT coalesce(sum(count), 0) FROM lookups{clause}", params)
    return await flushed_seq(tx, writer), total


async def term_counts(
    tx: Tx,
    *,
    writer: str,
    scope: int | None,
    first_hour: int | None,
    limit: int,
    last_hour: int | None = None,
    also: Iterable[str],
) -> tuple[int, dict[str, int]]:
    """The top `limit` entries, plus the stored counts of the entries in `also`.

    Merging these with buffered counts gives the exact top list: an entry absent from both sets
    has no buffered count and ranks below `limit` stored ones.
    """

    def grouped(clause: str) -> str:
        return f"SELECT entry_id, sum(count) AS n FROM lookups{clause} GROUP BY entry_id"

    clause, params = _where(scope, first_hour, last_hour)
    rows = await tx.fetch(f"{grouped(clause)} ORDER BY n DESC, entry_id LIMIT ?", [*params, limit])
    counts = {entry_id: int(n) for entry_id, n in rows}
    for chunk in chunks(sorted(set(also) - counts.keys())):
        clause, params = _where(
            scope, first_hour, last_hour, (f"entry_id IN ({marks(chunk)})", chunk)
        )
        counts.update({entry_id: int(n) for entry_id, n in await tx.fetch(grouped(clause), params)})
    return await flushed_seq(tx, writer), counts


@dataclass(frozen=True, slots=True)
class StoredMiss:
    count: int  # within the period
    first_seen: int  # ever
    last_seen: int


async def miss_counts(
    tx: Tx,
    *,
    writer: str,
    scope: int | None,
    first_hour: int | None,
    limit: int,
    last_hour: int | None = None,
    also: Iterable[str],
    containing: str | None = None,
) -> tuple[int, dict[str, StoredMiss]]:
    """Like `term_counts`, for misses; first and last seen are all-time, the count per period.
    `containing`: only the misses with that text in them (the top of those, not of all)."""
    table = "misses" if first_hour is None else "miss_hours"
    clause, params = _where(
        scope, first_hour, last_hour, ("query LIKE ? ESCAPE '\\'", _like(containing))
    )
    top_sql = f"SELECT query, sum(count) AS n FROM {table}{clause} GROUP BY query"
    top = [
        row[0]
        for row in await tx.fetch(f"{top_sql} ORDER BY n DESC, query LIMIT ?", [*params, limit])
    ]
    wanted = sorted(set(top) | set(also))
    return await flushed_seq(tx, writer), await _miss_details(
        tx, scope, first_hour, last_hour, wanted
    )


def _like(text: str | None) -> str | None:
    """A LIKE pattern matching `text` anywhere, its own % _ and \\ taken literally."""
    if text is None:
        return None
    literal = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{literal}%"


async def _miss_details(
    tx: Tx,
    scope: int | None,
    first_hour: int | None,
    last_hour: int | None,
    queries: Sequence[str],
) -> dict[str, StoredMiss]:
    hours = [] if first_hour is None else [first_hour]
    if first_hour is None:
        count_expr = "m.count"
    else:
        upto = "" if last_hour is None else " AND h.hour <= ?"
        hours += [] if last_hour is None else [last_hour]
        count_expr = (
            "(SELECT coalesce(sum(h.count), 0) FROM miss_hours h"
            f" WHERE h.scope = m.scope AND h.query = m.query AND h.hour >= ?{upto})"
        )
    found: dict[str, StoredMiss] = {}
    for chunk in chunks(queries):
        clause, params = where(("m.scope = ?", scope), (f"m.query IN ({marks(chunk)})", chunk))
        sql = (
            f"SELECT m.query, sum({count_expr}), min(m.first_seen), max(m.last_seen)"
            f" FROM misses m{clause} GROUP BY m.query"
        )
        for query, count, first, last in await tx.fetch(sql, [*hours, *params]):
            found[query] = StoredMiss(int(count), int(first), int(last))
    return found


# Every server the database holds anything of, with what: a server's lookups, aliases, terms
# and waiting suggestions (a server with only missed searches is listed too, with none).
_SERVERS = """
SELECT scope, SUM(lookups), SUM(aliases), SUM(terms), SUM(waiting) FROM (
    SELECT scope, SUM(count) AS lookups, 0 AS aliases, 0 AS terms, 0 AS waiting
        FROM lookups GROUP BY scope
    UNION ALL SELECT scope, 0, 0, 0, 0 FROM misses GROUP BY scope
    UNION ALL SELECT scope, 0, COUNT(*), 0, 0 FROM aliases GROUP BY scope
    UNION ALL SELECT scope, 0, 0, COUNT(*), 0 FROM terms GROUP BY scope
    UNION ALL SELECT scope, 0, 0, 0, SUM(CASE WHEN status = 'open' THEN 1 ELSE 0 END)
        FROM suggestions GROUP BY scope
) AS held GROUP BY scope ORDER BY scope
"""


@dataclass(frozen=True, slots=True)
class ServerHeld:
    """What the database holds of one server (`glossary-bot stats --servers`)."""

    scope: int
    lookups: int
    aliases: int
    terms: int
    open_suggestions: int


async def servers(tx: Tx) -> list[ServerHeld]:
    """Every server the database holds, by id (0: direct messages)."""
    rows = await tx.fetch(_SERVERS)
    return [ServerHeld(*(int(value or 0) for value in row)) for row in rows]
