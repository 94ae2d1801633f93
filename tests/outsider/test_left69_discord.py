"""left69 (PLAN.md, "left69"): limits69's leftover, through the in-process bot on the fake
Discord (a real SQLite file). A moderator command's "thinking…" that went out by Discord's 3 s
but whose answer Discord holds past them and `VERDICT_WAIT` more is taken as shown
(`respond_in_time`); the command's answer after it must then go where Discord takes it."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.resilience.helpers import warned

from .conftest import Scene
from .test_review69_discord import CALLBACK, GIVEN_UP, HANG, said


async def test_an_answer_after_a_thinking_taken_as_shown_goes_as_a_followup(
    scene: Scene, start_bot: StartBot, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """`/alias remove` of an alias the server does not have, sent 1 s before it reached the
    bot: its "thinking…" goes out and Discord takes it, but holds its answer past the 3 s and
    3 s more, so the bot takes it as shown. discord.py had not marked the response done, so
    `moderators.reply` would send a second first response, refused 40060 "already
    acknowledged". The moderator is to read the answer (a followup), with no ERROR and
    nothing refused."""
    fake = scene.fake
    caplog.set_level(logging.INFO)
    hold = fake.hold_answer(*CALLBACK)
    async with start_bot(store):
        try:
            async with warned(GIVEN_UP, HANG, logging.INFO):
                handle = await fake.slash(
                    scene.moderator,
                    "alias remove",
                    {"alias": "no such alias"},
                    channel=scene.channel,
                    held_up=1.0,
                )
                await asyncio.wait_for(hold.taken.wait(), HANG)
        finally:
            hold.release()
        answer = await asyncio.wait_for(said(handle), HANG)
        await fake.settle()
    refused = fake.pop_violations()
    assert answer.startswith("This server has no alias “no such alias”"), answer
    assert not refused, refused
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
