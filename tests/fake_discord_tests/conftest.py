"""Fixtures for testing the fake itself: a small world and the tiny bot running against it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import discord
import pytest

from tests.fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeUser, run_client
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)

from .tiny_bot import TinyBot


@dataclass
class Scene:
    fake: FakeDiscord
    guild: FakeGuild
    channel: FakeChannel
    owner: FakeUser
    alice: FakeUser  # a plain member
    moderator: FakeUser  # has a role with MANAGE_GUILD


@pytest.fixture
def scene(fake_discord: FakeDiscord) -> Scene:  # noqa: F811
    owner = fake_discord.add_user("owner")
    guild = fake_discord.add_guild("Glossary Lab", owner=owner)
    channel = guild.add_text_channel("general")
    alice = fake_discord.add_user("alice")
    guild.add_member(alice)
    moderator = fake_discord.add_user("mo")
    mods = guild.add_role("Mods", permissions=discord.Permissions(manage_guild=True).value)
    guild.add_member(moderator, roles=[mods])
    return Scene(fake_discord, guild, channel, owner, alice, moderator)


@pytest.fixture
async def bot(scene: Scene) -> AsyncIterator[TinyBot]:
    client = TinyBot()
    async with run_client(client, scene.fake):
        yield client
