"""Property: whatever mix of recording, successful and failed flushes, every read equals a model
that simply remembers each recorded event."""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.storage import Store

from .conftest import START, FakeClock

SCOPES = [0, 1, 2]
SINCES: list[datetime | None] = [None, START - timedelta(days=1), START - timedelta(days=7)]

record = st.tuples(
    st.sampled_from(["lookup", "miss"]),
    st.sampled_from(SCOPES),
    st.sampled_from(["a", "b", "c", "d"]),
    st.integers(min_value=0, max_value=24 * 10),  # hours ago
)
operation = st.one_of(
    record, st.sampled_from([("flush",), ("locked flush",), ("failed write",), ("check",)])
)

# Fails a flush half-way, after its batch was taken: the batch must go back to the buffer.
_FAIL_WRITES = """
CREATE TEMP TRIGGER fail_{table} BEFORE INSERT ON main.{table}
BEGIN SELECT RAISE(ABORT, 'injected failure'); END
"""


def _in_period(at: datetime, since: datetime | None) -> bool:
    return since is None or int(at.timestamp()) // 3600 >= int(since.timestamp()) // 3600


def _ranked(counts: Counter[str], limit: int) -> list[tuple[str, int]]:
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:limit]


async def _run(ops: list[tuple[Any, ...]], path: Path) -> None:
    clock = FakeClock()
    store = await Store.open(path, flush_interval=None, clock=clock, busy_timeout=0)
    events: list[tuple[str, int, str, datetime]] = []

    async def check() -> None:
        for scope in SCOPES:
            for since in SINCES:
                mine = [e for e in events if e[1] == scope and _in_period(e[3], since)]
                terms = Counter(e[2] for e in mine if e[0] == "lookup")
                misses = Counter(e[2] for e in mine if e[0] == "miss")
                assert await store.total_lookups(scope, since) == terms.total()
                assert await store.top_terms(scope, since, limit=2) == _ranked(terms, 2)
                found = await store.top_misses(scope, since, limit=2)
                assert [(m.query, m.count) for m in found] == _ranked(misses, 2)

    try:
        for op in ops:
            match op:
                case (kind, scope, name, hours_ago):
                    clock.now = START - timedelta(hours=hours_ago)
                    if kind == "lookup":
                        store.record_lookup(scope, name)
                    else:
                        store.record_miss(scope, name)
                    events.append((kind, scope, name, clock.now))
                    clock.now = START
                case ("flush",):
                    assert await store.flush()
                case ("failed write",):
                    # White-box: temp triggers are per connection.
                    conn = store._backend.writer._conn
                    for table in ("lookups", "miss_hours"):
                        await conn.execute(_FAIL_WRITES.format(table=table))
                    try:
                        assert not await store.flush() or store._pending.is_empty()
                    finally:
                        for table in ("lookups", "miss_hours"):
                            await conn.execute(f"DROP TRIGGER temp.fail_{table}")
                case ("locked flush",):
                    locker = sqlite3.connect(path, isolation_level=None)
                    locker.execute("BEGIN IMMEDIATE")
                    try:
                        assert not await store.flush() or store._pending.is_empty()
                    finally:
                        locker.execute("ROLLBACK")
                        locker.close()
                case ("check",):
                    await check()
        await check()
        assert await store.flush()
        await check()
    finally:
        await store.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(operation, max_size=40))
def test_reads_always_match_what_was_recorded(ops: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(_run(ops, Path(folder) / "bot.db"))
