"""left74 (PLAN.md, "left74"): loose ends outsider74 noticed, as the member and the moderator
meet them in Discord."""

from __future__ import annotations

import pytest

from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons, define

from .conftest import Scene

# "gar" with an invisible direction control around it, shown as "rag" where one reverses it.
_CONTROLLED = ["\u202egar", "\u202egar\u202c", "\u2066gar\u2069", "\u2067gar\u2069", "\u200fgar"]


@pytest.mark.parametrize("typed", _CONTROLLED)
async def test_a_miss_typed_with_a_direction_control_is_the_text_search_read(
    typed: str, scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """outsider74 saw `/define` of "\\u202egar" counted in /stats as the miss "gar". That is
    what search reads (the controls show nothing and are read away): the answer quotes "gar",
    the miss is stored as "gar" with no control left in it (one miss with "gar" typed plainly),
    and no **Suggest it** offers a name holding one. Held on main; kept as a guard."""
    fake = scene.fake
    async with start_bot(store):
        _, answer = await define(fake, scene.alice, typed, scene.channel)
        await define(fake, scene.alice, "gar", scene.channel)
        await fake.settle()  # counted once its send returned
        await store.flush()
        misses = await store.top_misses(scene.guild.id)
    assert answer["content"].startswith("No entry for “gar”."), answer
    assert "Suggest it" not in buttons(answer), answer
    assert [(m.query, m.count) for m in misses] == [("gar", 2)], misses


@pytest.mark.parametrize("typed", ["> # zorblax", "# zorblax", "- zorblax", "1. zorblax"])
async def test_no_entry_quotes_a_leading_mark_as_typed_without_a_backslash(
    typed: str, scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """outsider74: `/define > # rag` echoed “\\> # rag”: the escape a quote, heading or list
    mark needs at a line's start only, and in the answer the “ stands before it. What was
    typed is quoted as typed (`shown_as_typed`)."""
    async with start_bot(store):
        _, answer = await define(scene.fake, scene.alice, typed, scene.channel)
    assert answer["content"].startswith(f"No entry for “{typed}”."), answer
