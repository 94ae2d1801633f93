"""Old counts removed (`glossary-bot prune`): lookup counts and missed searches from before a
cut-off, one server and a batch of rows at a time, each batch its own short transaction, so a
bot running on the database waits for none of them long."""

from __future__ import annotations

from dataclasses import dataclass

from ..backend import Tx
from ..periods import HOUR
from . import scalar

# Rows removed per transaction: a few milliseconds of the write lock.
BATCH = 5_000


@dataclass(frozen=True, slots=True)
class Pruned:
    table: str
    key: str  # the primary key
    old: str  # the rows before the cut-off: `?` is its hour, or its second for `in_seconds`
    in_seconds: bool = False


# In this order: a missed search's hours before the search (whose removal takes its hours with
# it, by the foreign key: all before the cut-off too, which is the start of an hour).
PRUNED = (
    Pruned("lookups", "scope, entry_id, hour", "hour < ?"),
    Pruned("miss_hours", "scope, query, hour", "hour < ?"),
    Pruned("misses", "scope, query", "last_seen < ?", in_seconds=True),
)


def _cut_off(table: Pruned, hour: int) -> int:
    return hour * HOUR if table.in_seconds else hour


async def count_old(tx: Tx, table: Pruned, *, before_hour: int) -> int:
    return await scalar(
        tx, f"SELECT count(*) FROM {table.table} WHERE {table.old}", (_cut_off(table, before_hour),)
    )


async def scopes(tx: Tx, table: Pruned) -> list[int]:
    return [int(row[0]) for row in await tx.fetch(f"SELECT DISTINCT scope FROM {table.table}")]


async def remove_old(tx: Tx, table: Pruned, *, scope: int, before_hour: int, batch: int) -> int:
    """Up to `batch` of one server's old rows removed (found by the server's index, so a batch
    reads only what it removes); how many. The row is checked again as it is removed: on
    PostgreSQL a row the bot's flush changed meanwhile (a missed search seen again) is read anew
    for the DELETE's own conditions, not the subquery's. (The unary `+` keeps SQLite finding the
    rows by their keys, not by scanning the server's old rows again for each batch.)"""
    cut_off = _cut_off(table, before_hour)
    return await tx.execute(
        f"DELETE FROM {table.table} WHERE ({table.key}) IN"
        f" (SELECT {table.key} FROM {table.table} WHERE scope = ? AND {table.old} LIMIT ?)"
        f" AND +{table.old}",
        (scope, cut_off, batch, cut_off),
    )
