"""Members suggest missing terms (the "Suggest it" button, /suggest); moderators accept (it
becomes a term, editable first) or reject; the member is told privately; no flooding."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from bot.storage import MAX_OPEN_SUGGESTIONS, Store
from bot.term_storage import read_terms

from .conftest import Scene
from .helpers import buttons, define, embed_of
from .term_commands import IDEA, suggest_from_a_miss


async def test_a_suggestion_is_accepted_edited_and_the_member_told(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    fake = scene.fake
    assert (await suggest_from_a_miss(scene)).startswith("Thanks! “zorblax” is with")
    [waiting] = await store.open_suggestions(scene.guild.id)
    assert (waiting.title, waiting.user_id) == ("zorblax", scene.alice.id)
    assert await store.open_suggestions(scene.other_guild.id) == []

    review = await fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
    shown = await review.final_message()
    assert embed_of(shown)["title"] == "zorblax"
    accept = await fake.click(scene.moderator, shown, buttons(shown)["Accept…"])
    body = await accept.response()
    assert body["type"] == 9  # the term modal, filled with the suggestion: editable first
    values = {
        r["components"][0]["custom_id"]: r["components"][0].get("value")
        for r in body["data"]["components"]
    }
    assert values["definition"] == IDEA
    saved = await fake.submit_modal(scene.moderator, accept, {"title": "Zorblax"})
    # No category (none given to /term review): refused, and the suggestion stays open.
    refused = await saved.final_message()
    assert "Category: choose a category" in refused["content"]
    assert len(await store.open_suggestions(scene.guild.id)) == 1

    review = await fake.slash(
        scene.moderator, "term review", {"category": "Fundamentals"}, channel=scene.channel
    )
    shown = await review.final_message()
    accept = await fake.click(scene.moderator, shown, buttons(shown)["Accept…"])
    await accept.response()
    done = await (
        await fake.submit_modal(scene.moderator, accept, {"title": "Zorblax", "related": "RAG"})
    ).final_message()
    assert done["content"].startswith("Added **Zorblax**")
    assert "the member was told privately" in done["content"]
    told = await fake.wait_for_channel_message(fake.dm_channel(scene.alice))
    assert "was added to the glossary" in told["content"]
    assert await store.open_suggestions(scene.guild.id) == []
    [term] = await read_terms(store, scene.guild.id)
    assert (term.definition, term.category) == (IDEA, "Fundamentals")


async def test_accepting_saves_the_term_and_tells_the_member(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    fake = scene.fake
    await suggest_from_a_miss(scene, "frobnicating widgets")
    [waiting] = await store.open_suggestions(scene.guild.id)
    review = await fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
    shown = await review.final_message()
    accept = await fake.click(scene.moderator, shown, buttons(shown)["Accept…"])
    await accept.response()
    saved = await fake.submit_modal(
        scene.moderator, accept, {"title": "KV cache", "definition": IDEA}
    )
    answer = await saved.final_message()
    assert answer["content"].startswith("Added **KV cache**")
    assert "the member was told privately" in answer["content"]
    told = await fake.wait_for_channel_message(fake.dm_channel(scene.alice))
    assert "was added to the glossary" in told["content"]
    assert await store.open_suggestions(scene.guild.id) == []
    assert (await store.suggestion(scene.guild.id, waiting.id)).status == "accepted"  # type: ignore[union-attr]


async def test_a_rejection_is_told_privately(scene: Scene, bot: GlossaryBot, store: Store) -> None:
    fake = scene.fake
    handle = await fake.slash(scene.alice, "suggest", {"term": "blorp"}, channel=scene.channel)
    await handle.response()
    sent = await fake.submit_modal(scene.alice, handle, {"definition": IDEA})
    assert (await sent.final_message())["content"].startswith("Thanks!")
    review = await fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
    shown = await review.final_message()
    rejected = await fake.click(scene.moderator, shown, buttons(shown)["Reject"])
    answer = await rejected.final_message()
    assert "Rejected the suggestion" in answer["content"]
    told = await fake.wait_for_channel_message(fake.dm_channel(scene.alice))
    assert "was not added" in told["content"]
    again = await fake.click(scene.moderator, shown, buttons(shown)["Reject"])
    assert "already rejected" in (await again.final_message())["content"]
    accept = await fake.click(scene.moderator, shown, buttons(shown)["Accept…"])
    assert "already rejected" in (await accept.final_message())["content"]


async def test_members_cannot_flood_the_queue(scene: Scene, bot: GlossaryBot, store: Store) -> None:
    assert (await suggest_from_a_miss(scene, "zorblax")).startswith("Thanks!")
    # Two forms opened at once: the second submit is refused (the form opens when a member may
    # suggest; tests/outsider/test_round18.py holds the answer instead of a form).
    first = await scene.fake.slash(scene.bob, "suggest", {}, channel=scene.channel)
    second = await scene.fake.slash(scene.bob, "suggest", {}, channel=scene.channel)
    for handle in (first, second):
        assert (await handle.response())["type"] == 9
    sent = await scene.fake.submit_modal(
        scene.bob, first, {"title": "blorptex", "definition": IDEA}
    )
    assert (await sent.final_message())["content"].startswith("Thanks!")
    sent = await scene.fake.submit_modal(scene.bob, second, {"title": "quux", "definition": IDEA})
    assert "a moment ago" in (await sent.final_message())["content"]
    assert len(await store.open_suggestions(scene.guild.id)) == 2
    handle = await scene.fake.slash(scene.owner, "suggest", {}, channel=scene.channel)
    await handle.response()
    for n in range(MAX_OPEN_SUGGESTIONS - 2):
        await store.add_suggestion(scene.guild.id, 1000 + n, f"term {n}", IDEA)
    sent = await scene.fake.submit_modal(scene.owner, handle, {"title": "x", "definition": IDEA})
    assert "full queue" in (await sent.final_message())["content"]
    assert len(await store.open_suggestions(scene.guild.id, 100)) == MAX_OPEN_SUGGESTIONS


async def test_no_suggest_button_in_direct_messages(scene: Scene, bot: GlossaryBot) -> None:
    _, miss = await define(scene.fake, scene.alice, "zorblax", scene.fake.dm_channel(scene.alice))
    assert "Suggest it" not in buttons(miss)
