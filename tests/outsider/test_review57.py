"""review57's attacks on left53, review55 and outsider50's fake (tests/outsider/PLAN.md,
"review57")."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import metrics
from bot.storage import CountsAhead, Store
from tests.outsider.test_review55 import _sample, _waiting
from tests.storage.conftest import stored_lookups
from tests.storage.test_faults import locked_by_another_process


async def test_counts_handed_over_and_a_flush_failing_at_once_are_written_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """review55 moved the wait's lookups into `glossary_lookups_buffered_total` at the
    hand-over (`take_counts`). The database failing for the first flush after it (locked by
    another process): the batch goes back to the buffer, the metric neither counts them
    twice nor as flushed, and the next flush writes them once."""
    monkeypatch.setattr(Store, "observer", metrics.StoreMetrics())
    path = tmp_path / "g.db"
    ahead = CountsAhead()
    for _ in range(2):
        ahead.record_lookup(1, "kv-cache")
    store = await Store.open(path, flush_interval=None, busy_timeout=0.05)
    try:
        start, flushed = _waiting(), _sample("glossary_lookups_flushed_total")
        store.take_counts(ahead)
        store.record_lookup(1, "kv-cache")
        with locked_by_another_process(path):
            assert not await store.flush()
        assert _waiting() == start + 3  # still waiting, counted once
        assert await store.total_lookups(1) == 3  # read from the buffer meanwhile
        assert await store.flush()
        assert _sample("glossary_lookups_flushed_total") - flushed == 3
        assert _waiting() == start
        store.take_counts(ahead)  # handed over once: a second hand-over brings nothing
        assert await store.flush()
    finally:
        await store.close()
    assert stored_lookups(path) == 3
    assert _waiting() == start
