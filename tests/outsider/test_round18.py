"""What an eighteenth round of outside testing found: Discord as it really behaves (rate limits,
the gateway's op 9 and outages, tokens that expire, threads archived and bots kicked mid-flow),
through the real bot against the fake Discord (tests/outsider/PLAN.md, round 18)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot import heartbeat
from bot.discord_app import health
from bot.discord_app.app import GlossaryBot
from bot.storage import MAX_OPEN_SUGGESTIONS, Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import CHANNEL_MESSAGE, buttons, define
from tests.discord_app.term_commands import suggest_from_a_miss
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


async def test_a_member_who_may_not_suggest_now_is_told_before_writing(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Plan line W25: in a `/suggest` raid (100 members, 5 each) every refusal came after the
    member had filled in the form: "You made a suggestion here a moment ago" (200 times) and
    "a full queue" (250 times), each answer to a definition typed in vain. Now `/suggest` and the
    "Suggest it" button say so at once, instead of opening the form; the form's submit still
    checks (two forms opened at once)."""
    fake, store = scene.fake, bot.state.store
    assert store is not None
    assert (await suggest_from_a_miss(scene, "zorblax")).startswith("Thanks!")
    again = await fake.slash(scene.alice, "suggest", {"term": "blorptex"}, channel=scene.channel)
    body = await again.response()
    assert body["type"] == CHANNEL_MESSAGE, body  # no form
    assert "a moment ago" in body["data"]["content"], body
    for n in range(MAX_OPEN_SUGGESTIONS - 1):
        await store.add_suggestion(scene.guild.id, 1000 + n, f"term {n}", "What it means here.")
    _, miss = await define(fake, scene.bob, "quuxwidget", scene.channel)
    clicked = await fake.click(scene.bob, miss, buttons(miss)["Suggest it"])
    body = await clicked.response()
    assert body["type"] == CHANNEL_MESSAGE, body
    assert "full queue" in body["data"]["content"], body
    assert len(await store.open_suggestions(scene.guild.id, 100)) == MAX_OPEN_SUGGESTIONS


async def test_a_member_told_of_a_decision_during_an_outage_reads_no_empty_server_name(
    scene: Scene, start_bot: StartBot
) -> None:
    """Beside plan line W12: the bot started while its server was in an outage (READY lists it
    unavailable, its GUILD_CREATE comes later), and a moderator rejected a suggestion meanwhile.
    discord.py knows such a server by its id alone, with an empty name: the member's DM read
    "Your suggestion “zorblax” in  was not added". Now a server without a name is "the server",
    as when the bot knows no server at all."""
    fake = scene.fake
    store = await Store.open(scene.db_path)
    await store.add_suggestion(scene.guild.id, scene.alice.id, "zorblax", "The nightly job.")
    fake.gateway.outages.add(scene.guild.id)
    async with start_bot(store) as bot:
        shown = await fake.slash(
            scene.moderator, "term review", {"category": "Fundamentals"}, channel=scene.channel
        )
        review = await shown.final_message()
        await (await fake.click(scene.moderator, review, buttons(review)["Reject"])).final_message()
        told = await fake.wait_for_channel_message(fake.dm_channel(scene.alice))
        assert bot.get_guild(scene.guild.id) is not None  # known by its id, as unavailable
    assert told["content"].startswith("Your suggestion “zorblax” in the server was not added"), (
        told["content"]
    )


class LostDiscord:
    """A client connected once and now reconnecting (its latency unknown) for `ticks` beats."""

    latency = float("inf")

    def __init__(self, ticks: int) -> None:
        self.ticks = ticks

    async def wait_until_ready(self) -> None:
        return None

    def is_ready(self) -> bool:
        return True

    def is_closed(self) -> bool:
        self.ticks -= 1
        return self.ticks < 0


async def test_a_reconnect_is_not_logged_as_unhealthy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Plan line W9: Discord's op 9 INVALID_SESSION (not resumable) made the bot wait its 5 s
    to IDENTIFY again; the heartbeat's tick fell inside and the log said WARNING "unhealthy: not
    connected to Discord", while `health` calls a reconnect within 45 s healthy (README). Now the
    log says it is reconnecting (INFO), and warns only past those 45 s, as `health` does."""
    caplog.set_level(logging.INFO, logger=health.__name__)
    store = await Store.open(tmp_path / "bot.db")
    try:
        await health.keep_heartbeat(LostDiscord(2), store, tmp_path / "hb", interval=0)  # type: ignore[arg-type]
        said = [(r.levelno, r.getMessage()) for r in caplog.records]
        assert said == [
            (logging.INFO, "not connected to Discord: reconnecting (unhealthy after 45 s)")
        ], said
        caplog.clear()
        monkeypatch.setattr(heartbeat, "MAX_AGE", -1.0)  # any time lost is longer (`stale`)
        await health.keep_heartbeat(LostDiscord(1), store, tmp_path / "hb", interval=0)  # type: ignore[arg-type]
        said = [(r.levelno, r.getMessage()) for r in caplog.records]
        assert said == [(logging.WARNING, "unhealthy: not connected to Discord")], said
    finally:
        await store.close()
