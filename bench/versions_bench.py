"""One server's change beside many cached full servers: what the cache reads again.

    .venv/bin/python bench/versions_bench.py [--servers 10] [--terms 2000] [--aliases 1000]

In process, on a real SQLite file: `--servers` servers at the caps (bench/scale_bench.py's
`fill`), each read and indexed once by one `ServerCache` (the bundled index without its meaning
stage: embedding is not what is measured). Then, ROUNDS times, another connection (another
process) removes one alias of server 0, and the cache brings every server current as requests
would (`check`, then `local` of each, waiting for the reads):

- per server (versions51): the versions of the cached servers are read, and only server 0 is
  read again;
- all stale (main before versions51, emulated in the same run): every cached server is marked
  stale, as one database-wide version made them, and each is read again.

CPU seconds of the process (threads included: the indexing runs off the loop) and rows read,
per change; the ratio is all-stale over per-server. Also the RSS a full server adds (without
vectors) and `SERVER_CACHE_MB`'s estimate of it. The last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scale_bench import fill  # noqa: E402
from bot.discord_app.alias_cache import ServerCache  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.storage import Store  # noqa: E402

ROUNDS = 5
FIRST = 1_000


async def change_and_catch_up(
    cache: ServerCache, db: Path, guilds: list[int], key: str, *, all_stale: bool
) -> float:
    """CPU seconds to see server 0's change (one alias removed: it is at the cap) and bring
    every server current."""
    other = await Store.open(db, flush_interval=None)
    try:
        assert await other.remove_alias(guilds[0], key, actor_id=1) is not None
    finally:
        await other.close()
    started = time.process_time()
    await cache.check()
    if all_stale:  # what one database-wide version did: every cached server stale
        for guild in guilds:
            cache._servers[guild].version = -1  # read at a version older than any
    for guild in guilds:
        await cache.local(guild, patient=True)
        while guild in cache._loading:  # a stale server answers meanwhile
            await asyncio.shield(cache._loading[guild][1])
    return time.process_time() - started


async def measure(servers: int, terms: int, aliases: int) -> dict[str, Any]:
    glossary = load_glossary()
    index = SearchIndex.build(glossary, semantic=False)
    guilds = [FIRST + n for n in range(servers)]
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        await fill(db, guilds, terms, aliases)
        store = await Store.open(db, flush_interval=None)
        reads: Counter[str] = Counter()
        real_terms = store.terms

        async def counted(scope: int) -> Any:
            rows = await real_terms(scope)
            reads["rows"] += len(rows)
            return rows

        store.terms = counted  # type: ignore[method-assign]
        try:
            cache = ServerCache(lambda: store, lambda: (glossary, index), read_timeout=60.0)
            await cache.check()
            rss = rss_mib()
            for guild in guilds:
                await cache.local(guild, patient=True)
            result: dict[str, Any] = {"servers": servers, "terms": terms, "aliases": aliases}
            # What a full server holds (no meaning stage here: the bot's 23 MiB has vectors),
            # beside the estimate SERVER_CACHE_MB is counted in.
            result["rss_mib_per_server"] = round((rss_mib() - rss) / servers, 1)
            result["estimate_mib_per_server"] = round(cache.kept_weight() / servers / 2**20, 1)
            keys = iter(sorted(await store.aliases(guilds[0])))
            for name, all_stale in (("per_server", False), ("all_stale", True)) * 2:
                seconds, rows = [], []
                for _ in range(ROUNDS):
                    before = reads["rows"]
                    seconds.append(
                        await change_and_catch_up(
                            cache, db, guilds, next(keys), all_stale=all_stale
                        )
                    )
                    rows.append(reads["rows"] - before)
                result[name] = {
                    "cpu_s_median": round(statistics.median(seconds), 4),
                    "term_rows_read": max(rows),
                }
                print(name, result[name], flush=True)
            result["ratio_cpu"] = round(
                result["all_stale"]["cpu_s_median"] / result["per_server"]["cpu_s_median"], 1
            )
        finally:
            await store.close()
    return result


def rss_mib() -> float:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--servers", type=int, default=10)
    parser.add_argument("--terms", type=int, default=2000)
    parser.add_argument("--aliases", type=int, default=1000)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(measure(args.servers, args.terms, args.aliases))))


if __name__ == "__main__":
    main()
