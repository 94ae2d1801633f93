"""The real bot, with the real glossary and a real SQLite file, against the fake Discord."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.state import BotState
from bot.glossary import Glossary, load_glossary
from bot.storage import Store
from tests.fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeUser
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.scenes import moderated_server

from .helpers import serve

# Tests send many commands from one user in a second; the real per-user cooldown (5 per 10 s)
# would answer some of them with "You're going a bit fast". Its own test sets it back.
NO_COOLDOWN = (1000, 1.0)


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
    other_guild: FakeGuild  # a second server, with alice and its own moderator
    other_channel: FakeChannel
    other_moderator: FakeUser


@pytest.fixture
def scene(fake_discord: FakeDiscord, tmp_path: Path) -> Scene:  # noqa: F811
    server = moderated_server(fake_discord)
    guild = server.guild
    bob = fake_discord.add_user("bob")
    guild.add_member(bob)
    admin = fake_discord.add_user("ada")
    admins = guild.add_role("Admins", permissions=discord.Permissions(administrator=True).value)
    guild.add_member(admin, roles=[admins])

    other_guild = fake_discord.add_guild("Elsewhere")
    other_channel = other_guild.add_text_channel("chat")
    other_guild.add_member(server.alice)
    other_moderator = fake_discord.add_user("otto")
    other_mods = other_guild.add_role(
        "Mods", permissions=discord.Permissions(manage_guild=True).value
    )
    other_guild.add_member(other_moderator, roles=[other_mods])
    return Scene(
        fake_discord,
        guild,
        server.channel,
        server.owner,
        server.alice,
        bob,
        server.moderator,
        admin,
        tmp_path / "bot.db",
        other_guild,
        other_channel,
        other_moderator,
    )


@pytest.fixture
async def store(scene: Scene, request: pytest.FixtureRequest) -> AsyncIterator[Store]:
    # `@pytest.mark.busy_timeout(seconds)`: a test whose write waits out a lock another process
    # holds (the refusal is its point) waits that long, not Store.open's 5 s.
    marker = request.node.get_closest_marker("busy_timeout")
    store = await Store.open(scene.db_path, **({"busy_timeout": marker.args[0]} if marker else {}))
    try:
        yield store
    finally:
        await store.close()  # safe twice: the bot closes it too


StartBot = Callable[..., AbstractAsyncContextManager[GlossaryBot]]


@pytest.fixture
def start_bot(scene: Scene, glossary: Glossary) -> StartBot:
    """``async with start_bot(store) as bot``: a bot on ``store`` until the block ends (then
    closed, store included, as on shutdown); ``glossary=`` serves another glossary, other keywords
    go to ``BotState``."""

    @contextlib.asynccontextmanager
    async def start(
        store: Store | None,
        *,
        glossary: Glossary = glossary,
        cooldown: tuple[int, float] = NO_COOLDOWN,
        **state_options: Any,
    ) -> AsyncIterator[GlossaryBot]:
        state = BotState(glossary, store, cooldown=cooldown, **state_options)
        client = GlossaryBot(state, guild_ready_timeout=0.05)
        async with serve(client, scene.fake):
            await warm(client)
            yield client

    return start


@pytest.fixture
async def bot(start_bot: StartBot, store: Store) -> AsyncIterator[GlossaryBot]:
    async with start_bot(store) as client:
        yield client


async def warm(client: GlossaryBot) -> None:
    """Read each server's aliases now, as on_ready does in the background.

    Otherwise the first /define of a test races on_ready and may be deferred; tests of the
    deferred path call ``client.state.servers.forget(guild_id)`` first.
    """
    for guild in client.guilds:
        await client.state.servers.get(guild.id)
