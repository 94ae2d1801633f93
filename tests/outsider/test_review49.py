"""review49: swap48's guard (writes stop until a restart when the database's -wal or -shm change
identity, or the file stops starting as a SQLite database) must not fire on a healthy bot. Every
other program a self-hoster runs on the running bot's file, while it flushes and a moderator
adds aliases: the command line's reads and copies, the `sqlite3`-style read of another
process, a checkpoint, a second bot refused by the run lock, `health`, a reload (SIGHUP)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

from tests.discord_app.helpers import define
from tests.resilience.botproc import CLI_ENV, ROOT, BotProcess

from .conftest import Scene

SWAPPED = "changed under the running bot"


# The command line's runs beside the bot one after another in ONE process, not the bot's (a
# process each spent 1-2 s of CPU importing the bot, 5-10 s loaded): each is `bot.cli.main`
# there as `glossary_bot_run_here` runs it, its files, connections and locks its own.
_EACH_COMMAND_READ = """
import json, sys
from pathlib import Path
from tests.resilience.botproc import glossary_bot_run_here
for line in sys.stdin:
    env, cwd, args = json.loads(line)
    done = glossary_bot_run_here(env, Path(cwd), *args)
    print(json.dumps([done.returncode, done.stdout + done.stderr]), flush=True)
"""
Command = Callable[..., Awaitable[tuple[int, str]]]


@contextlib.asynccontextmanager
async def commands_beside(env: dict[str, str], cwd: Path) -> AsyncIterator[Command]:
    """`glossary-bot ARGS` run by another process than this test's and the bot's, as an
    operator runs it beside the bot: its exit status and output, stdout then stderr."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        _EACH_COMMAND_READ,
        env={**env, "PYTHONPATH": str(ROOT)},
        cwd=cwd,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert process.stdin is not None
    assert process.stdout is not None
    stdin, stdout = process.stdin, process.stdout

    async def run(*args: str) -> tuple[int, str]:
        stdin.write(json.dumps([env, str(cwd), args]).encode() + b"\n")
        await stdin.drain()
        line = await asyncio.wait_for(stdout.readline(), timeout=120)  # a bound on a hang
        assert line, f"the commands' process ended at {args}"
        status, said = json.loads(line)
        return status, said

    try:
        yield run
    finally:
        stdin.close()
        assert await asyncio.wait_for(process.wait(), timeout=60) == 0


def _read_in_another_process(db: Path, sql: str) -> None:
    """What a self-hoster's `sqlite3 glossary-bot.db` does: open, read, close."""
    read = (
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
        "c.execute(sys.argv[2]).fetchall(); c.close()"
    )
    subprocess.run([sys.executable, "-c", read, str(db), sql], check=True, timeout=60)


async def test_nothing_run_beside_a_healthy_bot_stops_its_writes(
    scene: Scene, tmp_path: Path
) -> None:
    fake, db = scene.fake, scene.db_path
    heartbeat = tmp_path / "heartbeat"
    env = {**CLI_ENV, "HEARTBEAT_PATH": str(heartbeat)}
    lookups = 0

    async def someone_looks_up() -> None:  # a count, flushed within the second
        nonlocal lookups
        _, card = await define(fake, scene.alice, "rag", scene.channel)
        assert card["embeds"], card
        lookups += 1

    async def moderator_adds_an_alias(alias: str) -> None:
        added = await fake.slash(
            scene.moderator, "alias add", {"alias": alias, "term": "rag"}, channel=scene.channel
        )
        said = (await added.final_message())["content"]
        assert said.startswith("Added"), said

    # Many commands in a minute from one person: no cooldown in the way.
    settings = {"HEARTBEAT_PATH": str(heartbeat), "COOLDOWN_USES": "1000"}
    async with (
        BotProcess(fake, db, cwd=tmp_path, **settings) as bot,
        commands_beside(env, tmp_path) as glossary_bot,
    ):
        await bot.wait_for_output(r"healthy: heartbeat in", within=30)
        await moderator_adds_an_alias("zorblax")
        runs: list[tuple[str, ...]] = [
            ("stats", "--db", str(db)),
            ("backup", "--db", str(db), str(tmp_path / "backup.db")),
            ("check", "--db", str(db)),
            ("check", "--db", str(db), "--deep"),
            ("aliases", "export", "--db", str(db)),
            ("prune", "--db", str(db), "--older-than", "1"),  # another process writing
            ("health",),
        ]
        for args in runs:
            await someone_looks_up()
            status, said = await glossary_bot(*args)
            assert status == 0, (args, said)
        for args in [
            ("restore", "--db", str(db), str(tmp_path / "backup.db")),
            ("prune", "--db", str(db), "--older-than", "1", "--vacuum"),
            ("migrate-db", "--from", str(db), "--to", str(tmp_path / "copy.db")),
        ]:
            await someone_looks_up()
            status, said = await glossary_bot(*args)
            assert status != 0, (args, said)  # refused: the bot runs
            assert "bot" in said, (args, said)
        for sql in ("SELECT count(*) FROM aliases", "PRAGMA wal_checkpoint(TRUNCATE)"):
            await someone_looks_up()
            _read_in_another_process(db, sql)
        await someone_looks_up()
        second = BotProcess(fake, db, cwd=tmp_path, CLAIM_WAIT="0")  # refused at once
        await second.start(wait_ready=False)
        assert await second.exited(within=90) != 0  # refused: this bot runs on the file
        assert "another bot runs on" in second.output, second.output
        await someone_looks_up()
        bot.send_signal(signal.SIGHUP)
        await bot.wait_for_output(r"glossary reloaded", within=30)
        await someone_looks_up()
        await moderator_adds_an_alias("quuxwidget")
        status, said = await glossary_bot("health")
        assert status == 0, said
        assert [x for x in bot.lines if SWAPPED in x] == []
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("SELECT count(*) FROM aliases").fetchone() == (2,)
        assert conn.execute("SELECT sum(count) FROM lookups").fetchone() == (lookups,)
    finally:
        conn.close()
