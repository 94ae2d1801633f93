"""`prune --vacuum`: a SQLite file keeps its size after rows are removed (SQLite reuses the space
for new rows); VACUUM rewrites it without the free pages."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from .errors import as_storage_error


async def vacuum_database(path: Path) -> tuple[int, int]:
    """Rewrite the database at `path` without its free pages; the file's size before and after,
    in bytes. The caller sees that no bot uses it (`one_bot_per_file`): VACUUM waits for every
    other connection's writes and rewrites the whole file, which needs room for a copy."""
    return await asyncio.to_thread(_vacuum, path)


def _vacuum(path: Path) -> tuple[int, int]:
    before = path.stat().st_size
    try:
        conn = sqlite3.connect(path)
        try:
            conn.execute("VACUUM")
            # In WAL mode the rewritten pages are in the log: put them in the file, and let the
            # file shrink now, not at the next checkpoint.
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise as_storage_error(exc, str(path)) from exc
    return before, path.stat().st_size
