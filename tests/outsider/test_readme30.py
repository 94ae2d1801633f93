"""readme30: a newcomer follows the README (tests/outsider/PLAN.md, "A newcomer follows the
README (readme30)"). Each test failed before its fix."""

from __future__ import annotations

from pathlib import Path

from tests.resilience.botproc import BotProcess

from .conftest import Scene


async def test_a_greeting_in_dms_gets_help_that_fits_dms(scene: Scene, tmp_path: Path) -> None:
    """The README: "in DMs, just write the term"; a DM "hi" was told "mention me with it", which
    a DM does not need. In a server the help line still says to mention the bot."""
    fake = scene.fake
    dm = fake.dm_channel(scene.alice)
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="100"):
        await fake.user_message(scene.alice, dm, "hi")
        answer = await fake.wait_for_channel_message(dm)
        assert answer["content"] == (
            "Ask me about a term: write it here, e.g. “what is a KV cache?”, or use `/define`."
        ), answer
        await fake.user_message(scene.bob, scene.channel, f"{fake.bot.mention} hey there!")
        answer = await fake.wait_for_channel_message(scene.channel)
        assert answer["content"].startswith("Ask me about a term: mention me with it"), answer
