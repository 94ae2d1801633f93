"""Command permission overrides (Integrations): served as Discord serves them, announced on the
gateway, and applied to who may invoke a command."""

from __future__ import annotations

import asyncio

import discord
import pytest

from tests.fake_discord import InteractionRefused
from tests.fake_discord.command_permissions import CHANNEL, all_channels, override
from tests.fake_discord.openapi import spec_errors, spec_or_skip

from .conftest import Scene
from .tiny_bot import TinyBot


async def test_overrides_decide_before_default_member_permissions(
    scene: Scene, bot: TinyBot
) -> None:
    fake, guild = scene.fake, scene.guild
    helpers = guild.add_role("Helpers")  # no Manage Server
    helper = fake.add_user("helper")
    guild.add_member(helper, roles=[helpers])

    async def may(user: object, channel: object = None) -> bool:
        handle = await fake.slash(user, "mod", channel=channel or scene.channel)  # type: ignore[arg-type]
        return not handle.refused

    assert await may(scene.moderator)
    assert not await may(helper)
    await fake.set_command_permissions(
        guild, "mod", [override(scene.moderator, False), override(helpers, True)]
    )
    assert not await may(scene.moderator)
    assert await may(helper)
    assert await may(scene.owner)  # administrators are never refused

    # A user's own override beats their roles'; a channel denial stops everyone but admins.
    await fake.set_command_permissions(
        guild, "mod", [override(helpers, True), override(helper, False)]
    )
    assert not await may(helper)
    quiet = guild.add_text_channel("quiet")
    await fake.set_command_permissions(
        guild, "mod", [override(helpers, True), override(quiet, False)]
    )
    assert await may(helper)
    assert not await may(helper, quiet)


async def test_command_level_beats_application_level(scene: Scene, bot: TinyBot) -> None:
    fake, guild = scene.fake, scene.guild
    await fake.set_command_permissions(guild, None, [override(guild.everyone, False)])
    refused = await fake.slash(scene.alice, "define", {"term": "kv"}, channel=scene.channel)
    with pytest.raises(InteractionRefused, match="denies"):
        await refused.response()
    await fake.set_command_permissions(guild, "define", [override(guild.everyone, True)])
    allowed = await fake.slash(scene.alice, "define", {"term": "kv"}, channel=scene.channel)
    assert not allowed.refused
    await allowed.response()

    # All channels denied for the application, this channel allowed for the command.
    everywhere = override(all_channels(guild), False, kind=CHANNEL)
    await fake.set_command_permissions(guild, None, [everywhere])
    await fake.set_command_permissions(guild, "define", [override(scene.channel, True)])
    assert not (
        await fake.slash(scene.alice, "define", {"term": "kv"}, channel=scene.channel)
    ).refused
    other = guild.add_text_channel("other")
    assert (await fake.slash(scene.alice, "define", {"term": "kv"}, channel=other)).refused


async def test_the_bot_reads_overrides_and_hears_of_changes(scene: Scene, bot: TinyBot) -> None:
    fake, guild = scene.fake, scene.guild
    app_id = fake.application_id
    assert await bot.http.get_guild_application_command_permissions(app_id, guild.id) == []
    [mod] = [c for c in await bot.tree.fetch_commands() if c.name == "mod"]
    with pytest.raises(discord.NotFound) as never_set:
        await mod.fetch_permissions(guild)
    assert never_set.value.code == 10066

    heard = asyncio.create_task(
        bot.wait_for("raw_app_command_permissions_update", timeout=fake.wait_timeout)
    )
    await fake.set_command_permissions(guild, "mod", [override(scene.alice, True)])
    event: discord.RawAppCommandPermissionsUpdateEvent = await heard
    assert event.target_id == mod.id
    assert event.guild.id == guild.id
    assert [(p.target.id, p.permission) for p in event.permissions] == [(scene.alice.id, True)]

    fetched = await mod.fetch_permissions(guild)
    assert [(p.type, p.target.id, p.permission) for p in fetched.permissions] == [
        (discord.AppCommandPermissionType.user, scene.alice.id, True)
    ]
    await fake.set_command_permissions(guild, None, [override(guild.everyone, False)])
    listing = await bot.http.get_guild_application_command_permissions(app_id, guild.id)
    assert {int(e["id"]) for e in listing} == {mod.id, app_id}
    spec_or_skip()
    for entry in listing:
        assert spec_errors("CommandPermissionsResponse", entry) == []
