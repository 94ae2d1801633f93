"""product72: the product leftovers of the seventh session (tests/outsider/PLAN.md, its
"product72" section), through the fake Discord and the real discord.py client."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.helpers import buttons, define, is_ephemeral

from .conftest import Scene
from .test_category71 import pick, refused_for_category

# What `/define` searches and misses but no suggestion may be named: a timestamp, a command
# link, accents with no letter under them.
UNNAMABLE = {
    "<t:1700000000:R>": "cannot contain Discord markup",
    "</define:123>": "cannot contain Discord markup",
    "\u0301\u0301": "needs a letter, digit or symbol, not accents alone",
    "\u0301 \u0301": "needs a letter, digit or symbol, not accents alone",
}


async def test_a_miss_offers_suggest_it_only_for_what_suggest_takes(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Failed before: each of UNNAMABLE was "No entry … ask a moderator to add it as an alias"
    with **Suggest it**, whose press `/suggest` refused ("A term's name cannot contain …"), and
    a miss /stats listed for an alias no moderator could add. Now the reason, no button, no
    miss; an emoji or an accented letter, which `/suggest` takes, still offers the form."""
    fake = scene.fake
    for text, why in UNNAMABLE.items():
        _, answer = await define(fake, scene.bob, text, scene.channel)
        assert answer["content"].startswith("No entry for “"), (text, answer)
        assert f"A term's name {why}" in answer["content"], (text, answer)
        assert "Suggest it" not in buttons(answer), (text, answer)
        assert is_ephemeral(answer), (text, answer)
        # `/suggest` of the same text: the same reading refuses it, before any form.
        asked = await fake.slash(scene.bob, "suggest", {"term": text}, channel=scene.channel)
        refused = await asked.final_message()
        assert f"A term's name {why}" in refused["content"], (text, refused)
    # Words beside the markup name something a moderator could add as an alias: a miss still.
    _, answer = await define(fake, scene.bob, "zqblorp <t:1700000000:R>", scene.channel)
    assert "Suggest it" not in buttons(answer), answer
    for text in ("🔧", "é"):
        _, answer = await define(fake, scene.bob, text, scene.channel)
        opened = await fake.click(scene.bob, answer, buttons(answer)["Suggest it"])
        assert (await opened.response())["type"] == 9, text  # the form
    await store.flush()
    missed = sorted(m.query for m in await store.top_misses(scene.guild.id))
    assert missed == ["zqblorp <t 1700000000 r", "é", "🔧"], missed


async def test_the_answer_to_a_category_pick_names_the_category(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Failed before: "Added **Zorblax** in this server's glossary: `/define zorblax`." named
    no category, the one thing the moderator had just chosen. The command's option is named
    the same way; a server's wording of a bundled entry (which takes that one's) is not."""
    refused = await refused_for_category(scene, scene.moderator)
    saved = await pick(scene, scene.moderator, refused, "Retrieval & Context")
    assert saved["content"] == (
        "Added **Zorblax** in this server's glossary, under **Retrieval & Context**: "
        "`/define Zorblax`."
    ), saved
    [term] = await read_terms(store, scene.guild.id)
    assert term.category == "Retrieval & Context"

    opened = await scene.fake.slash(
        scene.moderator, "term add", {"category": "Fundamentals"}, channel=scene.channel
    )
    await opened.response()
    values = {"title": "Qxkalo", "definition": "Our own word."}
    added = await (await scene.fake.submit_modal(scene.moderator, opened, values)).final_message()
    assert added["content"].startswith(
        "Added **Qxkalo** in this server's glossary, under **Fundamentals**:"
    ), added

    opened = await scene.fake.slash(scene.moderator, "term add", {}, channel=scene.channel)
    await opened.response()
    values = {"title": "Retrieval-Augmented Generation", "definition": "Our team's own words."}
    worded = await (await scene.fake.submit_modal(scene.moderator, opened, values)).final_message()
    assert worded["content"].startswith(
        "Added **Retrieval-Augmented Generation** in this server's glossary: "
    ), worded
    assert "under" not in worded["content"], worded
