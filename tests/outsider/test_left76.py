"""left76 (tests/outsider/PLAN.md, "left76"): what this session's product reviews noticed and
left, outside Discord."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest

from bot.storage.errors import ShardsTaken
from bot.storage.sqlite.run_lock import bot_running_on, lock_path, one_bot_per_file

# What a local writer may leave in a lock file: terminal escapes (clear the screen, set the
# window's title) and a line break that would start a line of its own in the operator's log.
PLANTED = "glossary-bot shards all pid 1\x1b[2J\x1b]0;owned\x07\nERROR: forged line\x9b"
SHOWN = r"glossary-bot shards all pid 1\x1b[2J\x1b]0;owned\x07\nERROR: forged line\x9b"


def _held_with(tmp_path: Path, text: str) -> tuple[Path, int]:
    """A database whose lock file holds `text`, locked by another open file (a bot)."""
    database = tmp_path / "glossary.db"
    path = lock_path(str(database))
    Path(path).write_text(text)
    fd = os.open(path, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return database, fd


async def test_a_lock_file_s_holder_is_shown_escaped_one_printable_line(
    tmp_path: Path,
) -> None:
    """left76: a bot (or `prune --dry-run`, `restore`) refused because another process holds
    the run lock named the holder from the lock file as it was: whoever may write in the
    database's folder could send escapes to the operator's terminal, or a forged log line.
    Now shown escaped, as the heartbeat's text is."""
    database, fd = _held_with(tmp_path, PLANTED)
    try:
        assert bot_running_on(str(database)) == SHOWN
        with pytest.raises(ShardsTaken) as refused:
            async with one_bot_per_file(
                str(database), holder="glossary-bot shards all pid 2", wait=0, command=False
            ):
                pass
        assert refused.value.holders == [SHOWN]
    finally:
        os.close(fd)
