"""Known faults left by outside rounds 19-21 (task left23), each through the bot against the fake
Discord or the real command line, on real SQLite files."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.helpers import buttons, selects
from tests.discord_app.test_terms import add_term

from .conftest import Scene


async def test_the_stats_menu_says_its_term_was_removed_since_the_list_was_made(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line V36: `/stats` offers "zorblx" → Zorblax; another moderator removes Zorblax; the
    pick answered `/alias add`'s "I could not find the term “zorblax”. Pick one from the list.",
    an id the moderator never typed and a list the menu does not have. Now it says the term is
    gone from the glossary, nothing was added, and `/stats` makes a fresh list."""
    fake = scene.fake
    assert (await add_term(scene))["content"].startswith("Added **Zorblax**")
    store.record_miss(scene.guild.id, "zorblx")
    shown = await fake.slash(scene.moderator, "stats", {}, channel=scene.channel)
    message = await shown.final_message()
    [menu] = selects(message)
    [option] = menu["options"]
    assert option["label"] == "“zorblx” → Zorblax"

    removing = await fake.slash(
        scene.admin, "term remove", {"term": "zorblax"}, channel=scene.channel
    )
    prompt = await removing.final_message()
    confirmed = await fake.click(scene.admin, prompt, buttons(prompt)["Remove"])
    assert (await confirmed.followups(1))[0]["content"] == "Removed “Zorblax”."

    picked = await fake.select(scene.moderator, message, menu["custom_id"], [option["value"]])
    answer = (await picked.final_message())["content"]
    assert answer == (
        "The term this menu offered for “zorblx” is no longer in the glossary, so nothing was"
        " added. Run `/stats` again for a fresh list."
    ), answer
    assert await store.list_aliases(scene.guild.id) == []
