"""Review of this session's merges (tests/outsider/PLAN.md, "Review of this session's merges
(review41)"). Real SQLite files, the real CLI; the real bot against the fake Discord."""

from __future__ import annotations

import re
import shutil
import signal
from pathlib import Path

from bot.discord_app.app import STOP_SECONDS
from tests.resilience.botproc import BotProcess, glossary_bot_waited

from .conftest import Scene

from .test_readme35 import CLI_ENV, _aliases, _database_with_alias


def test_restore_leaves_a_copy_kept_by_hand_beside_the_numbered_ones(tmp_path: Path) -> None:
    """A1: restore's pruning took every file named `….before-restore.N-<anything>` for copy N's
    log, so a copy an operator kept by hand under such a name (`….before-restore.1-good`, the
    database before a wrong restore) was removed with copy 1, silently (only databases are
    named). Now only SQLite's own companions of a copy (-wal, -journal, -shm) go with it."""
    db, backup = tmp_path / "glossary-bot.db", tmp_path / "a.db"
    _database_with_alias(tmp_path, db, "qq live")
    _database_with_alias(tmp_path, backup, "qq backup")
    kept = Path(f"{db}.before-restore")

    def restore() -> str:
        status, output = glossary_bot_waited(
            CLI_ENV, tmp_path, "restore", str(backup), "--db", str(db)
        )
        assert status == 0, output
        return output

    for _ in range(2):  # .before-restore and .1: the live database is .1 now
        restore()
    assert _aliases(tmp_path, Path(f"{kept}.1")) == ["qq live"]
    by_hand = Path(f"{kept}.1-good")
    shutil.copy(f"{kept}.1", by_hand)
    for _ in range(3):  # .2, .3, .4 made: .1 removed
        output = restore()
    assert (
        f"removed the oldest copies earlier restores kept (3 are kept beside the one just made): {kept}.1"
        in output
    ), output
    assert not Path(f"{kept}.1").exists()
    assert by_hand.exists(), sorted(p.name for p in tmp_path.iterdir())
    assert _aliases(tmp_path, by_hand) == ["qq live"]
    assert f"the copy an earlier restore kept is now {kept}.4" in output  # its number not taken


SHARD_RECONNECT = r"Attempting a reconnect for shard ID 0 in (\d+\.\d+)s"


async def test_a_sharded_bot_stopped_while_discord_is_unreachable_stops_at_once(
    scene: Scene, tmp_path: Path
) -> None:
    """A7: outsider40's stop between connections (round 28 U1) was for a bot of one
    connection only, "a sharded client's close ends its shards'". It does not: discord.py's
    AutoShardedClient sleeps a shard's reconnect backoff (after its first) in the connect loop
    itself, which closing the client does not wake, so a bot with SHARD_COUNT set waited out
    the stop's deadline as the unsharded one did. (Timed as round 28's: waiting out the
    deadline is the fault; the backoff slept through is made longer than the deadline first.)"""
    async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path, SHARD_COUNT="1") as bot:
        await scene.fake.stop()  # Discord gone: the shard retries, sleeping longer each time
        count = 1
        while True:
            line = await bot.wait_for_output(SHARD_RECONNECT, within=180.0, count=count)
            match = re.search(SHARD_RECONNECT, line)
            assert match is not None
            if float(match[1]) > STOP_SECONDS + 2:  # the stop comes during this sleep
                break
            count += 1
        bot.send_signal(signal.SIGTERM)
        assert await bot.exited(within=STOP_SECONDS - 1) == 0, bot.output
    assert "stopping: flushing counts and closing the connection" in bot.output
    assert "Traceback" not in bot.output
