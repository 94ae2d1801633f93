"""left68 (PLAN.md, "Leftovers (left68)"): an interaction's answer Discord no longer takes, as
Discord says it, is an operator's one WARNING line, as an outage (5xx) is; through the fake
Discord, failing on main 711fb00c first where said."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons
from tests.discord_app.test_suggestions import IDEA

from .conftest import Scene
from .test_review67_discord import ANSWERS, HANG
from .test_round7 import CALLBACK, logged

GONE = "Discord no longer takes an answer to it"


@pytest.mark.parametrize(
    ("routes", "status", "code"),
    [
        # The first response past Discord's 3 s: 404 Unknown interaction (held before).
        ([("POST", CALLBACK)], 404, 10062),
        # A follow-up past the token's 15 minutes: 404 Unknown Webhook (held before) or, as
        # Discord mostly answers it, 401 Invalid Webhook Token: an ERROR with a traceback and
        # an error id nobody was shown, before.
        (ANSWERS, 404, 10015),
        (ANSWERS, 401, 50027),
    ],
    ids=["unknown-interaction", "unknown-webhook", "invalid-webhook-token"],
)
async def test_a_reject_whose_answer_discord_no_longer_takes_is_one_warning(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    caplog: pytest.LogCaptureFixture,
    routes: list[tuple[str, str]],
    status: int,
    code: int,
) -> None:
    fake = scene.fake
    await store.add_suggestion(scene.guild.id, scene.alice.id, "zorblax", IDEA)
    async with start_bot(store):
        review = await fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
        shown = await review.final_message()
        caplog.clear()
        caplog.set_level(logging.WARNING)
        for method, path in routes:
            fake.fail_next(method, path, status=status, code=code)
        lost = asyncio.ensure_future(logged("'gb:sugg:no:", within=HANG))
        await fake.click(scene.moderator, shown, buttons(shown)["Reject"])
        await lost
    said = [r for r in caplog.records if "'gb:sugg:no:" in r.getMessage()]
    assert [r.levelname for r in said] == ["WARNING"], caplog.text
    assert GONE in said[0].getMessage(), caplog.text
    assert f"error code {code}" in said[0].getMessage(), caplog.text
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR], caplog.text
