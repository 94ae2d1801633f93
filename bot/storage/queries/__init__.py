"""The store's SQL, written once for every backend: portable SQL with `?` placeholders, run
through `bot.storage.backend.Tx`. One module per family of tables; each function runs inside
the caller's transaction."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ..backend import Tx

# Far below every backend's limit on parameters, and keeps statements short.
CHUNK = 500


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


def marks(values: Sequence[Any]) -> str:
    """`?, ?, ?`: one placeholder per value, for an IN list."""
    return ",".join("?" * len(values))


def chunks(items: Sequence[str]) -> Iterator[list[str]]:
    for start in range(0, len(items), CHUNK):
        yield list(items[start : start + CHUNK])


async def scalar(tx: Tx, sql: str, params: Sequence[Any] = ()) -> int:
    """The first column of the first row as an int (0 for none, NULL, or no row).

    int(): PostgreSQL's sum() of integers is a numeric.
    """
    row = await tx.fetchrow(sql, params)
    return int(row[0]) if row and row[0] is not None else 0
