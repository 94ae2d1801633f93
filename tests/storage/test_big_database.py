"""A database that has grown for a long time, on each backend: `migrate-db`'s copy goes a page
of rows at a time (a page made small here) and is all or nothing."""

from __future__ import annotations

import itertools
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from bot.storage import AliasImport, SuggestStatus
from bot.storage.periods import HOUR, to_unix
from bot.term_storage import TermChange, change_terms, read_terms

from .conftest import Databases, FakeClock, OpenStore
from .test_migrate_db import glossary_bot
from .test_terms_store import term


async def _grown(open_any: OpenStore, clock: FakeClock, path: Path | str) -> None:
    """Every table with more rows than a page of 2, several under one server (pages then
    continue inside a server's rows, on the later columns of the key)."""
    store = await open_any(str(path))
    for hours_ago in (24 * 60, 24 * 40, 30, 2):
        clock.advance(hours=-hours_ago)
        for i in range(9):
            store.record_lookup(i % 3, f"entry-{i % 4}")
        store.record_miss(1, "zorblax")
        store.record_miss(1, f"asked {hours_ago} hours ago")
        clock.advance(hours=hours_ago)
    await store.import_aliases([AliasImport(1, f"alias{n}", f"Alias{n}", "rag") for n in range(3)])
    await store.remove_alias(1, "alias0", actor_id=4)
    await change_terms(store, 1, lambda *_: (TermChange(put=(term(1), term(2), term(3))), None), 7)
    for user in (5, 6, 8):
        assert await store.add_suggestion(1, user, f"idea {user}", "Ours.") is SuggestStatus.ADDED
    await store.close()


async def _same(source_path: str, target_path: str, open_any: OpenStore) -> None:
    source, target = await open_any(source_path), await open_any(target_path)
    for scope in (None, 0, 1, 2):
        assert await target.stats(scope, limit=50) == await source.stats(scope, limit=50)
    assert await target.export_aliases() == await source.export_aliases()
    assert await target.audit_log(1) == await source.audit_log(1)
    assert await read_terms(target, 1) == await read_terms(source, 1)
    assert await target.term_audit_log(1) == await source.term_audit_log(1)
    assert await target.open_suggestions(1) == await source.open_suggestions(1)


async def test_a_copy_goes_a_page_at_a_time_and_is_exact(
    open_any: OpenStore, location: str, clock: FakeClock, tmp_path: Path
) -> None:
    await _grown(open_any, clock, tmp_path / "source.db")
    source, target = await open_any(str(tmp_path / "source.db")), await open_any()
    told: list[tuple[str, int, int]] = []
    report = await source.copy_into(target, page=2, told=lambda *step: told.append(step))
    assert report.target_after == report.source
    await _same(str(tmp_path / "source.db"), location, open_any)
    # Never more than a page of rows between two steps; every row counted once.
    copied = [done for what, done, _ in told if what.startswith("copying ")]
    assert max(b - a for a, b in itertools.pairwise(copied)) <= 2
    rows = told[-1][2]
    assert told[-1] == ("checking", rows, rows)
    assert rows == sum(
        report.source[t] for t in ("lookups", "misses", "miss_hours", "aliases")
    ) + sum(report.source[t] for t in ("audit_log", "terms", "term_audit_log", "suggestions"))
    assert {what for what, _, _ in told} >= {"copying lookups", "copying suggestions"}


async def test_a_copy_stopped_part_way_leaves_the_target_as_it_was(
    open_any: OpenStore, location: str, clock: FakeClock, tmp_path: Path
) -> None:
    """One transaction on the target: a copy that fails after some pages (the connection lost,
    Ctrl-C) writes none of them, and the same copy can be run again as a first one."""
    await _grown(open_any, clock, tmp_path / "source.db")
    source, target = await open_any(str(tmp_path / "source.db")), await open_any()

    def stop_after_some_pages(what: str, done: int, rows: int) -> None:
        if what == "copying misses":  # the lookups are all written by now
            raise RuntimeError("the connection was lost")

    with pytest.raises(RuntimeError):
        await source.copy_into(target, page=2, told=stop_after_some_pages)
    assert (await target.stats(None)).total_lookups == 0
    assert await target.export_aliases() == []
    report = await source.copy_into(target, page=2)  # not refused as a target holding data
    assert report.target_before["lookups"] == 0
    await _same(str(tmp_path / "source.db"), location, open_any)


async def test_a_missed_search_whose_old_hours_were_trimmed_copies_its_all_time_count(
    open_any: OpenStore, location: str, clock: FakeClock, tmp_path: Path
) -> None:
    """A missed search keeps its all-time count when its old hours are removed (README's trim,
    now `prune`). The copy wrote each search's count again as the sum of its hours, so the
    check found the totals unequal, after the commit: the copy failed and the target kept a
    copy with counts lost. Now the count is copied as it is."""
    source_path = tmp_path / "source.db"
    await _grown(open_any, clock, source_path)
    with sqlite3.connect(source_path) as conn:  # README's recipe, before `prune`
        before_hour = to_unix(clock() - timedelta(days=30)) // HOUR
        assert conn.execute("DELETE FROM miss_hours WHERE hour < ?", (before_hour,)).rowcount
    source, target = await open_any(str(source_path)), await open_any()
    report = await source.copy_into(target)
    assert report.target_after == report.source
    [zorblax] = [m for m in await target.top_misses(1) if m.query == "zorblax"]
    assert zorblax.count == 4


async def test_migrate_db_names_the_target_it_cannot_use(
    open_any: OpenStore, databases: Databases, location: str, clock: FakeClock, tmp_path: Path
) -> None:
    """An operator's one line names `--to` when the target holds data or cannot be reached."""
    await _grown(open_any, clock, tmp_path / "source.db")
    done = glossary_bot("migrate-db", "--from", str(tmp_path / "source.db"), "--to", location)
    assert done.returncode == 0, done.stderr
    again = glossary_bot("migrate-db", "--from", str(tmp_path / "source.db"), "--to", location)
    assert again.returncode == 1
    assert again.stderr.startswith("glossary-bot: error: --to "), again.stderr
    assert "already holds data (36 lookups" in again.stderr
    assert "--force" in again.stderr
    away = "postgresql://glossary:secret@127.0.0.1:1/glossary"
    gone = glossary_bot("migrate-db", "--from", str(tmp_path / "source.db"), "--to", away)
    assert gone.returncode == 1
    assert gone.stderr.startswith("glossary-bot: error: --to: cannot reach the database at "), (
        gone.stderr
    )
    assert gone.stderr.count("\n") == 1
    assert "secret" not in gone.stderr
