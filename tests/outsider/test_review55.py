"""review55's attacks on wait50 (tests/outsider/PLAN.md, "Attacks on wait50 (review55)")."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import metrics
from bot.storage import CountsAhead, Store


def _sample(name: str) -> float:
    value = metrics.REGISTRY.get_sample_value(name, {})
    return 0.0 if value is None else value


def _waiting() -> float:
    """What the dashboard's "waiting to be written" panel shows: buffered minus flushed."""
    return _sample("glossary_lookups_buffered_total") - _sample("glossary_lookups_flushed_total")


async def test_lookups_counted_during_the_wait_join_the_metrics_only_when_handed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """wait50 left: lookups counted while the bot waited for its database went into
    `glossary_lookups_buffered_total` at once, and a wait given up left them there for good,
    never flushed (the dashboard's buffered - flushed showed them waiting for ever). They are
    now counted there when the store takes them, to be written with its next flush."""
    monkeypatch.setattr(Store, "observer", metrics.StoreMetrics())
    start = _waiting()
    given_up = CountsAhead()
    for _ in range(3):
        given_up.record_lookup(1, "kv-cache")
    assert _waiting() == start  # the wait was given up: dropped, and never shown as waiting

    ahead = CountsAhead()
    for _ in range(2):
        ahead.record_lookup(1, "kv-cache")
    assert _waiting() == start
    store = await Store.open(tmp_path / "g.db", flush_interval=None)
    try:
        flushed = _sample("glossary_lookups_flushed_total")
        store.take_counts(ahead)
        assert _waiting() == start + 2  # handed over: waiting for the next flush
        assert await store.flush()
        assert _sample("glossary_lookups_flushed_total") - flushed == 2
    finally:
        await store.close()
    assert _waiting() == start


async def test_a_lookup_dropped_past_the_buffer_s_cap_is_not_shown_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same for the store's own buffer: a lookup of a new key past its cap (the database
    failing for long) is not counted, so not written, and was still added to
    `glossary_lookups_buffered_total`: waiting for ever on the dashboard."""
    monkeypatch.setattr(Store, "observer", metrics.StoreMetrics())
    store = await Store.open(tmp_path / "g.db", flush_interval=None, max_pending_lookups=1)
    try:
        start = _waiting()
        store.record_lookup(1, "kv-cache")
        store.record_lookup(1, "rag")  # a second key: past the cap, not counted
        store.record_lookup(1, "kv-cache")  # a key already buffered: counted
        assert _waiting() == start + 2
        assert await store.flush()
        assert _waiting() == start
    finally:
        await store.close()


def test_lookups_past_the_wait_s_cap_are_said_not_counted() -> None:
    """A flood during the wait: past the cap of distinct keys kept in memory, a lookup of a new
    key is not counted (`CountsAhead.dropped`), and neither the "answers after" line nor the
    give-up line said so: they gave the count kept as if it were every lookup."""
    ahead = CountsAhead(max_lookups=1, max_misses=1)
    ahead.record_lookup(1, "kv-cache")
    ahead.record_lookup(1, "kv-cache")
    ahead.record_lookup(1, "rag")  # a new key past the cap
    ahead.record_miss(1, "zorbly")
    ahead.record_miss(1, "blorfy")  # likewise
    assert ahead.said() == (
        "2 lookups and 1 missed search (2 more past the cap of keys kept in memory, not counted)"
    )
    assert CountsAhead().said() == "0 lookups and 0 missed searches"
