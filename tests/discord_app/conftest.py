"""The real bot, with the real glossary and a real SQLite file, against the fake Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.state import BotState
from bot.glossary import Glossary, load_glossary
from bot.storage import Store
from tests.fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeUser, run_client
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)


@pytest.fixture(scope="session")
def glossary() -> Glossary:
    return load_glossary()


@dataclass
class Scene:
    fake: FakeDiscord
    guild: FakeGuild
    channel: FakeChannel
    owner: FakeUser
    alice: FakeUser  # a plain member
    bob: FakeUser  # another plain member
    moderator: FakeUser  # has a role with Manage Server
    admin: FakeUser  # has a role with Administrator
    db_path: Path


@pytest.fixture
def scene(fake_discord: FakeDiscord, tmp_path: Path) -> Scene:  # noqa: F811
    owner = fake_discord.add_user("owner")
    guild = fake_discord.add_guild("Glossary Lab", owner=owner)
    channel = guild.add_text_channel("general")
    alice = fake_discord.add_user("alice")
    bob = fake_discord.add_user("bob")
    guild.add_member(alice)
    guild.add_member(bob)
    moderator = fake_discord.add_user("mo")
    mods = guild.add_role("Mods", permissions=discord.Permissions(manage_guild=True).value)
    guild.add_member(moderator, roles=[mods])
    admin = fake_discord.add_user("ada")
    admins = guild.add_role("Admins", permissions=discord.Permissions(administrator=True).value)
    guild.add_member(admin, roles=[admins])
    return Scene(fake_discord, guild, channel, owner, alice, bob, moderator, admin, tmp_path / "bot.db")


@pytest.fixture
async def store(scene: Scene) -> AsyncIterator[Store]:
    store = await Store.open(scene.db_path)
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture
async def bot(scene: Scene, glossary: Glossary, store: Store) -> AsyncIterator[GlossaryBot]:
    client = GlossaryBot(BotState(glossary, store), guild_ready_timeout=0.05)
    async with run_client(client, scene.fake):
        yield client
