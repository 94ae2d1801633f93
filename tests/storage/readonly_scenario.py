"""A database file that becomes read-only and writable again, run in a process of its own.

Run by test_faults.py without the power to override file permissions (root ignores chmod), so the
file's mode really decides. Prints one JSON object of observations.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

from bot.storage import StorageUnavailable, Store


def _chmod(path: Path, mode: int) -> None:
    path.chmod(mode)


def _contents(path: Path) -> bytes:
    return path.read_bytes()


def _read_only_sidecars(path: Path) -> list[str]:
    return sorted(
        p.name[len(path.name) :]
        for p in path.parent.iterdir()
        if p.name != path.name and not p.stat().st_mode & 0o222
    )


async def scenario(path: Path) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    store = await Store.open(path, flush_interval=None, busy_timeout=0.1)
    await store.add_alias(1, "kvc", "KVC", "kv-cache", actor_id=1)
    for _ in range(5):
        store.record_lookup(1, "kv-cache")
    store.record_miss(1, "nothing")
    await store.close()
    before = _contents(path)

    _chmod(path, 0o444)
    try:
        store = await Store.open(path, flush_interval=None, busy_timeout=0.1)
        seen["aliases_while_read_only"] = await store.aliases(1)
        for _ in range(7):
            store.record_lookup(1, "kv-cache")
        store.record_miss(1, "nothing")
        seen["flush_while_read_only"] = await store.flush()
        seen["flush_again_while_read_only"] = await store.flush()
        seen["total_while_read_only"] = await store.total_lookups(1)
        try:
            await store.add_alias(1, "moe", "MoE", "mixture-of-experts", actor_id=2)
            seen["add_alias_error"] = None
        except StorageUnavailable as exc:
            seen["add_alias_error"] = str(exc)
        try:
            await store.remove_alias(1, "kvc", actor_id=2)
            seen["remove_alias_error"] = None
        except StorageUnavailable as exc:
            seen["remove_alias_error"] = str(exc)
        seen["file_unchanged_while_read_only"] = _contents(path) == before
    finally:
        _chmod(path, 0o644)

    seen["flush_when_writable"] = await store.flush()
    seen["add_alias_when_writable"] = (
        await store.add_alias(1, "moe", "MoE", "mixture-of-experts", actor_id=2)
    ).status.value
    await store.close()

    store = await Store.open(path, flush_interval=None)
    seen["total_after_restart"] = await store.total_lookups(1)
    seen["misses_after_restart"] = [(m.query, m.count) for m in await store.top_misses(1)]
    seen["aliases_after_restart"] = await store.aliases(1)
    await store.close()
    conn = sqlite3.connect(path)
    seen["integrity"] = conn.execute("PRAGMA integrity_check").fetchone()[0]
    conn.close()

    # Started while the file is read-only, the bot leaves -wal and -shm read-only behind; once
    # the file is writable again, the next start must be able to write at once.
    _chmod(path, 0o444)
    try:
        store = await Store.open(path, flush_interval=None)
        seen["sidecars_left_read_only"] = _read_only_sidecars(path)
        await store.close()
    finally:
        _chmod(path, 0o644)
    store = await Store.open(path, flush_interval=None)
    seen["add_alias_after_restart"] = (
        await store.add_alias(1, "gqa", "GQA", "grouped-query-attention", actor_id=3)
    ).status.value
    await store.close()

    # A read-only directory too, and no -shm to share: SQLite cannot even read a WAL file then.
    _chmod(path, 0o444)
    _chmod(path.parent, 0o555)
    try:
        try:
            store = await Store.open(path, flush_interval=None)
            await store.close()
            seen["open_read_only_dir"] = "opened"
        except StorageUnavailable as exc:
            seen["open_read_only_dir"] = str(exc)
    finally:
        _chmod(path.parent, 0o755)
        _chmod(path, 0o644)
    return seen


if __name__ == "__main__":
    print(json.dumps(asyncio.run(scenario(Path(sys.argv[1])))))
