"""Small faults found by review and outside testing and left for later (task ops14), each
through the real program: `glossary-bot run` against the fake Discord, the command line, real
SQLite files."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import shutil
import signal
import struct
import time
from pathlib import Path

from bot.discord_app.cogs.moderators import STORAGE_DOWN
from bot.heartbeat import MAX_AGE, check_heartbeat
from bot.storage.sqlite.run_lock import FILE_LOCK_BYTE
from tests.discord_app.helpers import define
from tests.ops.test_metrics import metrics_port, scrape
from tests.polling import eventually
from tests.resilience.botproc import CLI_ENV, BotProcess, glossary_bot, glossary_bot_waited
from tests.resilience.helpers import moderator_says

from .conftest import Scene

EMBED_LINKS = 1 << 14


async def test_a_card_the_bot_could_not_show_is_no_lookup(scene: Scene, tmp_path: Path) -> None:
    """A mention in a channel without Embed Links is answered with a line naming the card and
    the permission (outsider round 13, X12): nobody read the card, so `/stats` does not count
    it as a lookup, and the metrics count the mention refused (a permission the bot lacks), not
    a card; the same card where it can be shown is one."""
    fake = scene.fake
    for role in scene.other_guild.roles.values():
        role.permissions &= ~EMBED_LINKS
    async with BotProcess(
        fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="100", METRICS_PORT="0"
    ) as bot:
        port = await metrics_port(bot)
        await fake.user_message(scene.alice, scene.other_channel, f"{fake.bot.mention} rag")
        answer = await fake.wait_for_channel_message(scene.other_channel)
        assert "Embed Links" in answer["content"], answer
        await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} rag")
        assert (await fake.wait_for_channel_message(scene.channel))["embeds"]
        outcomes: dict[str, float] = {}

        async def both_counted() -> bool:  # each when its work's task ends, in the bot
            values = await asyncio.to_thread(scrape, port)
            for outcome in ("refused", "card"):
                labels = (("kind", "mention"), ("outcome", outcome))
                outcomes[outcome] = values.get(("glossary_interactions_total", labels), 0.0)
            return sum(outcomes.values()) >= 2

        await eventually(both_counted, "both mentions counted")
        assert outcomes == {"refused": 1, "card": 1}
    counted = {}
    for guild in (scene.other_guild, scene.guild):
        status, said = await glossary_bot(
            CLI_ENV,
            tmp_path,
            "stats",
            "--db",
            str(scene.db_path),
            "--json",
            "--guild",
            str(guild.id),
        )
        assert status == 0, said
        counted[guild.id] = json.loads(said)["total_lookups"]
    assert counted == {scene.other_guild.id: 0, scene.guild.id: 1}


def _cli(cwd: Path, *args: str, file_size_limit: int | None = None) -> tuple[int, str]:
    return glossary_bot_waited(CLI_ENV, cwd, *args, file_size_limit=file_size_limit)


def _database_with_a_term(tmp_path: Path) -> Path:
    terms = tmp_path / "terms.toml"
    terms.write_text(
        '[[entries]]\nid = "zorb"\ntitle = "Zorb"\ncategory = "Fundamentals"\n'
        'definition = "A zorb."\n',
        encoding="utf-8",
    )
    db = tmp_path / "g.db"
    status, said = _cli(tmp_path, "terms", "import", str(terms), "--guild", "5", "--db", str(db))
    assert status == 0, said
    return db


def test_a_full_disk_under_the_database_is_not_called_the_output(tmp_path: Path) -> None:
    """`migrate-db` on a disk that filled wrote the name of the holder into its lock file
    first, and that write failing read "cannot write the output: ...; what was written is cut
    short" (it printed nothing). The lock holds unnamed; the database's own error is said."""
    db = _database_with_a_term(tmp_path)
    status, said = _cli(
        tmp_path,
        "migrate-db",
        "--from",
        str(db),
        "--to",
        "postgresql://127.0.0.1:1/x",
        file_size_limit=0,
    )
    assert status == 1, said
    assert "output" not in said, said
    assert said.splitlines() == [
        f"glossary-bot: error: the disk holding the database is full: SQLite cannot make room "
        f"for {db}-shm, which even a read needs; free some space there"
    ], said


# A bot's periodic beats while a test waits for its next (HEARTBEAT_INTERVAL's default: 10 s).
SHORT_BEATS = {"HEARTBEAT_INTERVAL": "0.5"}


async def _next_beat(heartbeat: Path, after: str, within: float = 30.0) -> str:
    """The heartbeat file once the bot has written it again (its text other than `after`);
    polled: the file is another process's, and no event says it changed."""
    started = time.monotonic()
    while time.monotonic() - started < within:
        said = await asyncio.to_thread(heartbeat.read_text, encoding="utf-8")
        if said != after:
            return said
        await asyncio.sleep(0.25)
    raise AssertionError(f"the heartbeat was not written again within {within} s: {after!r}")


