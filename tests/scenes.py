"""The server most tests start from: an owner, a text channel, a plain member and a moderator
(a role with Manage Server). Shared by the Discord tests and the fake's own tests."""

from __future__ import annotations

from dataclasses import dataclass

import discord

from tests.fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeUser


@dataclass
class Server:
    guild: FakeGuild
    channel: FakeChannel
    owner: FakeUser
    alice: FakeUser  # a plain member
    moderator: FakeUser  # has a role with Manage Server


def moderated_server(fake: FakeDiscord) -> Server:
    owner = fake.add_user("owner")
    guild = fake.add_guild("Glossary Lab", owner=owner)
    channel = guild.add_text_channel("general")
    alice = fake.add_user("alice")
    guild.add_member(alice)
    moderator = fake.add_user("mo")
    mods = guild.add_role("Mods", permissions=discord.Permissions(manage_guild=True).value)
    guild.add_member(moderator, roles=[mods])
    return Server(guild, channel, owner, alice, moderator)
