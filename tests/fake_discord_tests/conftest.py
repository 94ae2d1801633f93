"""Fixtures for testing the fake itself: a small world and the tiny bot running against it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from tests.fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeUser, run_client
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.scenes import moderated_server

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
    server = moderated_server(fake_discord)
    return Scene(
        fake_discord, server.guild, server.channel, server.owner, server.alice, server.moderator
    )


@pytest.fixture
async def bot(scene: Scene) -> AsyncIterator[TinyBot]:
    client = TinyBot()
    async with run_client(client, scene.fake):
        yield client
