"""review73: the SQLite file replaced twice in a row under a running store."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage import StorageError, Store


async def _newer_database(path: Path, version: int) -> Path:
    """A database of a newer bot (schema `version`), its -wal folded into the file."""
    made = await Store.open(str(path), flush_interval=None)
    await made.add_alias(1, "newerguy", "newerguy", "rag", 7)
    await made.close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {version}")
    conn.close()
    return path


async def test_the_bots_own_file_put_back_after_a_newer_one_is_taken_up(tmp_path: Path) -> None:
    """The operator moves the bot's file aside, renames a newer bot's database in (refused:
    its version named), then another (refused, naming that one's), then puts the bot's own file
    back. It was refused until a restart, "its -wal was deleted or replaced": the store had let
    go of that file but still took a file of its inode for the one it held, with its old -wal
    (SQLite removed it at the let-go). The same with any file given the freed inode number."""
    db = tmp_path / "g.db"
    aside = tmp_path / "g.db.aside"
    store = await Store.open(str(db), flush_interval=None)
    try:
        await store.add_alias(1, "blorfy", "blorfy", "rag", 7)
        db.rename(aside)
        for version in (99, 98):
            (await _newer_database(tmp_path / f"newer{version}.db", version)).replace(db)
            with pytest.raises(StorageError, match=f"schema version {version}"):
                await store.add_alias(1, "zorbly", "zorbly", "rag", 7)
            with pytest.raises(StorageError, match=f"schema version {version}"):
                await store.aliases(1)  # never the newer bot's aliases
        aside.replace(db)
        await store.add_alias(1, "zorbly", "zorbly", "rag", 7)
        assert await store.aliases(1) == {"blorfy": "rag", "zorbly": "rag"}
    finally:
        await store.close()
    reopened = await Store.open(str(db), flush_interval=None)
    try:
        assert await reopened.aliases(1) == {"blorfy": "rag", "zorbly": "rag"}
    finally:
        await reopened.close()
