"""Fixtures for the storage tests: real SQLite files in tmp_path, an injectable clock."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Store

START = datetime(2025, 1, 15, 12, 30, tzinfo=UTC)


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


OpenStore = Callable[..., Awaitable[Store]]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "glossary-bot.db"


@pytest.fixture
async def open_store(db_path: Path, clock: FakeClock) -> AsyncIterator[OpenStore]:
    """Opens stores (no background flusher unless asked) and closes them after the test."""
    stores: list[Store] = []

    async def _open(path: Path | None = None, **options: Any) -> Store:
        options.setdefault("flush_interval", None)
        options.setdefault("clock", clock)
        store = await Store.open(path or db_path, **options)
        stores.append(store)
        return store

    yield _open
    for store in stores:
        await store.close()


@pytest.fixture
async def store(open_store: OpenStore) -> Store:
    return await open_store()


def query(path: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Read the file with a connection of its own: what is really on disk."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def stored_lookups(path: Path, scope: int | None = None) -> int:
    if scope is None:
        return int(query(path, "SELECT coalesce(sum(count), 0) FROM lookups")[0][0])
    sql = "SELECT coalesce(sum(count), 0) FROM lookups WHERE scope = ?"
    return int(query(path, sql, (scope,))[0][0])


def file_state(path: Path) -> tuple[bytes, int]:
    """Contents and modification time: what "left untouched" means."""
    return path.read_bytes(), path.stat().st_mtime_ns


def write_file(path: Path, data: bytes = b"") -> None:
    path.write_bytes(data)


def names_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())
