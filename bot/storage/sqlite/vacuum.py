"""`prune --vacuum`: a SQLite file keeps its size after rows are removed (SQLite reuses the space
for new rows); VACUUM rewrites it without the free pages."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from ..errors import StorageError
from .errors import SQLITE_ERRORS, as_storage_error


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
            busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        finally:
            conn.close()
    except SQLITE_ERRORS as exc:
        raise as_storage_error(exc, str(path)) from exc
    if busy:  # a reader's snapshot still needs the old pages: the checkpoint cannot end
        raise StorageError(
            f"another connection was reading {path} (a sqlite3 shell, a backup, another "
            f"command), so the rewritten file waits in {path}-wal and the file keeps its size "
            "until a checkpoint after that connection closes; run prune --vacuum again then"
        )
    return before, path.stat().st_size
