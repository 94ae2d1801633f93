"""A bot-like process for test_process.py: stopped by SIGTERM, or killed outright.

process_scenario.py sigterm DB   record, say "ready", close the store on SIGTERM
process_scenario.py crash DB     record and flush forever, reporting each flushed total
process_scenario.py count LOCATION N SEED   record N lookups while the flusher runs, then close
"""

from __future__ import annotations

import asyncio
import signal
import sys

from bot.storage import Store


async def sigterm(path: str) -> None:
    store = await Store.open(path, flush_interval=3600)  # only close() will write
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    for i in range(10_000):
        store.record_lookup(i % 4, f"entry-{i % 25}")
    store.record_miss(1, "unwritten miss")
    print("ready", flush=True)
    await stop.wait()
    await store.close()


async def crash(path: str) -> None:
    store = await Store.open(path, flush_interval=0.05)
    flushed = 0
    while True:
        for i in range(500):
            store.record_lookup(i % 3, f"entry-{i % 11}")
        await store.flush()
        flushed += 500
        for _ in range(250):  # buffered, not yet written, when the kill comes
            store.record_lookup(1, "pending")
        print(f"flushed {flushed}", flush=True)
        # Blocks the event loop, background flusher included, until the test says go on.
        sys.stdin.readline()
        flushed += 250  # the next flush writes these too


async def count(location: str, n: int, seed: int) -> None:
    """One of several processes counting into one database at once (test_contract.py)."""
    store = await Store.open(location, flush_interval=0.05)
    for i in range(n):
        store.record_lookup(i % 5, f"entry-{(i * (seed + 1)) % 13}")
        if i % 500 == 0:
            await asyncio.sleep(0)  # let the background flusher run in between
    await store.close()
    print(f"counted {n}", flush=True)


if __name__ == "__main__":
    mode, db = sys.argv[1], sys.argv[2]
    if mode == "count":
        asyncio.run(count(db, int(sys.argv[3]), int(sys.argv[4])))
    else:
        asyncio.run(sigterm(db) if mode == "sigterm" else crash(db))
