"""Small faults found by review and outside testing and left for later (task ops14), each
through the real program: `glossary-bot run` against the fake Discord, the command line, real
SQLite files."""

from __future__ import annotations

import json
from pathlib import Path

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