async def test_health_says_both_faults_while_the_bot_runs_and_down_once_it_stops(
    scene: Scene, tmp_path: Path
) -> None:
    """A bot whose database failed ("unhealthy: connected to Discord, but the database ...")
    that then lost Discord stopped renewing that line: 45 s later `health` said "down: nothing
    from the bot for N s", of a bot still running. Now it keeps saying both, in one line;
    "down" is for a bot that stopped writing."""
    fake = scene.fake
    folder = tmp_path / "data"
    folder.mkdir()
    heartbeat = tmp_path / "heartbeat"
    env = {**CLI_ENV, "HEARTBEAT_PATH": str(heartbeat)}
    async with BotProcess(
        fake, folder / "g.db", cwd=tmp_path, HEARTBEAT_PATH=str(heartbeat), **SHORT_BEATS
    ) as bot:
        await bot.wait_for_output(r"healthy: heartbeat in", within=30)
        shutil.rmtree(folder)
        # A moderator's change meets it (refused): the heartbeat says it then, not at its next beat.
        _, refused = await moderator_says(scene, "alias add", {"alias": "x", "term": "rag"})
        assert refused["content"] == STORAGE_DOWN, refused
        await bot.wait_for_output(r"unhealthy: connected to Discord, but the database", within=30)
        fake.gateway.hello_gate.clear()  # Discord out of reach from now on
        await fake.drop_gateway()
        both = "unhealthy: not connected to Discord, and the database at "
        await bot.wait_for_output(both, within=30)
        said = heartbeat.read_text(encoding="utf-8")
        assert said.startswith(both), said
        # swap49: and why (the folder deleted under it)
        assert said.splitlines()[0].endswith(
            "is not writable: the database file is gone (so is its folder)"
        ), said
        said = await _next_beat(heartbeat, said)  # renewed: the bot is alive
        assert said.startswith(both), said
        status, told = await glossary_bot(env, tmp_path, "health")
        assert (status, told.strip()) == (1, said.splitlines()[0]), told
        assert await bot.stop(signal.SIGKILL) == -signal.SIGKILL
    healthy, told = check_heartbeat(heartbeat, now=time.time() + MAX_AGE + 5)
    assert not healthy
    assert told.startswith("down: nothing from the bot for"), told
    assert told.endswith(f"it last said: {said.splitlines()[0]}"), told


def _deleted_files_held(pid: int, name: Path) -> list[str]:
    """The files named `name...` that process `pid` holds open though they were deleted or
    replaced (their space freed only when it lets go)."""
    held = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(FileNotFoundError):  # a descriptor closed meanwhile
            target = str(fd.readlink())
            if target.startswith(str(name)) and target.endswith(" (deleted)"):
                held.append(target)
    return held


def _run_lock_byte_held(database: Path) -> bool:
    """Whether a process holds the byte of `database` a running bot locks (run_lock)."""
    fd = os.open(database, os.O_RDWR)
    try:
        asked = struct.pack("hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, FILE_LOCK_BYTE, 1, 0)
        kind = struct.unpack("hhqqi4x", fcntl.fcntl(fd, fcntl.F_OFD_GETLK, asked))[0]
    finally:
        os.close(fd)
    return kind != fcntl.F_UNLCK


async def test_a_database_file_replaced_under_the_bot_is_let_go_and_the_new_one_locked(
    scene: Scene, tmp_path: Path
) -> None:
    """The bot noticed a restored backup put over its database and wrote to it from then on,
    but the lock that keeps a second bot off the file (one byte of it) stayed on the file it
    replaced: held open, its space was freed only when the bot stopped, and the new file was
    not locked (a second bot through a hard link to it was not refused)."""
    fake, db = scene.fake, scene.db_path
    restored = tmp_path / "restored.db"
    async with BotProcess(fake, db, cwd=tmp_path) as bot:
        assert bot.process is not None
        assert _run_lock_byte_held(db)
        status, said = await glossary_bot(
            CLI_ENV, tmp_path, "backup", "--db", str(db), str(restored)
        )
        assert status == 0, said
        restored.replace(db)  # the operator restores the backup, the bot running
        await define(fake, scene.alice, "rag", scene.channel)  # a lookup: written within 1 s
        await bot.wait_for_output("was replaced by another database", within=30)
        assert _deleted_files_held(bot.process.pid, db) == []
        assert _run_lock_byte_held(db)
    assert not _run_lock_byte_held(db)
