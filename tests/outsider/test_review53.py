"""review53: attacks on last session's product changes, and its leftovers (PLAN.md, "Review of
ops49, swap49, left50 and left51 (review53)"). The real bot on the fake Discord, real SQLite."""

from __future__ import annotations

import datetime as dt

from bot.storage import Store
from tests.discord_app.conftest import StartBot

from .conftest import Scene
from .test_outsider49 import SUGGESTED, suggested


async def test_a_waiting_name_in_the_other_number_or_in_look_alike_letters_waits(
    scene: Scene, start_bot: StartBot
) -> None:
    """review51 left it: a member's waiting "zorblax" was queued again as "zorblaxes" or
    "zоrblax" (a Cyrillic о), names search meets as the same one (the other number; letters a
    reader cannot tell apart). Now they are said to be waiting too, before the form and at
    its submit; a name of other letters ("zorblix") is queued."""
    fake = scene.fake
    now = [dt.datetime.now(dt.UTC)]
    store = await Store.open(scene.db_path, clock=lambda: now[0])
    async with start_bot(store):
        await suggested(scene, scene.alice, "zorblax")
        for name in ("zorblaxes", "Zоrblax", "ZОRBLAXES"):  # Cyrillic о, О
            now[0] += dt.timedelta(minutes=11)
            again = await fake.slash(scene.alice, "suggest", {"term": name}, channel=scene.channel)
            said = await again.final_message()
            assert said["content"].startswith(f"You suggested “{name}” already: it is waiting"), (
                said
            )
            typed = await fake.slash(scene.alice, "suggest", {}, channel=scene.channel)
            assert (await typed.response())["type"] == 9
            sent = await fake.submit_modal(scene.alice, typed, {"title": name, **SUGGESTED})
            said = await sent.final_message()
            assert said["content"].startswith(f"You suggested “{name}” already"), said
        now[0] += dt.timedelta(minutes=11)
        await suggested(scene, scene.alice, "zorblix")
        waiting = await store.open_suggestions(scene.guild.id)
    assert [s.title for s in waiting] == ["zorblax", "zorblix"]
