"""Lookup and miss counting: buffered, flushed, and read back exactly."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest

from bot.storage import Store, period_start

from .conftest import START, FakeClock, OpenStore, query, stored_lookups


async def test_a_thousand_concurrent_lookups_are_counted_exactly(
    store: Store, db_path: Path
) -> None:
    expected: Counter[tuple[int, str]] = Counter()

    async def lookup(i: int) -> None:
        await asyncio.sleep(0)  # let the tasks (and the flushes below) interleave
        store.record_lookup(i % 3, f"entry-{i % 7}")

    for i in range(1000):
        expected[(i % 3, f"entry-{i % 7}")] += 1
    flushes = [store.flush() for _ in range(5)]
    await asyncio.gather(*(lookup(i) for i in range(1000)), *flushes)
    assert await store.flush()

    rows = query(db_path, "SELECT scope, entry_id, sum(count) FROM lookups GROUP BY 1, 2")
    assert Counter({(scope, entry): n for scope, entry, n in rows}) == expected
    assert stored_lookups(db_path) == 1000


async def test_reads_include_counts_not_yet_written(store: Store, db_path: Path) -> None:
    for _ in range(3):
        store.record_lookup(1, "kv-cache")
    store.record_lookup(1, "lora")
    store.record_miss(1, "kvc")

    assert stored_lookups(db_path) == 0  # nothing written yet
    assert await store.total_lookups(1) == 4
    assert await store.lookup_count(1, "kv-cache") == 3
    assert await store.top_terms(1) == [("kv-cache", 3), ("lora", 1)]
    assert [(m.query, m.count) for m in await store.top_misses(1)] == [("kvc", 1)]

    assert await store.flush()
    store.record_lookup(1, "lora")
    store.record_lookup(1, "lora")
    store.record_lookup(1, "lora")
    # Half written, half buffered: the sum of both, no double counting.
    assert await store.total_lookups(1) == 7
    assert await store.top_terms(1) == [("lora", 4), ("kv-cache", 3)]
    assert await store.lookup_count(1, "lora") == 4


async def test_reads_during_a_flush_never_double_count_or_miss(store: Store) -> None:
    total = 0
    for round_ in range(20):
        for i in range(50 + round_):
            store.record_lookup(5, f"e{i % 9}")
            store.record_miss(5, f"q{i % 4}")
            total += 1
        # The flush and the reads interleave at every await; every read must see the total.
        results = await asyncio.gather(
            store.total_lookups(5),
            store.flush(),
            store.total_lookups(5),
            store.top_terms(5, limit=100),
            store.total_lookups(5),
            store.top_misses(5, limit=100),
        )
        assert results[0] == results[2] == results[4] == total
        assert sum(n for _, n in results[3]) == total
        assert sum(m.count for m in results[5]) == total


async def test_close_writes_what_is_buffered(open_store: OpenStore, db_path: Path) -> None:
    store = await open_store()
    for _ in range(42):
        store.record_lookup(7, "rag")
    store.record_miss(7, "retrieval thing")
    await store.close()

    assert stored_lookups(db_path, 7) == 42
    assert query(db_path, "SELECT query, count FROM misses") == [("retrieval thing", 1)]
    await store.close()  # twice is fine


async def test_restart_keeps_counts_misses_and_aliases(
    open_store: OpenStore, clock: FakeClock
) -> None:
    store = await open_store()
    store.record_lookup(1, "kv-cache")
    store.record_lookup(1, "kv-cache")
    store.record_miss(1, "kvc")
    clock.advance(minutes=5)
    store.record_miss(1, "kvc")
    await store.add_alias(1, "paged attn", "Paged attn", "pagedattention", actor_id=9)
    await store.close()

    again = await open_store()
    assert await again.total_lookups(1) == 2
    assert await again.lookup_count(1, "kv-cache") == 2
    (miss,) = await again.top_misses(1)
    assert (miss.query, miss.count) == ("kvc", 2)
    assert miss.first_seen == START
    assert miss.last_seen == START + timedelta(minutes=5)
    assert await again.aliases(1) == {"paged attn": "pagedattention"}


async def test_periods_with_an_injected_clock(store: Store, clock: FakeClock) -> None:
    now = clock.now
    for age, n in [(timedelta(days=40), 1), (timedelta(days=5), 2), (timedelta(hours=2), 3)]:
        clock.now = now - age
        for _ in range(n):
            store.record_lookup(1, "old" if age.days >= 5 else "new")
            store.record_miss(1, "gone" if age.days >= 5 else "fresh")
    assert await store.flush()
    clock.now = now
    for _ in range(4):
        store.record_lookup(1, "new")  # still buffered
        store.record_miss(1, "fresh")

    day, week, month = (period_start(p, now) for p in ("day", "week", "month"))
    assert period_start("all", now) is None
    assert day == now - timedelta(days=1)
    assert await store.total_lookups(1, day) == 7
    assert await store.total_lookups(1, week) == 9
    assert await store.total_lookups(1, month) == 9
    assert await store.total_lookups(1, None) == 10
    assert await store.top_terms(1, day) == [("new", 7)]
    assert await store.top_terms(1, week) == [("new", 7), ("old", 2)]
    assert await store.top_terms(1) == [("new", 7), ("old", 3)]

    misses_this_week = await store.top_misses(1, week)
    assert [(m.query, m.count) for m in misses_this_week] == [("fresh", 7), ("gone", 2)]
    gone = misses_this_week[1]
    assert gone.first_seen == now - timedelta(days=40)  # first and last seen are all-time
    assert gone.last_seen == now - timedelta(days=5)
    assert [(m.query, m.count) for m in await store.top_misses(1, day)] == [("fresh", 7)]


async def test_periods_count_whole_hours(store: Store, clock: FakeClock) -> None:
    now = clock.now  # 12:30
    clock.now = now - timedelta(days=1, minutes=10)  # 12:20 yesterday: same bucket as 12:30
    store.record_lookup(1, "edge")
    clock.now = now - timedelta(days=1, minutes=40)  # 11:50 yesterday: the bucket before
    store.record_lookup(1, "edge")
    clock.now = now
    assert await store.total_lookups(1, period_start("day", now)) == 1
    assert await store.flush()
    assert await store.total_lookups(1, period_start("day", now)) == 1


def test_period_start_rejects_unknown_periods() -> None:
    with pytest.raises(ValueError, match="unknown period"):
        period_start("year", START)  # type: ignore[arg-type]


async def test_top_lists_merge_buffer_and_database_exactly(store: Store) -> None:
    # Stored: a=10, b=9, c=8, d=1. Buffered: d+20, e+5. Limit 3 must give d, a, b.
    for entry, n in [("a", 10), ("b", 9), ("c", 8), ("d", 1)]:
        for _ in range(n):
            store.record_lookup(1, entry)
            store.record_miss(1, f"q-{entry}")
    assert await store.flush()
    for _ in range(20):
        store.record_lookup(1, "d")
        store.record_miss(1, "q-d")
    for _ in range(5):
        store.record_lookup(1, "e")
    assert await store.top_terms(1, limit=3) == [("d", 21), ("a", 10), ("b", 9)]
    assert [(m.query, m.count) for m in await store.top_misses(1, limit=2)] == [
        ("q-d", 21),
        ("q-a", 10),
    ]
    with pytest.raises(ValueError, match="limit"):
        await store.top_terms(1, limit=0)


async def test_ties_are_ordered_by_name(store: Store) -> None:
    for entry in ["zeta", "alpha", "mu"]:
        store.record_lookup(1, entry)
    assert await store.flush()
    store.record_lookup(1, "beta")
    assert await store.top_terms(1) == [("alpha", 1), ("beta", 1), ("mu", 1), ("zeta", 1)]


async def test_counts_of_one_scope_are_invisible_in_another(store: Store) -> None:
    store.record_lookup(111, "kv-cache")
    store.record_miss(111, "secret project")
    store.record_lookup(0, "lora")  # a direct message
    assert await store.flush()
    store.record_lookup(111, "kv-cache")

    assert await store.total_lookups(222) == 0
    assert await store.top_terms(222) == []
    assert await store.top_misses(222) == []
    assert await store.lookup_count(222, "kv-cache") == 0
    assert await store.top_terms(0) == [("lora", 1)]
    assert await store.total_lookups(111) == 2
    everywhere = await store.stats(None)
    assert everywhere.total_lookups == 3
    assert everywhere.top_terms == [("kv-cache", 2), ("lora", 1)]


async def test_overlong_and_empty_queries(store: Store, db_path: Path) -> None:
    store.record_miss(1, "x" * 6000)
    store.record_miss(1, "")
    assert await store.flush()
    assert query(db_path, "SELECT length(query), count FROM misses") == [(200, 1)]


async def test_distinct_misses_are_bounded_while_unwritten(
    open_store: OpenStore, caplog: pytest.LogCaptureFixture
) -> None:
    store = await open_store(max_pending_misses=3)
    with caplog.at_level(logging.WARNING, logger="bot.storage"):
        for i in range(10):
            store.record_miss(1, f"q{i}")
    store.record_miss(1, "q0")  # a query already held still counts
    misses = await store.top_misses(1)
    assert [(m.query, m.count) for m in misses] == [("q0", 2), ("q1", 1), ("q2", 1)]
    assert sum("distinct missed queries" in r.message for r in caplog.records) == 1


async def test_record_is_cheap_and_never_awaits(store: Store) -> None:
    # 20,000 per second is the target; this is a coarse guard (the benchmark measures it).
    loop = asyncio.get_running_loop()
    started = loop.time()
    for i in range(20_000):
        store.record_lookup(i % 10, f"entry-{i % 300}")
    assert loop.time() - started < 1.0
    assert await store.total_lookups(3) == 2_000


class Ticker:
    """A `sleep` for the flusher that returns only when the test says so."""

    def __init__(self) -> None:
        self.requested: list[float] = []
        self._entered = asyncio.Condition()
        self._release = asyncio.Event()

    async def sleep(self, seconds: float) -> None:
        async with self._entered:
            self.requested.append(seconds)
            self._entered.notify_all()
        await self._release.wait()
        self._release.clear()

    async def wait_for_sleeps(self, n: int) -> None:
        async with asyncio.timeout(5), self._entered:
            await self._entered.wait_for(lambda: len(self.requested) >= n)

    def tick(self) -> None:
        self._release.set()


async def test_background_flusher_writes_every_interval(
    open_store: OpenStore, db_path: Path
) -> None:
    ticker = Ticker()
    store = await open_store(flush_interval=1.0, sleep=ticker.sleep)
    await ticker.wait_for_sleeps(1)
    store.record_lookup(1, "moe")
    store.record_lookup(1, "moe")
    assert stored_lookups(db_path) == 0

    ticker.tick()  # one interval passes
    await ticker.wait_for_sleeps(2)  # the loop flushed and went back to sleep
    assert stored_lookups(db_path) == 2
    assert all(0 <= s <= 1.0 for s in ticker.requested)

    store.record_lookup(1, "moe")
    await store.close()  # cancels the sleeping flusher, then writes the rest
    assert stored_lookups(db_path) == 3


async def test_a_cancelled_flush_still_finishes(store: Store, db_path: Path) -> None:
    for _ in range(100):
        store.record_lookup(1, "gqa")
    task = asyncio.create_task(store.flush())
    await asyncio.sleep(0)  # let it start its transaction
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await store.flush()  # waits for the shielded write, if still running
    assert stored_lookups(db_path) == 100
    assert await store.total_lookups(1) == 100


async def test_each_servers_last_lookup_hour(store: Store, clock: FakeClock) -> None:
    """The warm-up's order after READY: each server's last hour with a stored lookup."""
    assert await store.last_lookup_hours() == {}
    now = clock.now
    clock.now = now - timedelta(days=2)
    store.record_lookup(1, "rag")
    store.record_lookup(2, "rag")
    clock.now = now
    store.record_lookup(2, "kv-cache")
    await store.flush()
    hour = int(now.timestamp()) // 3600
    assert await store.last_lookup_hours() == {1: hour - 48, 2: hour}
