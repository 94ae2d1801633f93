"""review56: attacks on versions51 and scale50 (tests/outsider/PLAN.md, "review56").

The real discord.py client against the fake Discord, a real SQLite file; shown by what is kept
and read, never by a time."""

from __future__ import annotations

from typing import Any

import pytest

from bot import term_import
from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import define, embed_of
from tests.polling import eventually

from .conftest import Scene
from .test_scale50 import toml_of


async def test_a_server_removed_during_its_import_is_not_kept_nor_embedded(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """scale50 S12 let a removed server's glossary go at GUILD_DELETE; but an import under way
    then (its write, then `reload`) read the server again and kept it, and embedded its terms:
    2,000 terms of a server the bot is no longer in, minutes of the one embedding thread. The
    import is stored and answered; the server is not kept again."""
    fake, guild = scene.fake, scene.guild.id
    real = term_import.change_terms
    member = scene.guild.members[fake.bot.id]

    async def removed_meanwhile(*args: Any, **kwargs: Any) -> Any:
        del scene.guild.members[fake.bot.id]
        await fake.gateway.dispatch("GUILD_DELETE", {"id": str(guild)}, guild_id=guild)
        await eventually(lambda: bot.get_guild(guild) is None, "the bot has let the server go")
        return await real(*args, **kwargs)

    monkeypatch.setattr(term_import, "change_terms", removed_meanwhile)
    async with start_bot(store) as bot:
        _, card = await define(fake, scene.alice, "lora", scene.channel)
        upload = fake.add_attachment("z.toml", toml_of("Zorbic", 5))
        handle = await fake.slash(
            scene.moderator, "term import", {"file": upload}, channel=scene.channel
        )
        said = str((await handle.final_message())["content"])
        assert said.startswith("Imported: 5 added"), said
        assert len(await store.terms(guild)) == 5  # stored
        _, card = await define(fake, scene.alice, "lora", scene.other_channel)
        assert embed_of(card)["title"]
        servers = bot.state.servers
        assert servers.indexed_servers() == 0
        assert not servers.knows(guild)

        scene.guild.members[fake.bot.id] = member  # added back: its GUILD_CREATE
        await fake.gateway.end_outage(guild)
        await eventually(lambda: bot.get_guild(guild) is not None, "the server is back")
        _, card = await define(fake, scene.alice, "Zorbic Quux 3", scene.channel)
        assert embed_of(card)["title"] == "Zorbic Quux 3"
        assert servers.knows(guild)  # kept again
