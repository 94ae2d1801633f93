"""How many lookups per second the store can count, against one INSERT per lookup.

Run: .venv/bin/python bench/storage_bench.py [--lookups N] [--flush-every N] [--naive-seconds S]
                                              [--database-url postgresql://...]

Both runs use a real SQLite file in a temporary folder, WAL mode, synchronous=NORMAL. With a
PostgreSQL URL (or TEST_DATABASE_URL set) the same two runs follow on PostgreSQL, each in a
schema of its own that is dropped afterwards. The last line printed is one JSON object with the
figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

try:
    from bot.storage import Store
except ModuleNotFoundError:  # a checkout that was never installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bot.storage import Store

import aiosqlite
import asyncpg

TARGET = 20_000  # lookups per second the store must sustain (issue 5)
SCOPES = 100
ENTRIES = 350

UPSERT = """
INSERT INTO lookups (scope, entry_id, hour, count) VALUES (?, ?, ?, 1)
ON CONFLICT (scope, entry_id, hour) DO UPDATE SET count = count + 1
"""


def workload(n: int) -> list[tuple[int, str]]:
    """A repeatable spread over servers and entries, built before the clock starts."""
    return [((i * 7919) % SCOPES + 1, f"entry-{(i * 104729) % ENTRIES}") for i in range(n)]


async def buffered(location: str | Path, lookups: int, flush_every: int) -> dict[str, float]:
    pairs = workload(min(lookups, 50_000))
    store = await Store.open(location, flush_interval=None)
    flush_times: list[float] = []
    record_time = 0.0
    started = time.perf_counter()
    try:
        done = 0
        while done < lookups:
            chunk = min(flush_every, lookups - done)
            t0 = time.perf_counter()
            for i in range(done, done + chunk):
                scope, entry = pairs[i % len(pairs)]
                store.record_lookup(scope, entry)
            record_time += time.perf_counter() - t0
            done += chunk
            t0 = time.perf_counter()
            if not await store.flush():
                raise RuntimeError("flush failed")
            flush_times.append(time.perf_counter() - t0)
        elapsed = time.perf_counter() - started
        stored = (await store.stats(None)).total_lookups
        # Reads that merge the buffer: what a stats view or a card footer costs.
        for scope, entry in pairs[:5000]:
            store.record_lookup(scope, entry)
        read_times = []
        for scope, entry in pairs[:200]:
            t0 = time.perf_counter()
            await store.lookup_count(scope, entry)
            await store.top_terms(scope, None, 10)
            read_times.append(time.perf_counter() - t0)
    finally:
        await store.close()
    if stored != lookups:
        raise RuntimeError(f"counted {stored}, recorded {lookups}")
    return {
        "lookups_per_s": lookups / elapsed,
        "record_ns_per_call": record_time / lookups * 1e9,
        "flushes": len(flush_times),
        "flush_ms_mean": statistics.mean(flush_times) * 1000,
        "flush_ms_max": max(flush_times) * 1000,
        "read_ms_p50": statistics.median(read_times) * 1000,
    }


async def naive(path: Path, seconds: float) -> dict[str, float]:
    """The obvious design: one committed upsert per lookup, awaited by the command."""
    store = await Store.open(path, flush_interval=None)  # same schema and file settings
    await store.close()
    pairs = workload(50_000)
    db = await aiosqlite.connect(path, isolation_level=None)
    try:
        await db.execute("PRAGMA synchronous = NORMAL")
        hour = int(time.time()) // 3600
        done = 0
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            for scope, entry in pairs[done % len(pairs) : done % len(pairs) + 100]:
                await db.execute(UPSERT, (scope, entry, hour))
            done += 100
        elapsed = time.perf_counter() - started
    finally:
        await db.close()
    return {"lookups": done, "lookups_per_s": done / elapsed}


async def naive_postgres(url: str, seconds: float) -> dict[str, float]:
    """The obvious design on PostgreSQL: one committed upsert per lookup."""
    store = await Store.open(url, flush_interval=None)  # the same schema
    await store.close()
    pairs = workload(50_000)
    conn = await asyncpg.connect(url)
    sql = UPSERT.replace("?, ?, ?", "$1, $2, $3").replace(
        "count = count + 1", "count = lookups.count + 1"
    )
    try:
        hour = int(time.time()) // 3600
        done = 0
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            for scope, entry in pairs[done % len(pairs) : done % len(pairs) + 100]:
                await conn.execute(sql, scope, entry, hour)
            done += 100
        elapsed = time.perf_counter() - started
    finally:
        await conn.close()
    return {"lookups": done, "lookups_per_s": done / elapsed}


def in_schema(url: str, schema: str) -> str:
    parts = urlsplit(url)
    query = [*parse_qsl(parts.query), ("search_path", schema)]
    return urlunsplit(parts._replace(query=urlencode(query)))


async def on_postgres(
    url: str, lookups: int, flush_every: int, seconds: float
) -> tuple[dict[str, float], dict[str, float]]:
    """Both runs on PostgreSQL, each in a fresh schema dropped afterwards."""
    schemas = [f"bench_{uuid.uuid4().hex[:12]}" for _ in range(2)]
    admin = await asyncpg.connect(url)
    try:
        for schema in schemas:
            await admin.execute(f"CREATE SCHEMA {schema}")
        fast = await buffered(in_schema(url, schemas[0]), lookups, flush_every)
        slow = await naive_postgres(in_schema(url, schemas[1]), seconds)
    finally:
        for schema in schemas:
            await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()
    return fast, slow


def report(
    backend: str, fast: dict[str, float], slow: dict[str, float], args: argparse.Namespace
) -> dict[str, object]:
    speedup = fast["lookups_per_s"] / slow["lookups_per_s"]
    print(
        f"{backend}, buffered store: {args.lookups:,} lookups over {SCOPES} servers x {ENTRIES} "
        f"entries, a flush every {args.flush_every:,}"
    )
    print(
        f"  {fast['lookups_per_s']:,.0f} lookups/s including flushes "
        f"({fast['record_ns_per_call']:.0f} ns per record_lookup)"
    )
    print(
        f"  {fast['flushes']:.0f} flushes: mean {fast['flush_ms_mean']:.1f} ms, "
        f"max {fast['flush_ms_max']:.1f} ms"
    )
    print(
        f"  read with 5,000 buffered (lookup_count + top_terms): p50 {fast['read_ms_p50']:.2f} ms"
    )
    print(
        f"{backend}, naive, one committed upsert per lookup: {slow['lookups_per_s']:,.0f} lookups/s "
        f"({slow['lookups']:,.0f} in {args.naive_seconds:.0f} s)"
    )
    print(
        f"{backend} ratio: {speedup:,.0f}x; target {TARGET:,}/s "
        f"{'met' if fast['lookups_per_s'] >= TARGET else 'NOT met'}"
    )
    return {
        "buffered_lookups_per_s": round(fast["lookups_per_s"]),
        "record_ns_per_call": round(fast["record_ns_per_call"]),
        "flushes": int(fast["flushes"]),
        "flush_ms_mean": round(fast["flush_ms_mean"], 2),
        "flush_ms_max": round(fast["flush_ms_max"], 2),
        "read_ms_p50": round(fast["read_ms_p50"], 3),
        "naive_lookups_per_s": round(slow["lookups_per_s"]),
        "speedup": round(speedup, 1),
        "meets_target": fast["lookups_per_s"] >= TARGET,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lookups", type=int, default=1_000_000)
    parser.add_argument("--flush-every", type=int, default=TARGET, help="lookups between flushes")
    parser.add_argument("--naive-seconds", type=float, default=3.0)
    parser.add_argument(
        "--database-url",
        default=os.environ.get("TEST_DATABASE_URL") or None,
        help="a PostgreSQL database to run on too (default: $TEST_DATABASE_URL)",
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        fast = asyncio.run(buffered(Path(folder) / "buffered.db", args.lookups, args.flush_every))
        slow = asyncio.run(naive(Path(folder) / "naive.db", args.naive_seconds))
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}"
    )
    figures: dict[str, object] = {
        "lookups": args.lookups,
        "flush_every": args.flush_every,
        "target_lookups_per_s": TARGET,
        "sqlite": report("SQLite", fast, slow, args),
        "sqlite_version": sqlite3.sqlite_version,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
    }
    if args.database_url:
        pg_fast, pg_slow = asyncio.run(
            on_postgres(args.database_url, args.lookups, args.flush_every, args.naive_seconds)
        )
        figures["postgres"] = report("PostgreSQL", pg_fast, pg_slow, args)
    else:
        print("PostgreSQL: not run (pass --database-url or set TEST_DATABASE_URL)")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
