"""A card shown but not counted (task race67, PLAN.md "A card shown, not counted (race67)"):
a stop that cancels an answer at its deadline for answers, after Discord took the card and
before its answer came back. The in-process bot (discord.py) against the fake Discord, which
holds its answer to the card's request, on a real SQLite file."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import pytest

from bot.discord_app.app import STORE_SHARE
from bot.storage import Store
from tests.fake_discord import FakeDiscord
from tests.resilience.conftest import StartBot
from tests.resilience.helpers import stored_lookups, warned

from .conftest import Scene

STUCK = 30.0  # seconds: a bound on a hang only
MESSAGES = ("POST", "/channels/{channel_id}/messages")
CALLBACK = ("POST", "/interactions/{interaction_id}/{token}/callback")


def cards_shown(fake: FakeDiscord) -> int:
    """Cards Discord took: posted in a channel or as an interaction's first response."""
    kinds = ("channel_message", "interaction_response")
    return sum(1 for m in fake.sent_messages if m.kind in kinds and m.message["embeds"])


def mention(scene: Scene) -> Callable[[], Awaitable[object]]:
    fake = scene.fake
    return lambda: fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} what is rag")


def define(scene: Scene) -> Callable[[], Awaitable[object]]:
    return lambda: scene.fake.slash(scene.alice, "define", {"term": "rag"}, channel=scene.channel)


@pytest.mark.parametrize(("route", "ask"), [(MESSAGES, mention), (CALLBACK, define)])
async def test_a_card_discord_took_before_a_stop_cut_its_answer_is_counted(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    route: tuple[str, str],
    ask: Callable[[Scene], Callable[[], Awaitable[object]]],
) -> None:
    """ci67 saw it once under load (review29's flood: 132 cards shown, 117 counted): the stop,
    out of time for answers, cancelled answers whose card Discord had already taken; each was
    counted only once its send returned, so never. Here Discord takes the card (a mention's
    reply, a /define's first response) and holds its answer until the stop has cancelled it."""
    fake = scene.fake
    async with start_bot(store) as bot:
        held = fake.hold_answer(*route)
        try:
            await ask(scene)()
            await asyncio.wait_for(held.taken.wait(), STUCK)
            # No time left for answers: the answer under way is cancelled at once.
            bot.stop_deadline = asyncio.get_running_loop().time() + STORE_SHARE
            async with warned("still under way at the stop's time", level=logging.INFO):
                closing = asyncio.create_task(bot.close())
            await closing
        finally:
            held.release()
    assert cards_shown(fake) == 1
    assert stored_lookups(scene.db_path) == 1


async def test_a_card_still_waiting_its_rate_limit_when_a_stop_cuts_it_is_not_counted(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """The other side: a mention's card refused for a rate limit (429), discord.py waiting to
    send it again when the stop cancels the answer. Discord showed nothing: nothing counted."""
    fake = scene.fake
    async with start_bot(store) as bot:
        fake.fail_next(*MESSAGES, status=429, retry_after=STUCK)
        async with warned("responded with 429"):  # discord.py's line, then its wait
            await mention(scene)()
        bot.stop_deadline = asyncio.get_running_loop().time() + STORE_SHARE
        async with warned("still under way at the stop's time", level=logging.INFO):
            closing = asyncio.create_task(bot.close())
        await closing
    assert fake.faults.served[-1].status == 429
    assert cards_shown(fake) == 0
    assert stored_lookups(scene.db_path) == 0
