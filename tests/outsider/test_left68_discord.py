"""left68 (PLAN.md, "Leftovers (left68)"): an interaction's answer Discord no longer takes, as
Discord says it, is an operator's one WARNING line, as an outage (5xx) is; through the fake
Discord, failing on main 711fb00c first where said."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.state import BotState
from bot.glossary import Glossary
from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons, serve
from tests.discord_app.term_commands import IDEA

from .conftest import Scene
from .test_review67_discord import ANSWERS, HANG
from .test_round7 import CALLBACK, logged

GONE = "Discord no longer takes an answer to it"


@pytest.mark.parametrize(
    ("routes", "status", "code", "parts"),
    [
        # The first response past Discord's 3 s: 404 Unknown interaction (held before; since
        # limits69 said as /define's, `respond_in_time`'s reason).
        ([("POST", CALLBACK)], 404, 10062, ["3 s (Discord refused it as too late, 10062)"]),
        # A follow-up past the token's 15 minutes: 404 Unknown Webhook (held before) or, as
        # Discord mostly answers it, 401 Invalid Webhook Token: an ERROR with a traceback and
        # an error id nobody was shown, before.
        (ANSWERS, 404, 10015, [GONE, "error code 10015"]),
        (ANSWERS, 401, 50027, [GONE, "error code 50027"]),
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
    parts: list[str],
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
    assert all(part in said[0].getMessage() for part in parts), caplog.text
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR], caplog.text


async def test_a_stop_during_the_first_alias_read_says_nothing_of_the_database(
    scene: Scene, glossary: Glossary, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """A bot stopped while it reads a server's aliases and terms at its start (on_ready's warm)
    logged "could not read the aliases and terms of server ... (the store is closed)":
    a clean stop reading like a database outage (left67). The read is held until the stop has
    closed the store, then runs into the closed store: no WARNING now. (A database failing
    while the bot runs still warns: test_round11's streak test.)"""
    begun, closed = asyncio.Event(), asyncio.Event()
    reads: list[asyncio.Task[Any]] = []
    read, close = store.server_version, store.close

    async def held_read(*args: Any, **kwargs: Any) -> Any:
        task = asyncio.current_task()
        assert task is not None
        reads.append(task)
        begun.set()
        await closed.wait()  # the stop's close of the store comes first
        return await read(*args, **kwargs)

    async def closing(*args: Any, **kwargs: Any) -> None:
        try:
            await close(*args, **kwargs)
        finally:
            closed.set()

    setattr(store, "server_version", held_read)  # noqa: B010 (a method of this instance only)
    setattr(store, "close", closing)  # noqa: B010
    caplog.set_level(logging.DEBUG, logger="bot.discord_app.alias_cache")
    client = GlossaryBot(BotState(glossary, store), guild_ready_timeout=0.05)
    async with serve(client, scene.fake):
        async with asyncio.timeout(HANG):
            await begun.wait()  # on_ready's warm reads the first server
    assert closed.is_set()
    _, pending = await asyncio.wait(reads, timeout=HANG)
    assert not pending
    assert [type(task.exception()).__name__ for task in reads][:1] == ["StoreClosed"], reads
    said = [r for r in caplog.records if r.name == "bot.discord_app.alias_cache"]
    assert [r for r in said if r.levelno >= logging.WARNING] == [], caplog.text
