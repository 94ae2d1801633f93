"""Operations: the lock, the image, metrics, logs, charts and progress, tested as an operator
meets them (mostly through `glossary-bot run` in a process against the fake Discord)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.discord_app.conftest import (  # noqa: F401  (fixtures)
    Scene,
    bot,
    glossary,
    scene,
    start_bot,
    store,
)
from tests.fake_discord import FakeDiscord, FakeUser
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.resilience.botproc import BotProcess

__all__ = ["Lab", "Scene"]


@dataclass
class Lab:
    fake: FakeDiscord
    guild_id: int
    channel: object
    user: FakeUser
    db_path: Path
    cwd: Path

    def bot(self, **settings: str) -> BotProcess:
        return BotProcess(self.fake, self.db_path, cwd=self.cwd, **settings)


@pytest.fixture
def lab(fake_discord: FakeDiscord, tmp_path: Path) -> Lab:  # noqa: F811  (the fixture above)
    guild = fake_discord.add_guild("Ops Lab")
    channel = guild.add_text_channel("general")
    user = fake_discord.add_user("olive")
    guild.add_member(user)
    return Lab(fake_discord, guild.id, channel, user, tmp_path / "ops.db", tmp_path)
