"""`glossary-bot run` ends on Discord's refusals with one line and a configuration exit code."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.fake_discord import FakeDiscord
from tests.fake_discord.gateway import AUTHENTICATION_FAILED
from tests.resilience.botproc import BotProcess


async def test_a_token_revoked_mid_run_is_one_line_and_exit_2(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake_discord.add_guild("Run Lab")
    async with BotProcess(fake_discord, tmp_path / "bot.db", cwd=tmp_path) as bot:
        await fake_discord.gateway.drop(code=AUTHENTICATION_FAILED)  # Discord: token revoked
        assert bot.process is not None
        async with asyncio.timeout(30):
            code = await bot.process.wait()
        await bot.stop()
    assert code == 2, bot.output
    assert "Traceback" not in bot.output
    errors = [line for line in bot.lines if line.startswith("glossary-bot:")]
    assert errors == [
        "glossary-bot: Discord closed the connection: the token is no longer valid (4004): "
        "check DISCORD_TOKEN"
    ]
    assert not [line for line in bot.lines if "ERROR" in line], bot.output
