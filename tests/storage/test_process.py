"""Real processes: SIGTERM loses no count; kill -9 loses only what was not yet flushed (the
background flusher bounds that to the last second), and the database opens cleanly after."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from bot.storage import Store

from .conftest import query, stored_lookups

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("process_scenario.py")


def start(mode: str, db: Path, stdin: int | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(SCRIPT), mode, str(db)],
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def test_sigterm_writes_every_buffered_count(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    bot = start("sigterm", db)
    assert bot.stdout is not None
    assert bot.stdout.readline().strip() == "ready"  # everything recorded, nothing written
    bot.send_signal(signal.SIGTERM)
    assert bot.wait(timeout=30) == 0, bot.stderr.read() if bot.stderr else ""
    assert stored_lookups(db) == 10_000
    assert query(db, "SELECT query, count FROM misses") == [("unwritten miss", 1)]


async def test_kill_9_loses_only_what_was_not_flushed(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    bot = start("crash", db, stdin=subprocess.PIPE)
    assert bot.stdout is not None
    assert bot.stdin is not None
    for round_ in range(5):
        line = bot.stdout.readline()
        assert line.startswith("flushed"), bot.stderr.read() if bot.stderr else line
        if round_ < 4:
            bot.stdin.write("go\n")
            bot.stdin.flush()
    flushed = int(line.split()[1])
    bot.kill()  # while 250 counts are still buffered
    bot.wait(timeout=30)

    store = await Store.open(db, flush_interval=None)  # opens cleanly after the crash
    try:
        stored = (await store.stats(None)).total_lookups
    finally:
        await store.close()
    assert stored == flushed
    assert query(db, "PRAGMA integrity_check") == [("ok",)]
