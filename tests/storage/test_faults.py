"""A database that cannot be written: counts stay buffered, moderators get a clear error,
nothing stored is damaged, and everything is written once the database is writable again."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.storage import StorageUnavailable, Store

from .conftest import OpenStore, query, stored_lookups
from .full_disk import FullDisk

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def locked_by_another_process(path: Path) -> Iterator[None]:
    """Hold the database's write lock, as another process mid-transaction would."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        conn.execute("ROLLBACK")
        conn.close()


def integrity(path: Path) -> str:
    return str(query(path, "PRAGMA integrity_check")[0][0])


async def test_locked_database_keeps_counts_buffered(
    open_store: OpenStore, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.storage")
    store = await open_store(busy_timeout=0.05)
    await store.add_alias(1, "kvc", "KVC", "kv-cache", actor_id=1)
    store.record_lookup(1, "kv-cache")
    assert await store.flush()

    with locked_by_another_process(db_path):
        for _ in range(10):
            store.record_lookup(1, "kv-cache")
        store.record_miss(1, "kvq")
        assert not await store.flush()
        store.record_lookup(1, "kv-cache")
        assert not await store.flush()
        # Reads do not wait for the lock: the reader connection sees the last commit.
        assert await store.total_lookups(1) == 12
        assert await store.aliases(1) == {"kvc": "kv-cache"}
        with pytest.raises(StorageUnavailable, match="locked by another process"):
            await store.add_alias(1, "moe", "MoE", "moe", actor_id=1)
        with pytest.raises(StorageUnavailable, match="locked"):
            await store.remove_alias(1, "kvc", actor_id=1)
        assert stored_lookups(db_path) == 1
    assert await store.flush()

    assert stored_lookups(db_path) == 12
    assert query(db_path, "SELECT query, count FROM misses") == [("kvq", 1)]
    assert await store.aliases(1) == {"kvc": "kv-cache"}
    assert integrity(db_path) == "ok"
    warnings = [r for r in caplog.records if "could not write lookup counts" in r.getMessage()]
    assert len(warnings) == 1  # once per failure streak, not once per attempt
    assert "locked by another process" in warnings[0].getMessage()
    assert any("written again after 2 failed attempts" in r.getMessage() for r in caplog.records)

    with locked_by_another_process(db_path):  # a new streak: said again, counted afresh
        store.record_lookup(1, "kv-cache")
        assert not await store.flush()
    assert await store.flush()
    warnings = [r for r in caplog.records if "could not write lookup counts" in r.getMessage()]
    assert len(warnings) == 2
    again = [r.getMessage() for r in caplog.records if "written again" in r.getMessage()]
    assert again == [
        "lookup counts written again after 2 failed attempts",
        "lookup counts written again after 1 failed attempts",
    ]


async def test_full_database_keeps_counts_buffered(store: Store, db_path: Path) -> None:
    store.record_lookup(1, "seed")
    assert await store.flush()
    disk = await FullDisk.of(store)
    await disk.fill()

    for i in range(3000):
        store.record_lookup(1, f"a-rather-long-entry-identifier-{i}")
    assert not await store.flush()
    with pytest.raises(StorageUnavailable, match="full"):
        await store.add_alias(1, "x" * 3000, "x", "seed", actor_id=1)
    assert await store.total_lookups(1) == 3001

    await disk.free()
    assert await store.flush()
    assert stored_lookups(db_path) == 3001
    assert integrity(db_path) == "ok"


async def test_failing_writes_are_logged_once_per_reason_until_they_work(
    sqlite_store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.storage")
    disk = await FullDisk.of(sqlite_store)

    async def refused() -> None:
        with pytest.raises(StorageUnavailable, match="full"):
            await sqlite_store.add_alias(1, "x" * 3000, "x", "seed", actor_id=1)

    def said() -> list[str]:
        return [
            f"{r.levelname} {r.getMessage()}" for r in caplog.records if "database" in r.message
        ]

    await disk.fill()
    await refused()
    await refused()
    error = said()
    assert len(error) == 1
    assert error[0].startswith("ERROR cannot write the database")
    await disk.free()
    await sqlite_store.add_alias(1, "kvc", "KVC", "kv-cache", actor_id=1)
    [works] = said()[1:]
    assert works.startswith("INFO")
    assert works.endswith("takes writes again")
    await disk.fill()
    await refused()
    assert said()[2:] == error  # a new streak is said again


async def test_read_only_connection_recovers_by_reopening(store: Store, db_path: Path) -> None:
    # White-box: query_only fails writes as a read-only file does.
    conn = store._backend.writer._conn
    assert conn is not None
    await conn.execute("PRAGMA query_only = ON")
    store.record_lookup(1, "lora")
    assert not await store.flush()
    assert await store.total_lookups(1) == 1
    # The failure marked the connection stale; the next write opens a fresh one.
    assert await store.flush()
    assert stored_lookups(db_path) == 1


async def test_moderator_write_on_read_only_connection_is_a_clear_error(
    sqlite_store: Store,
) -> None:
    conn = sqlite_store._backend.writer._conn
    assert conn is not None
    await conn.execute("PRAGMA query_only = ON")
    with pytest.raises(StorageUnavailable, match="the database is read-only"):
        await sqlite_store.add_alias(1, "kvc", "KVC", "kv-cache", actor_id=1)
    assert await sqlite_store.aliases(1) == {}


def _without_permission_override() -> list[str] | None:
    """A command prefix under which file modes apply: none needed unless we are root."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search"]


def test_read_only_file_then_writable_again(tmp_path: Path) -> None:
    prefix = _without_permission_override()
    if prefix is None:
        pytest.skip("running as root without setpriv: file modes cannot be enforced")
    folder = tmp_path / "volume"
    folder.mkdir()
    script = Path(__file__).with_name("readonly_scenario.py")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [*prefix, sys.executable, str(script), str(folder / "bot.db")],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])

    assert seen["aliases_while_read_only"] == {"kvc": "kv-cache"}
    assert seen["flush_while_read_only"] is False
    assert seen["flush_again_while_read_only"] is False
    assert seen["total_while_read_only"] == 12
    assert seen["add_alias_error"].startswith("the database is read-only")  # and why (outsider77)
    assert seen["remove_alias_error"].startswith("the database is read-only")
    assert seen["file_unchanged_while_read_only"] is True
    assert seen["flush_when_writable"] is True
    assert seen["add_alias_when_writable"] == "added"
    assert seen["total_after_restart"] == 12
    assert seen["misses_after_restart"] == [["nothing", 2]]
    assert seen["aliases_after_restart"] == {"kvc": "kv-cache", "moe": "mixture-of-experts"}
    assert seen["integrity"] == "ok"
    assert seen["sidecars_left_read_only"] == ["-shm", "-wal"]
    assert seen["add_alias_after_restart"] == "added"
    said = seen["open_read_only_dir"]
    assert said.startswith(f"the database's folder {folder} is read-only"), said


class OtherWriter:
    """Another process holding the write lock until it lets go (at the store's first pause)."""

    def __init__(self, path: Path, *, lets_go: bool) -> None:
        self.conn: sqlite3.Connection | None = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("BEGIN IMMEDIATE")
        self.lets_go = lets_go
        self.pauses: list[float] = []

    async def pause(self, seconds: float) -> None:  # the store's `sleep` seam
        self.pauses.append(seconds)
        if self.lets_go:
            self.release()

    def release(self) -> None:
        if self.conn is not None:
            self.conn.execute("ROLLBACK")
            self.conn.close()
            self.conn = None


async def stop_while_another_process_writes(
    open_store: OpenStore, db_path: Path, *, lookups: int, lets_go: bool
) -> list[float]:
    """Close a store holding `lookups` lookups and one miss while another process holds the
    write lock, letting go at the store's first pause if `lets_go`; the pauses the store took."""
    other: list[OtherWriter] = []

    async def pause(seconds: float) -> None:
        await other[0].pause(seconds)

    store = await open_store(busy_timeout=0.05, sleep=pause)
    for _ in range(lookups):
        store.record_lookup(1, "rag")
    store.record_miss(1, "zorblax")
    other.append(OtherWriter(db_path, lets_go=lets_go))
    try:
        await store.close()
    finally:
        other[0].release()
    return other[0].pauses


async def test_a_stop_retries_a_write_that_fails_once(
    open_store: OpenStore, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.storage")
    # The first write meets the lock; the retry finds it gone.
    pauses = await stop_while_another_process_writes(open_store, db_path, lookups=7, lets_go=True)
    assert len(pauses) == 1
    assert 0 < pauses[0] <= 1.0
    assert stored_lookups(db_path) == 7
    assert query(db_path, "SELECT query, count FROM misses") == [("zorblax", 1)]
    assert not [r for r in caplog.records if "could not be written" in r.getMessage()]


async def test_a_stop_gives_up_on_a_database_that_stays_unwritable_within_its_bound(
    open_store: OpenStore, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.storage")
    pauses = await stop_while_another_process_writes(open_store, db_path, lookups=3, lets_go=False)
    assert 1 <= len(pauses) <= 5, pauses  # a few retries, not a loop until the grace runs out
    assert sum(pauses) <= 3.0, pauses  # with the drain before it, well inside 10 s of grace
    assert stored_lookups(db_path) == 0
    errors = [r.getMessage() for r in caplog.records if "could not be written" in r.getMessage()]
    assert len(errors) == 1, errors
    assert "3 lookups and 1 missed query " in errors[0]


async def test_a_close_keeps_to_its_deadline_however_long_the_lock_is_held(
    open_store: OpenStore, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """SQLite's own wait for a lock cannot be cut short once begun: the close must shorten the
    waits it begins. With a busy timeout of an hour, waiting it out would hang this test."""
    caplog.set_level(logging.INFO, logger="bot.storage")
    store = await open_store(busy_timeout=3600.0)
    store.record_lookup(1, "rag")
    assert await store.flush()  # written once: closing also tidies the store's own mark
    for _ in range(4):
        store.record_lookup(1, "rag")
    store.record_miss(1, "zorblax")
    with locked_by_another_process(db_path):
        async with asyncio.timeout(60):  # a guard against hanging, not a measurement
            await store.close(deadline=asyncio.get_running_loop().time() + 0.2)
    assert stored_lookups(db_path) == 1  # nothing written that was said lost
    errors = [r.getMessage() for r in caplog.records if "could not be written" in r.getMessage()]
    assert errors == ["closing with 4 lookups and 1 missed query that could not be written"]
