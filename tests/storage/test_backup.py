"""Online backup: a valid, self-contained copy with the same data, even while writes go on."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.storage import StorageError, Store, backup_database

from .conftest import OpenStore, query


async def test_backup_is_a_valid_database_with_the_same_data(
    open_store: OpenStore, tmp_path: Path
) -> None:
    store = await open_store()
    await store.add_alias(1, "kvc", "KVC", "kv-cache", actor_id=5)
    for _ in range(3):
        store.record_lookup(1, "kv-cache")
    assert await store.flush()
    store.record_lookup(1, "kv-cache")  # buffered: backup flushes first
    store.record_miss(1, "paged thing")

    copy = tmp_path / "backups" / "copy.db"
    copy.parent.mkdir()
    await store.backup(copy)

    assert query(copy, "PRAGMA integrity_check") == [("ok",)]
    assert query(copy, "PRAGMA journal_mode") == [("delete",)]  # one self-contained file
    assert sorted(p.name for p in copy.parent.iterdir()) == ["copy.db"]
    restored = await open_store(copy)
    assert await restored.aliases(1) == {"kvc": "kv-cache"}
    assert await restored.total_lookups(1) == 4
    assert [m.query for m in await restored.top_misses(1)] == ["paged thing"]
    assert len(await restored.audit_log(1)) == 1


async def test_backup_while_the_bot_writes(open_store: OpenStore, tmp_path: Path) -> None:
    store = await open_store()

    async def moderator() -> None:
        for i in range(50):
            await store.add_alias(1, f"alias-{i}", f"alias-{i}", "entry", actor_id=1)

    async def counting() -> None:
        for i in range(50):
            store.record_lookup(1, f"e{i % 5}")
            await store.flush()

    copies = [tmp_path / f"copy-{i}.db" for i in range(3)]
    await asyncio.gather(moderator(), counting(), *(store.backup(c) for c in copies))
    for copy in copies:
        assert query(copy, "PRAGMA integrity_check") == [("ok",)]
        # A consistent snapshot: every alias in the copy has its audit row.
        (aliases,) = query(copy, "SELECT count(*) FROM aliases")[0]
        (audits,) = query(copy, "SELECT count(*) FROM audit_log")[0]
        assert aliases == audits


async def test_backup_replaces_an_older_copy(sqlite_store: Store, tmp_path: Path) -> None:
    copy = tmp_path / "copy.db"
    copy.write_bytes(b"an older backup")
    await sqlite_store.add_alias(1, "kvc", "KVC", "kv-cache", actor_id=5)
    await sqlite_store.backup(copy)
    assert query(copy, "SELECT key FROM aliases") == [("kvc",)]


async def test_backup_keeps_the_mode_of_the_copy_it_replaces(
    sqlite_store: Store, tmp_path: Path
) -> None:
    """A backup its operator made private (0600) stays private when made again."""
    copy = tmp_path / "copy.db"
    copy.write_bytes(b"an older backup")
    copy.chmod(0o600)
    await sqlite_store.backup(copy)
    assert copy.stat().st_mode & 0o777 == 0o600


async def test_backup_refuses_to_overwrite_the_database(store: Store, db_path: Path) -> None:
    with pytest.raises(StorageError, match="onto itself"):
        await store.backup(db_path)
    assert query(db_path, "PRAGMA integrity_check") == [("ok",)]


async def test_backup_of_a_missing_database(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="no database"):
        await backup_database(tmp_path / "absent.db", tmp_path / "copy.db")
    assert not (tmp_path / "copy.db").exists()


async def test_backup_onto_a_symlink_writes_where_it_points(
    sqlite_store: Store, tmp_path: Path
) -> None:
    """`/dev/stdout` is a symlink: renaming the copy over it replaced the link (run as root, the
    backup went into a file in /dev and nowhere else). The link is kept, its target written."""
    target = tmp_path / "kept" / "latest.db"
    target.parent.mkdir()
    target.write_bytes(b"an older backup")
    link = tmp_path / "latest.db"
    link.symlink_to(target)
    await sqlite_store.add_alias(1, "kvc", "KVC", "kv-cache", actor_id=5)
    await sqlite_store.backup(link)
    assert link.is_symlink()
    assert query(target, "SELECT key FROM aliases") == [("kvc",)]
    assert sorted(p.name for p in target.parent.iterdir()) == ["latest.db"]
