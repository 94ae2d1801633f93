"""How long `Store.import_aliases` takes for a file of aliases, against another revision's.

    .venv/bin/python bench/alias_import_bench.py [--aliases 1000] [--rounds 3]
        [--baseline DIR] [--database-url URL]

Each round imports `--aliases` aliases (one server, ids of the bundled glossary) into a new
SQLite file (or, with `--database-url`, a new server id in a schema of its own in that
PostgreSQL database, dropped at the end: the audit log is append-only), as
`glossary-bot aliases import` writes them: one call, the in-write check on. `--baseline DIR` is
a checkout of another revision (`git archive 5542df1e | tar -x -C DIR`): its import runs in the
same rounds, interleaved with this tree's, each in a fresh process (the machine is shared: the
ratio of the two in one run is the figure, not either time). Per round and tree: wall and CPU
of the import alone; the last line is JSON (medians, ms an alias, and the ratio).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def child(count: int, url: str | None) -> dict[str, float]:
    """One import in this process (its `sys.path` set to the tree measured)."""
    from bot.glossary import load_glossary
    from bot.glossary.keys import normalize
    from bot.storage import AliasImport, Store

    ids = [entry.id for entry in load_glossary()]
    scope = random.randrange(10**9, 10**10)  # a new server each round, on PostgreSQL too
    items = [
        AliasImport(scope, normalize(f"benchalias {i}"), f"benchalias {i}", ids[i % len(ids)])
        for i in range(count)
    ]

    async def run(where: str) -> dict[str, float]:
        store = await Store.open(where)
        try:
            wall, cpu = time.perf_counter(), time.process_time()
            results = await store.import_aliases(items, check=lambda item, stored: None)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            assert sum(r.status.name == "ADDED" for r in results) == count, "not all added"
        finally:
            await store.close()
        return {"wall": wall, "cpu": cpu}

    if url:
        return asyncio.run(run(url))
    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(run(str(Path(folder) / "bench.db")))


def measure(tree: Path, count: int, url: str | None) -> dict[str, float]:
    code = (
        f"import sys, json; sys.path.insert(0, {str(tree)!r}); "
        f"sys.path.insert(1, {str(ROOT / 'bench')!r}); from alias_import_bench import child; "
        f"print(json.dumps(child({count}, {url!r})))"
    )
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=tree, capture_output=True, text=True, check=True
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def _admin(url: str, sql: str) -> None:
    import asyncpg

    async def run() -> None:
        admin = await asyncpg.connect(url)
        try:
            await admin.execute(sql)
        finally:
            await admin.close()

    asyncio.run(run())


def own_schema(url: str) -> tuple[str, str]:
    """A new schema in `url`'s database: its name, and the URL whose connections use it."""
    schema = f"alias_import_bench_{os.getpid()}"
    _admin(url, f"CREATE SCHEMA {schema}")
    joiner = "&" if "?" in url else "?"
    return schema, f"{url}{joiner}search_path={schema}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--aliases", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="a checkout of the revision to compare")
    parser.add_argument("--database-url", help="PostgreSQL (default: a new SQLite file a round)")
    args = parser.parse_args()
    trees = {"this": ROOT} | ({"baseline": args.baseline.resolve()} if args.baseline else {})
    times: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    schema, url = own_schema(args.database_url) if args.database_url else ("", None)
    try:
        for round_ in range(args.rounds):
            for name, tree in trees.items() if round_ % 2 == 0 else reversed(trees.items()):
                took = measure(tree, args.aliases, url)
                times[name].append(took)
                print(
                    f"round {round_ + 1} {name}: wall {took['wall']:.3f} s, CPU {took['cpu']:.3f} s"
                )
    finally:
        if schema:
            _admin(args.database_url, f"DROP SCHEMA {schema} CASCADE")
    summary: dict[str, float] = {"aliases": args.aliases}
    for name, runs in times.items():
        for what in ("wall", "cpu"):
            median = statistics.median(r[what] for r in runs)
            summary[f"{name}_{what}_s"] = round(median, 3)
            summary[f"{name}_{what}_ms_an_alias"] = round(1000 * median / args.aliases, 3)
    if args.baseline:
        for what in ("wall", "cpu"):
            ratio = summary[f"this_{what}_s"] / summary[f"baseline_{what}_s"]
            summary[f"{what}_ratio"] = round(ratio, 3)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
