"""limits69 (PLAN.md, "limits69"): review69's two product leftovers, through the in-process
bot on the fake Discord (a real SQLite file), each failing on main 7ea2b59c first. A moderator
command's limits belong to the bot that counted them, not to the process; and a moderator's
first response lost to Discord failing (503, tried again past the 3 s) is said as that."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.resilience.helpers import warned

from .conftest import Scene
from .test_left47 import moderator_answer
from .test_review69_discord import CALLBACK, HANG, NO_TERM, SLOW, edit_of_no_term, said


async def test_a_moderators_limits_on_one_bot_hold_them_on_no_other(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """1 use a window (so 2 refusals). On a first bot the moderator's `/alias add`s and the
    admin's refused `/term edit`s reach their limits ("going a bit fast"); on a second bot
    started in the same process after it, each is answered: the limits were module-level
    objects, so every bot of a process shared them (on main both were "going a bit fast")."""
    async with start_bot(store, cooldown=(1, 3600.0)):
        added = await moderator_answer(scene, "alias add", {"alias": "blorp", "term": "rag"})
        spent = await moderator_answer(scene, "alias add", {"alias": "glimglom", "term": "rag"})
        refusals = [await said(await edit_of_no_term(scene, scene.admin)) for _ in range(3)]
    async with start_bot(await Store.open(scene.db_path), cooldown=(1, 3600.0)):
        again = await moderator_answer(scene, "alias add", {"alias": "glimglom", "term": "rag"})
        refused = await said(await edit_of_no_term(scene, scene.admin))
    assert added.startswith("Added"), added
    assert spent.startswith(SLOW), spent
    assert [text.startswith(NO_TERM) for text in refusals] == [True, True, False], refusals
    assert refusals[2].startswith(SLOW), refusals
    assert again.startswith("Added"), again
    assert refused.startswith(NO_TERM), refused


FAILING = "Discord failing: its request answered 503, to be tried again"


@pytest.mark.parametrize("door", ["answer", "acknowledgement"])
async def test_a_moderators_first_response_lost_to_a_503_says_discord_failed(
    scene: Scene, start_bot: StartBot, store: Store, door: str
) -> None:
    """Discord answers 503 twice to a moderator command's first response: its answer (a
    refused `/term edit`) or its acknowledgement ("thinking…", `/alias remove` before it
    writes). discord.py tried it again 1 s and 3 s later, past Discord's 3 s, and its 10062
    was the one line naming the interaction: "it came too late", as if the bot had been slow. Now it goes through
    `respond_in_time` as /define's does: given up at the 3 s (no request refused as too late),
    one line saying no first response could be sent within them, Discord failing (503)."""
    fake = scene.fake

    def command() -> Any:
        if door == "answer":
            return edit_of_no_term(scene, scene.moderator)
        options = {"alias": "no such alias"}
        return fake.slash(scene.moderator, "alias remove", options, channel=scene.channel)

    mine = f" by {scene.moderator.id}: "  # the interaction's own line, old or new
    async with start_bot(store):
        fake.fail_next(*CALLBACK, status=503, times=2)
        async with warned(mine, HANG) as lines:
            handle = await command()
        fake.faults.clear()  # a 503 left if the second try came too late to be made
        await fake.settle()
    late = fake.pop_violations()  # nothing sent past the 3 s (a 10062 was one)
    about = [r.getMessage() for r in lines if mine in r.getMessage()]
    assert len(about) == 1, about
    [line] = about
    name = "term edit" if door == "answer" else "alias remove"
    assert line.startswith(f"interaction {handle.id} ({name}) by {scene.moderator.id}: "), line
    assert f"no first response could be sent within Discord's 3 s ({FAILING})" in line, line
    assert "too late" not in line, line
    assert not late, late
    assert all(r.levelno < logging.ERROR for r in lines), [r.getMessage() for r in lines]
