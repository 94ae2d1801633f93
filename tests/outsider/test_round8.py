"""What an eighth round of outside testing found through `glossary-bot run`, the command line
and the real client against the fake Discord (tests/outsider/PLAN.md, round 8)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from tests.resilience.botproc import ROOT, BotProcess, bot_env
from tests.resilience.test_lost_database import eventually

from .conftest import Scene

CHANNEL_MESSAGES = "/channels/{channel_id}/messages"


async def health(env: dict[str, str], cwd: Path) -> tuple[int, str]:
    """`glossary-bot health` as the container's HEALTHCHECK runs it: exit status and output."""
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "bot.cli", "health", "--max-age", "30"),
        env=env,
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await process.communicate()
    assert process.returncode is not None
    return process.returncode, output.decode().strip()


async def test_health_during_a_discord_outage_stays_healthy_and_says_so(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line H1: Discord's REST API failing (503) while the gateway stays up. A restart
    mends nothing there, so `health` stays healthy (exit 0: a HEALTHCHECK must not restart the
    bot through Discord's outage); but it said plain "healthy", hiding that every answer was
    lost. Now it says so, and says nothing more once Discord answers again."""
    fake = scene.fake
    heartbeat = tmp_path / "heartbeat"
    settings = {"HEARTBEAT_PATH": str(heartbeat), "COOLDOWN_USES": "1000"}
    env = bot_env(fake, scene.db_path, PYTHONPATH=str(ROOT), **settings)
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, **settings) as bot:
        await eventually(heartbeat.exists, "the first heartbeat")
        fake.fail_next("POST", CHANNEL_MESSAGES, status=503, times=1000)
        await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} what is rag")
        await bot.wait_for_output(r"WARNING.*Discord.*failing", within=30.0)

        async def says_failing() -> bool:
            status, said = await health(env, tmp_path)
            assert status == 0, said  # healthy all along: a restart would not help
            return "Discord" in said

        await eventually(says_failing, "`health` to say Discord is failing")
        _, said = await health(env, tmp_path)
        assert said.startswith("healthy"), said
        assert "503 Service Unavailable" in said, said
        assert "a restart would not help" in said, said

        fake.faults.clear()  # Discord is back
        await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} what is rag")
        await fake.wait_for_channel_message(scene.channel)

        async def says_healthy_only() -> bool:
            status, said = await health(env, tmp_path)
            return status == 0 and "Discord" not in said

        await eventually(says_healthy_only, "`health` to say healthy, nothing more")
        await bot.wait_for_output(r"INFO.*Discord.*answer", within=30.0)
        assert await bot.stop() == 0
    assert "Traceback" not in bot.output
