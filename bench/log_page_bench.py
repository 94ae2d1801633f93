"""A `/term log` page from a big server's log (review54): the real query functions' SQL on a
SQLite file made by the real migrations, against review53's order with no index for it (the
V8 index dropped) and against the order by id before review53, in one run. Ratios are to the
order by id.

    .venv/bin/python bench/log_page_bench.py [--entries 30000] [--text 3000] [--runs 5]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.storage import Store
from bot.storage.queries import terms as term_queries

BY_ID = (
    "SELECT id, at, scope, actor_id, action, term_id, before, after FROM term_audit_log"
    " WHERE scope = ? AND id < ? ORDER BY id DESC LIMIT ?"
)


class _Recording:
    def __init__(self, cursor_at: int) -> None:
        self.asked: list[tuple[str, tuple[Any, ...]]] = []
        self.cursor_at = cursor_at  # the time of the cursor's entry, as the database says

    async def fetch(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        if sql.startswith("SELECT at "):  # the cursor's time: not a page
            return [(self.cursor_at,)]
        self.asked.append((sql, tuple(params)))
        return []


async def _queries(cursor: int, cursor_at: int) -> list[tuple[str, tuple[Any, ...]]]:
    tx = _Recording(cursor_at)
    await term_queries.term_audit_log(tx, scope=7, limit=11)  # type: ignore[arg-type]
    await term_queries.term_audit_log(tx, scope=7, limit=11, older_than=cursor)  # type: ignore[arg-type]
    return tx.asked


def _median(db: sqlite3.Connection, sql: str, params: tuple[Any, ...], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        db.execute(sql, params).fetchall()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=30_000)
    parser.add_argument("--text", type=int, default=3_000, help="characters before and after")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.db"

        async def made() -> None:
            store = await Store.open(path)
            await store.close()

        asyncio.run(made())
        body = "x" * args.text
        with contextlib.closing(sqlite3.connect(path)) as db:
            db.executemany(
                "INSERT INTO term_audit_log (at, scope, actor_id, action, term_id, before, after)"
                " VALUES (?, 7, 1, 'term_import', ?, ?, ?)",
                ((1_700_000_000 + i // 50, f"t{i}", body, body) for i in range(args.entries)),
            )
            db.commit()
            middle = args.entries // 2
            (first, first_params), (later, later_params) = asyncio.run(
                _queries(
                    middle,
                    db.execute("SELECT at FROM term_audit_log WHERE id = ?", (middle,)).fetchone()[
                        0
                    ],
                )
            )
            rows: list[tuple[str, float]] = [
                ("by id (before review53), first page", 0.0),
                ("by time, V8 index, first page", _median(db, first, first_params, args.runs)),
                ("by time, V8 index, a middle page", _median(db, later, later_params, args.runs)),
            ]
            baseline = _median(db, BY_ID, (7, 2**62, 11), args.runs)
            rows[0] = (rows[0][0], baseline)
            db.execute("DROP INDEX term_audit_log_by_time")
            rows.append(
                ("by time, no index (review53)", _median(db, first, first_params, args.runs))
            )
        size = args.entries * 2 * args.text / 1e6
        print(f"{args.entries} entries, about {size:.0f} MB of texts; median of {args.runs}")
        for name, seconds in rows:
            print(f"{name:40} {seconds * 1000:9.2f} ms  x{seconds / baseline:8.1f}")


if __name__ == "__main__":
    main()
