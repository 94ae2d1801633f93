"""`glossary-bot run` ends on Discord's refusals with one line and a configuration exit code."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.fake_discord import FakeDiscord
from tests.fake_discord.gateway import AUTHENTICATION_FAILED
from tests.resilience.botproc import BotProcess, bot_env, glossary_bot


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


async def test_a_shard_discord_refuses_is_one_line_naming_the_setting_and_exit_2(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    # The fake, as Discord, runs the bot on one shard: shard 1 of 2 is refused with 4010.
    fake_discord.add_guild("Run Lab")
    env = bot_env(fake_discord, tmp_path / "bot.db", SHARD_COUNT="2", SHARD_IDS="1")
    code, output = await glossary_bot(env, tmp_path, "run")
    assert code == 2, output
    assert "Traceback" not in output
    errors = [line for line in output.splitlines() if line.startswith("glossary-bot:")]
    assert errors == [
        "glossary-bot: Discord refused the shard (4010 invalid shard): check SHARD_COUNT and "
        "SHARD_IDS (SHARD_COUNT=2 here; Discord's count is in its /gateway/bot answer)"
    ], output
    assert not [line for line in output.splitlines() if "ERROR" in line], output
    refused = fake_discord.pop_violations()  # provoked on purpose: what Discord refuses
    assert [v.detail for v in refused] == [
        "IDENTIFY refused with 4010 Invalid shard.: shard_count 2 but the fake was told 1"
    ]


async def test_discord_sharding_a_running_bot_is_one_line_naming_shard_count_and_exit_2(
    tmp_path: Path,
) -> None:
    # SHARD_COUNT unset runs Discord's count at the start: one unsharded connection here. The
    # bot then grows past what one connection may serve: Discord ends the session, and refuses
    # the new IDENTIFY with 4011, which names the setting (a restart asks Discord again).
    async with FakeDiscord(shard_count=1) as fake:
        fake.add_guild("Run Lab")
        async with BotProcess(fake, tmp_path / "bot.db", cwd=tmp_path) as bot:
            fake.sharding.shard_count = 2
            await fake.gateway.invalidate_session(resumable=False)
            code = await bot.exited()
        refused = fake.pop_violations()
    assert code == 2, bot.output
    assert "Traceback" not in bot.output
    errors = [line for line in bot.lines if line.startswith("glossary-bot:")]
    assert errors == [
        "glossary-bot: Discord refused the shard (4011 sharding required): check SHARD_COUNT "
        "and SHARD_IDS (SHARD_COUNT=unset here: this process ran Discord's count at its start, "
        "1; a restart asks Discord again)"
    ], bot.output
    assert [v.detail.split(":")[0] for v in refused] == [
        "IDENTIFY refused with 4011 Sharding required."
    ]
