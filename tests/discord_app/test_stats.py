"""/stats, and turning a missed search into an alias through Discord."""

from __future__ import annotations

import pytest

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from bot.storage.store import MAX_QUERY_LENGTH
from tests.fake_discord import InteractionRefused

from .conftest import Scene
from .helpers import define, embed_of, fields, footer, is_ephemeral, selects


async def stats(scene: Scene, **options: str) -> dict[str, object]:
    handle = await scene.fake.slash(scene.moderator, "stats", options, channel=scene.channel)
    message = await handle.final_message()
    assert is_ephemeral(message)
    return message


async def test_stats_count_lookups_made_a_moment_ago(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    fake = scene.fake
    for term in ("kv cache", "kv cache", "kv", "rag"):
        await define(fake, scene.alice, term, scene.channel)
    for _ in range(2):
        await define(fake, scene.bob, "kv stash", scene.channel)
    await define(fake, scene.alice, "banana bread", scene.channel)
    await define(fake, scene.alice, "lora", scene.other_channel)  # another server's

    message = await stats(scene)  # nothing flushed yet: the store's flusher runs each second
    embed = embed_of(message)
    assert embed["title"] == "Glossary lookups, the last 7 days"
    assert embed["description"] == "**4** lookups"
    shown = fields(message)
    assert shown["Most looked up"] == "1. KV Cache: 3\n2. Retrieval-Augmented Generation (RAG): 1"
    assert shown["Searches that found nothing"] == "“kv stash”: 2×\n“banana bread”: 1×"

    everything = embed_of(await stats(scene, period="all"))
    assert everything["title"] == "Glossary lookups, all time"
    assert everything["description"] == "**4** lookups"


async def test_stats_are_for_moderators(scene: Scene, bot: GlossaryBot) -> None:
    """Discord enforces /stats's default permission (Manage Server), as it does /alias's."""
    handle = await scene.fake.slash(scene.alice, "stats", channel=scene.channel)
    assert handle.refused
    with pytest.raises(InteractionRefused, match="default_member_permissions"):
        await handle.response()


async def test_a_miss_becomes_an_alias_in_one_step(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    fake = scene.fake
    _, missed = await define(fake, scene.alice, "kv stash", scene.channel)
    assert missed["content"].startswith("No entry for “kv stash”")
    assert "“kv stash”: 1×" in fields(await stats(scene))["Searches that found nothing"]

    # In /alias add, the alias box offers this server's misses, the term box the glossary.
    alias_box = await fake.autocomplete(
        scene.moderator, "alias add", {"alias": ""}, focused="alias", channel=scene.channel
    )
    assert await alias_box.choices() == [{"name": "kv stash (missed 1×)", "value": "kv stash"}]
    term_box = await fake.autocomplete(
        scene.moderator,
        "alias add",
        {"alias": "kv stash", "term": "kv c"},
        focused="term",
        channel=scene.channel,
    )
    term = (await term_box.choices())[0]["value"]
    assert term == "kv-cache"
    added = await fake.slash(
        scene.moderator, "alias add", {"alias": "kv stash", "term": term}, channel=scene.channel
    )
    assert (await added.final_message())["content"].startswith("Added: “kv stash”")

    _, card = await define(fake, scene.alice, "kv stash", scene.channel)
    assert embed_of(card)["title"] == "KV Cache"
    assert fields(await stats(scene))["Searches that found nothing"] == "None. 🎉"
    await store.flush()
    assert await store.top_misses(scene.guild.id) == []


async def test_the_alias_box_leaves_out_a_miss_too_long_to_pick_whole(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """A choice's value holds 100 characters: a longer miss, cut short, would add an alias that
    is not the search that missed."""
    long_miss = "why does the " + "very " * 30 + "long question miss"
    assert 100 < len(long_miss) <= MAX_QUERY_LENGTH
    for miss in (long_miss, "kv stash"):
        store.record_miss(scene.guild.id, miss)
    alias_box = await scene.fake.autocomplete(
        scene.moderator, "alias add", {"alias": ""}, focused="alias", channel=scene.channel
    )
    assert await alias_box.choices() == [{"name": "kv stash (missed 1×)", "value": "kv stash"}]


async def test_the_stats_select_turns_a_listed_miss_into_an_alias(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    fake = scene.fake
    # The select offers misses the search can now place: ones recorded before the glossary
    # learnt to read them (an older release, or a glossary reloaded since). A fresh miss has
    # no such guess (a search that finds nothing offers nothing), so seed an old one.
    store.record_miss(scene.guild.id, "kv chache")
    message = await stats(scene)
    [menu] = selects(message)
    [option] = menu["options"]
    assert option["label"] == "“kv chache” → KV Cache"
    assert "Pick a miss below" in footer(message)

    picked = await fake.select(scene.moderator, message, menu["custom_id"], [option["value"]])
    answer = await picked.final_message()
    assert is_ephemeral(answer)
    assert answer["content"] == "Added: “kv chache” now opens **KV Cache** in this server."
    _, card = await define(fake, scene.alice, "kv chache", scene.channel)
    assert 'matched "kv chache" as this server\'s alias' in footer(card)
    assert fields(await stats(scene))["Searches that found nothing"] == "None. 🎉"
