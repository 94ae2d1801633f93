"""`glossary-bot migrate-db` of a database a bot has filled for a year: seconds and peak memory
of this checkout's copy against a baseline's (another commit's code), in the same run.

Run: .venv/bin/python bench/migrate_bench.py [--servers 300] [--days 365] [--baseline REF]
                                             [--database-url postgresql://...] [--keep FILE]
                                             [--only sqlite|postgres] [--prune-months N]

The year is built once (default: 300 servers each asking about 3 entries an hour, and 100
missed searches a server with an hour each: 7.9 million count rows, about 630 MB, as the
seventeenth outside round measured), then copied by each version, into a new SQLite file and,
with a PostgreSQL URL (or TEST_DATABASE_URL set), into a fresh schema dropped afterwards. Each
copy is `python -m bot.cli migrate-db` in a process of its own: wall seconds, and its peak RSS
from wait4. The baseline's code is `git archive REF bot` unpacked into a temporary folder. The
last line printed is one JSON object with the figures and the ratios (this checkout / baseline).
Then `prune` (this checkout's) of a copy of the SQLite year, all but its last N months: seconds,
rows removed, and its longest batch, a transaction a running bot's flush would wait for.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402

from bot.storage import Store  # noqa: E402
from bot.storage.periods import from_unix  # noqa: E402

NOW_HOUR = 494_000  # an hour in 2026: the year ends here


async def build_year(path: Path, servers: int, days: int) -> dict[str, int]:
    """The schema by the bot's own migrations, then rows written straight into the file."""
    await (await Store.open(path, flush_interval=None)).close()
    hours = range(NOW_HOUR - days * 24, NOW_HOUR)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = OFF")
    lookups = 0
    for scope in range(1, servers + 1):
        # 3 of 40 entries an hour, turning over through the day
        rows = [
            (scope, f"entry-{(hour + k * 13 + scope) % 40}", hour, 1 + (hour + scope) % 4)
            for hour in hours
            for k in range(3)
        ]
        conn.executemany(
            "INSERT INTO lookups (scope, entry_id, hour, count) VALUES (?,?,?,?)", rows
        )
        misses = [
            (scope, f"zorblax {n}", 1, (hours[0] + n) * 3600, (hours[0] + n) * 3600)
            for n in range(100)
        ]
        conn.executemany(
            "INSERT INTO misses (scope, query, count, first_seen, last_seen) VALUES (?,?,?,?,?)",
            misses,
        )
        conn.executemany(
            "INSERT INTO miss_hours (scope, query, hour, count) VALUES (?,?,?,1)",
            [(scope, query, first // 3600) for scope, query, _, first, _ in misses],
        )
        conn.commit()
        lookups += len(rows)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return {"lookup_rows": lookups}


def baseline_code(ref: str, folder: Path) -> Path:
    """The `bot` package as it was at `ref`, unpacked under `folder`."""
    archive = subprocess.run(
        ["git", "archive", ref, "bot"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def timed_copy(code: Path, source: Path, target: str) -> dict[str, object]:
    """One migrate-db in a process of its own: seconds, peak RSS (MB), exit code, its line.
    Run by `measure` in a fresh process whose only child it is: RUSAGE_CHILDREN's peak is its."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
    env["PYTHONPATH"] = str(code)
    env["OPENBLAS_NUM_THREADS"] = "1"
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "migrate-db", "--from", str(source), "--to", target],
        cwd=code,
        env=env,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {
        "seconds": round(seconds, 1),
        "peak_rss_mb": round(peak),
        "exit": done.returncode,
        "said": (done.stdout.strip() or done.stderr.strip())[-200:],
    }


async def timed_prune(path: Path, before_hour: int) -> dict[str, object]:
    """`Store.prune` of the year (a copy of it) from `before_hour`: seconds in all, rows removed
    and the longest gap between two batches (one transaction a running bot would wait for)."""
    store = await Store.open(path, flush_interval=None)
    gaps: list[float] = []  # between two batches of a table: one write transaction each
    last = time.perf_counter()

    def batch_done(table: str, removed: int) -> None:
        nonlocal last
        now = time.perf_counter()
        if removed:  # not the table's start, which follows the read of its servers
            gaps.append(now - last)
        last = now

    started = time.perf_counter()
    try:
        removed = await store.prune(from_unix(before_hour * 3600), told=batch_done)
    finally:
        await store.close()
    return {
        "seconds": round(time.perf_counter() - started, 1),
        "removed": removed,
        "batches": len(gaps),
        "longest_batch_ms": round(max(gaps) * 1000),
        "median_batch_ms": round(statistics.median(gaps) * 1000),
    }


def in_schema(url: str, schema: str) -> str:
    parts = urlsplit(url)
    query = [*parse_qsl(parts.query), ("search_path", schema)]
    return urlunsplit(parts._replace(query=urlencode(query)))


async def fresh_schema(url: str) -> str:
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
    finally:
        await admin.close()
    return schema


async def drop_schema(url: str, schema: str) -> None:
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    finally:
        await admin.close()


def measure(code: Path, source: Path, target: str) -> dict[str, object]:
    """`timed_copy` in a child of its own, so that its RUSAGE_CHILDREN peak is this copy's."""
    probe = subprocess.run(
        [sys.executable, __file__, "--one-copy", str(code), str(source), target],
        capture_output=True,
        text=True,
    )
    return dict(json.loads(probe.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--servers", type=int, default=300)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--baseline", default="77687ee", help="git ref of the code to compare")
    parser.add_argument("--database-url", default=os.environ.get("TEST_DATABASE_URL", ""))
    parser.add_argument("--keep", type=Path, help="build the year here and keep it (reused)")
    parser.add_argument("--only", choices=["sqlite", "postgres"], help="one target kind")
    parser.add_argument(
        "--prune-months", type=int, default=6, help="then prune a copy of all but the last N months"
    )
    parser.add_argument("--one-copy", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one_copy:
        code, source, target = args.one_copy
        print(json.dumps(timed_copy(Path(code), Path(source), target)))
        return

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        source = args.keep or folder / "year.db"
        if source.exists():
            built = {"mb": round(source.stat().st_size / 1e6), "reused": str(source)}
        else:
            started = time.perf_counter()
            built = asyncio.run(build_year(source, args.servers, args.days))
            built["mb"] = round(source.stat().st_size / 1e6)
            built["build_seconds"] = round(time.perf_counter() - started)
        print(f"year: {built}", flush=True)
        versions = {"baseline": baseline_code(args.baseline, folder / "baseline"), "this": ROOT}
        results: dict[str, dict[str, object]] = {}
        kinds = [args.only] if args.only else ["sqlite", "postgres"]
        for kind in kinds:
            if kind == "postgres" and not args.database_url:
                continue
            for name, code in versions.items():
                if kind == "sqlite":
                    target = str(folder / f"{name}-copy.db")
                    results[f"{kind} {name}"] = measure(code, source, target)
                else:
                    schema = asyncio.run(fresh_schema(args.database_url))
                    try:
                        url = in_schema(args.database_url, schema)
                        results[f"{kind} {name}"] = measure(code, source, url)
                    finally:
                        asyncio.run(drop_schema(args.database_url, schema))
                print(f"{kind} {name}: {results[f'{kind} {name}']}", flush=True)
        ratios = {}
        for kind in kinds:
            this, base = results.get(f"{kind} this"), results.get(f"{kind} baseline")
            if this and base:
                ratios[kind] = {
                    "seconds": round(float(this["seconds"]) / float(base["seconds"]), 2),
                    "peak_rss": round(float(this["peak_rss_mb"]) / float(base["peak_rss_mb"]), 3),
                }
        if args.prune_months:
            copy = folder / "pruned.db"
            shutil.copyfile(source, copy)
            cut_off = NOW_HOUR - args.prune_months * 30 * 24
            results["prune sqlite"] = asyncio.run(timed_prune(copy, cut_off))
            print(f"prune sqlite: {results['prune sqlite']}", flush=True)
        print(json.dumps({"year": built, "baseline": args.baseline, **results, "ratios": ratios}))


if __name__ == "__main__":
    main()
