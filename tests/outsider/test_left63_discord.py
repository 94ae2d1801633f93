"""left63 (PLAN.md, "Leftovers (left63)"): the writes made by another door than their command
draw on that command's limit, through the fake Discord as a moderator meets them; each test
failing on main 1d7bd50b first."""

from __future__ import annotations

from typing import Any

from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons, define, selects
from tests.discord_app.term_commands import IDEA, open_add, suggest_from_a_miss

from .conftest import Scene

SLOW = "You're going a bit fast"


async def test_the_stats_menu_draws_on_alias_adds_limit(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """`/stats`' menu adds an alias as `/alias add` does, so it counts against `/alias add`'s
    limit (2 uses a window here): on main it drew on none, a moderator held back from
    `/alias add` could go on adding through the menu. A pick refused (the miss already an
    alias) gives its use back, as the command's refusals do."""
    fake = scene.fake
    store.record_miss(scene.guild.id, "retreival augmentd generaton")
    store.record_miss(scene.guild.id, "retrieval augmented genration")

    async def pick(index: int) -> str:
        shown = await fake.slash(scene.moderator, "stats", {}, channel=scene.channel)
        message = await shown.final_message()
        [menu] = selects(message)
        option = menu["options"][index]
        picked = await fake.select(scene.moderator, message, menu["custom_id"], [option["value"]])
        return str((await picked.final_message())["content"])

    async def alias_add(alias: str) -> str:
        handle = await fake.slash(
            scene.moderator, "alias add", {"alias": alias, "term": "rag"}, channel=scene.channel
        )
        return str((await handle.final_message())["content"])

    async with start_bot(store, cooldown=(2, 3600.0)):
        said = await pick(0)
        assert said.startswith("Added"), said
        [added] = await store.list_aliases(scene.guild.id)
        said = await alias_add(added.text)  # already there: a refusal, its use given back
        assert not said.startswith(("Added", SLOW)), said
        said = await alias_add("zorb rag")
        assert said.startswith("Added"), said  # the second use
        said = await pick(0)  # the other miss (the first is an alias now)
        assert said.startswith(SLOW), said
        said = await alias_add("zorb rag two")
        assert said.startswith(SLOW), said
        assert len(await store.list_aliases(scene.guild.id)) == 2


async def test_accept_opens_term_adds_form_on_its_limit(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """`/term review`'s Accept… opens `/term add`'s form, so it takes `/term add`'s use (2 a
    window here) when the form opens, as `/term add` does: on main it took none. A suggestion
    already decided (no form) gives its use back."""
    fake = scene.fake

    async def review() -> dict[str, Any]:
        shown = await fake.slash(
            scene.moderator, "term review", {"category": "Fundamentals"}, channel=scene.channel
        )
        return await shown.final_message()

    async with start_bot(store, cooldown=(2, 3600.0)):
        assert (await suggest_from_a_miss(scene, "zorblax")).startswith("Thanks!")
        first = await review()
        opened = await fake.click(scene.moderator, first, buttons(first)["Accept…"])
        assert (await opened.response())["type"] == 9  # the form: the first use
        saved = await fake.submit_modal(scene.moderator, opened, {"title": "Zorblax"})
        assert str((await saved.final_message())["content"]).startswith("Added **Zorblax**")
        again = await fake.click(scene.moderator, first, buttons(first)["Accept…"])
        said = str((await again.final_message())["content"])
        assert "already accepted" in said, said  # no form: the use given back
        await open_add(scene, scene.moderator)  # the second use
        # Another member's (one suggestion a window each): the admin's.
        _, miss = await define(fake, scene.admin, "plimwortic", scene.channel)
        form = await fake.click(scene.admin, miss, buttons(miss)["Suggest it"])
        assert (await form.response())["type"] == 9
        thanked = await fake.submit_modal(scene.admin, form, {"definition": IDEA})
        assert str((await thanked.final_message())["content"]).startswith("Thanks!")
        second = await review()
        refused = await fake.click(scene.moderator, second, buttons(second)["Accept…"])
        said = str((await refused.final_message())["content"])
        assert said.startswith(SLOW), said
        [waiting] = await store.open_suggestions(scene.guild.id)
        assert waiting.title.casefold() == "plimwortic", waiting
