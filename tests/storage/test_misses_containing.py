"""`top_misses(containing=...)`, which `/stats`' menu reads a long miss back by (its option holds
the miss's first words and a digest) and `/alias add`'s autocomplete filters by: the same on
SQLite and PostgreSQL, stored and buffered."""

from __future__ import annotations

from bot.storage import Store

LONG = "how does speculative decodng work and why does it make generation faster on big models"


async def test_misses_containing_words_are_all_those_holding_them_as_written(store: Store) -> None:
    others = [
        f"{LONG} like these",
        f"{LONG} 100% of the time",
        LONG.upper(),
    ]  # SQLite's LIKE ignores case
    for miss in (LONG, *others[:2]):
        store.record_miss(1, miss)
    store.record_miss(2, f"{LONG} elsewhere")  # another server's
    assert await store.flush()
    store.record_miss(1, others[2])  # buffered, not yet written
    store.record_miss(1, LONG)
    head = LONG[:60]
    held = await store.top_misses(1, None, 100, containing=head)
    assert sorted(m.query for m in held) == sorted([LONG, *others[:2]])
    assert next(m.count for m in held if m.query == LONG) == 2
    held = await store.top_misses(1, None, 100, containing="100%")  # a LIKE wildcard, literal
    assert [m.query for m in held] == [others[1]]
