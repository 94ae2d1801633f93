"""What an eighteenth round of outside testing found: Discord as it really behaves (rate limits,
the gateway's op 9 and outages, tokens that expire, threads archived and bots kicked mid-flow),
through the real bot against the fake Discord (tests/outsider/PLAN.md, round 18)."""

from __future__ import annotations

import logging

import pytest

from bot.discord_app.app import GlossaryBot
from tests.fake_discord import FakeChannel
from tests.resilience.helpers import warned

from .conftest import Scene


@pytest.fixture
def thread(scene: Scene) -> FakeChannel:
    """A thread of the server's channel, there before the bot connects (GUILD_CREATE has it)."""
    return scene.guild.add_thread(scene.channel, "help with rag", scene.alice)


async def test_a_mention_in_a_thread_archived_before_the_reply_is_one_line(
    scene: Scene, thread: FakeChannel, bot: GlossaryBot, caplog: pytest.LogCaptureFixture
) -> None:
    """Plan line W19: a member asks in a thread, and a moderator archives and locks it before
    the bot's reply goes out; Discord refuses the reply (400, 50083 Thread is archived). The
    bot logged an ERROR with a traceback ("error … answering message") and then posted "Something
    went wrong (error id …)" into the same thread, refused too. Now one WARNING naming the
    thread, nothing posted after, and no lookup counted for a card nobody saw."""
    fake, store = scene.fake, bot.state.store
    assert store is not None
    thread.archived = True
    async with warned("archived") as said:
        await fake.user_message(scene.alice, thread, f"<@{fake.bot.id}> what is rag")
    await fake.settle()
    assert [r.levelno for r in said] == [logging.WARNING], [r.getMessage() for r in said]
    assert str(thread.id) in said[0].getMessage()
    assert [v.kind for v in fake.pop_violations()] == ["archived_thread"]  # the reply alone
    await store.flush()
    assert await store.lookup_count(scene.guild.id, "rag") == 0
