"""What a sixth round of outside testing found through `glossary-bot run` and the command line
(tests/outsider/PLAN.md, round 6)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.conftest import TEST_DATABASE_URL
from tests.resilience.botproc import BotProcess, glossary_bot
from tests.storage.conftest import fresh_schema

from .conftest import Scene
from .test_round5 import TcpRelay


async def health_until(env: dict[str, str], cwd: Path, said: str, bound: float = 30.0) -> str:
    """`glossary-bot health`'s answer once it says `said` (polled: it reads another process's
    file, there is no event to await); fails after `bound` seconds with the last answer."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + bound
    while True:
        status, output = await glossary_bot(env, cwd, "health")
        if said in output or loop.time() > deadline:
            return f"{status} {output.strip()}"
        await asyncio.sleep(0.5)


@pytest.mark.postgres
async def test_health_names_the_database_when_postgresql_goes_right_after_start(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line P1: PostgreSQL gone right after start, before the first heartbeat: `health`
    said "no heartbeat ... yet (starting, or never connected)" for as long as it was gone, and
    the log "not connected to Discord, or the database is not writable", while the bot was
    connected and answering."""
    real = urlsplit(TEST_DATABASE_URL)
    relay = TcpRelay(real.hostname or "127.0.0.1", real.port or 5432)
    await relay.open()
    heartbeat = tmp_path / "heartbeat"
    async with fresh_schema(TEST_DATABASE_URL, "outsider6") as url:
        through_relay = urlsplit(url)._replace(
            netloc=f"{real.username}:{real.password}@127.0.0.1:{relay.port}"
        )
        settings = {"DATABASE_URL": urlunsplit(through_relay), "HEARTBEAT_PATH": str(heartbeat)}
        async with BotProcess(scene.fake, tmp_path / "unused.db", cwd=tmp_path, **settings) as bot:
            await relay.close()
            said = await health_until(dict(bot.env), tmp_path, "not writable")
            assert said.startswith("1 "), said
            assert "database at postgresql://" in said, said
            assert f"127.0.0.1:{relay.port}" in said, said  # where: the operator's URL
            assert f":{real.password}@" not in said, said
            assert "never connected" not in said, said
            line = await bot.wait_for_output(r"unhealthy: .*database")
            assert "not connected to Discord, or" not in line, line
            await relay.open()
            said = await health_until(dict(bot.env), tmp_path, "healthy: last heartbeat")
            assert said.startswith("0 "), said
