"""Small faults found by review and outside testing and left for later (task ops14), each
through the real program: `glossary-bot run` against the fake Discord, the command line, real
SQLite files."""

from __future__ import annotations

import asyncio
import json
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot.discord_app.health import MAX_AGE, check_heartbeat
from tests.resilience.botproc import ROOT, BotProcess, glossary_bot

from .conftest import Scene

CLI_ENV = {"PYTHONPATH": str(ROOT), "GLOSSARY_PATHS": "", "PATH": "/usr/bin:/bin"}
EMBED_LINKS = 1 << 14


async def test_a_card_the_bot_could_not_show_is_no_lookup(scene: Scene, tmp_path: Path) -> None:
    """A mention in a channel without Embed Links is answered with a line naming the card and
    the permission (outsider round 13, X12): nobody read the card, so `/stats` does not count
    it as a lookup; the same card where it can be shown is one."""
    fake = scene.fake
    for role in scene.other_guild.roles.values():
        role.permissions &= ~EMBED_LINKS
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="100"):
        await fake.user_message(scene.alice, scene.other_channel, f"{fake.bot.mention} rag")
        answer = await fake.wait_for_channel_message(scene.other_channel)
        assert "Embed Links" in answer["content"], answer
        await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} rag")
        assert (await fake.wait_for_channel_message(scene.channel))["embeds"]
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
    """`glossary-bot` with its stderr read through a pipe, the disk filling up at
    `file_size_limit` bytes a file (a write past it fails with EFBIG, as ENOSPC on a full disk)."""

    def limited() -> None:
        if file_size_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))

    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        env=CLI_ENV,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limited,
        check=False,
    )
    return done.returncode, done.stdout + done.stderr


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
        "glossary-bot: error: the database could not be written (disk I/O error)"
    ], said


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
        fake, folder / "g.db", cwd=tmp_path, HEARTBEAT_PATH=str(heartbeat)
    ) as bot:
        await bot.wait_for_output(r"healthy: heartbeat in", within=30)
        shutil.rmtree(folder)
        await bot.wait_for_output(r"unhealthy: connected to Discord, but the database", within=30)
        fake.gateway.hello_gate.clear()  # Discord out of reach from now on
        await fake.drop_gateway()
        both = "unhealthy: not connected to Discord, and the database at "
        await bot.wait_for_output(both, within=30)
        said = heartbeat.read_text(encoding="utf-8")
        assert said.startswith(both), said
        assert said.splitlines()[0].endswith("is not writable"), said
        said = await _next_beat(heartbeat, said)  # renewed: the bot is alive
        assert said.startswith(both), said
        status, told = await glossary_bot(env, tmp_path, "health")
        assert (status, told.strip()) == (1, said.splitlines()[0]), told
        assert await bot.stop(signal.SIGKILL) == -signal.SIGKILL
    healthy, told = check_heartbeat(heartbeat, now=time.time() + MAX_AGE + 5)
    assert not healthy
    assert told.startswith("down: nothing from the bot for"), told
    assert told.endswith(f"it last said: {said.splitlines()[0]}"), told
