"""`Store.ever_a_term` on a long term log, before and after migration 10 (the index by
(scope, term_id), tidy76): milliseconds a read, and the upgrade's own seconds.

Run: OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/tidy76_term_log_bench.py [--rows 300000]
                                             [--reads 50] [--database-url postgresql://...]

A database at schema 9 (the bot's own migrations 1-9) gets one server's term log of `--rows`
entries (an id per 3 entries, texts of ~600 bytes as a term's JSON) and 2,000 entries each of
nine other servers; then `ever_a_term` is read for an id the server lacks (the button's usual
case: a bundled entry a GLOSSARY_PATHS change left out) and for one it has, the median of
`--reads` reads each, through a store as the bot reads them. The store's open applies
migration 10 (timed: the index made over the rows there); then the reads without its index
(dropped: schema 9's plan) and with it (made again by migration 10's SQL). SQLite always; PostgreSQL too with a URL (or TEST_DATABASE_URL set), in a fresh
schema dropped afterwards. The last line is one JSON object: the figures and the ratios
(before / after).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402

from bot.storage import Store  # noqa: E402
from bot.storage.migrations import migrations  # noqa: E402
from bot.storage.postgres.migrate import VERSION_TABLE  # noqa: E402
from bot.storage.sqlite.migrate import APPLICATION_ID  # noqa: E402

SERVER = 1
OTHERS = range(2, 11)
TEXT = json.dumps({"title": "Zorbquux", "definition": "x" * 560, "category": "Fundamentals"})
INSERT = (
    "INSERT INTO term_audit_log (at, scope, actor_id, action, term_id, before, after)"
    " VALUES ({}, {}, 1, 'term_edit', {}, {}, {})"
)


def _rows(rows: int) -> list[tuple[Any, ...]]:
    log = [(n, SERVER, f"term-{n // 3}", TEXT, TEXT) for n in range(rows)]
    log += [(n, scope, f"term-{n // 3}", TEXT, TEXT) for scope in OTHERS for n in range(2_000)]
    return log


async def _reads(store: Store, reads: int) -> dict[str, float]:
    """Median milliseconds of `ever_a_term` for an id the server lacks, and one it has."""
    out: dict[str, float] = {}
    for case, term_id, expected in (("lacking", "kv-cache", False), ("had", "term-50000", True)):
        times = []
        for _ in range(reads):
            start = time.perf_counter()
            assert await store.ever_a_term(SERVER, term_id) is expected
            times.append((time.perf_counter() - start) * 1000)
        out[case] = round(statistics.median(times), 3)
    return out


def _sqlite_at_9(path: Path, rows: int) -> None:
    conn = sqlite3.connect(path)
    for migration in migrations("sqlite")[:9]:
        conn.executescript(migration.sql)
    conn.execute("PRAGMA user_version = 9")
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.executemany(INSERT.format("?", "?", "?", "?", "?"), _rows(rows))
    conn.commit()
    conn.execute("ANALYZE")  # as a long-running database's `PRAGMA optimize` would have
    conn.close()


async def _postgres_at_9(url: str, rows: int) -> None:
    pg = await asyncpg.connect(url)
    try:
        async with pg.transaction():
            await pg.execute(f"CREATE TABLE {VERSION_TABLE} (version INTEGER NOT NULL)")
            await pg.execute(f"INSERT INTO {VERSION_TABLE} (version) VALUES (9)")
            for migration in migrations("postgres")[:9]:
                await pg.execute(migration.sql)
            await pg.executemany(INSERT.format("$1", "$2", "$3", "$4", "$5"), _rows(rows))
        await pg.execute("VACUUM ANALYZE term_audit_log")  # as autovacuum would have
    finally:
        await pg.close()


async def _execute(location: str, sql: str) -> None:
    if location.startswith("postgresql"):
        pg = await asyncpg.connect(location)
        try:
            await pg.execute(sql)
        finally:
            await pg.close()
        return
    with sqlite3.connect(location) as conn:
        conn.execute(sql)


async def _reads_of(location: str, reads: int) -> dict[str, float]:
    store = await Store.open(location, flush_interval=None)
    try:
        return await _reads(store, reads)
    finally:
        await store.close()


async def _measure(location: str, reads: int) -> dict[str, Any]:
    """The upgrade from 9 timed; then the reads without migration 10's index (dropped: the
    schema 9 the bots ran on) and with it (made again by migration 10's own SQL)."""
    start = time.perf_counter()
    await (await Store.open(location, flush_interval=None)).close()  # migration 10 applied
    upgrade = round(time.perf_counter() - start, 2)
    await _execute(location, "DROP INDEX term_audit_log_by_term")
    before = await _reads_of(location, reads)
    dialect = "postgres" if location.startswith("postgresql") else "sqlite"
    await _execute(location, migrations(dialect)[9].sql.split("\n")[-2])
    after = await _reads_of(location, reads)
    return {
        "before_ms": before,
        "after_ms": after,
        "upgrade_s": upgrade,
        "ratio_before_over_after": {
            case: round(before[case] / max(after[case], 1e-3), 1) for case in before
        },
    }


def _with_schema(url: str, schema: str) -> str:
    parts = urlsplit(url)
    items = [(k, v) for k, v in parse_qsl(parts.query) if k != "search_path"]
    return urlunsplit(parts._replace(query=urlencode([*items, ("search_path", schema)])))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=300_000)
    parser.add_argument("--reads", type=int, default=50)
    parser.add_argument("--database-url", default=os.environ.get("TEST_DATABASE_URL", ""))
    args = parser.parse_args()
    figures: dict[str, Any] = {"rows": args.rows, "reads": args.reads}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "glossary-bot.db"
        _sqlite_at_9(path, args.rows)
        figures["sqlite"] = await _measure(str(path), args.reads)
        print("sqlite", figures["sqlite"], flush=True)
    if args.database_url:
        schema = f"bench_{uuid.uuid4().hex[:12]}"
        admin = await asyncpg.connect(args.database_url)
        try:
            await admin.execute(f"CREATE SCHEMA {schema}")
            url = _with_schema(args.database_url, schema)
            await _postgres_at_9(url, args.rows)
            figures["postgres"] = await _measure(url, args.reads)
            print("postgres", figures["postgres"], flush=True)
        finally:
            await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            await admin.close()
    print(json.dumps(figures))


if __name__ == "__main__":
    asyncio.run(main())
