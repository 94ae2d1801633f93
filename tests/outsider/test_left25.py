"""Leftovers of rounds 20 and 21 (task left25, PLAN.md "Leftovers of rounds 20-21"): through the
real bot (discord.py) against the fake Discord, and the real command line in a process of its
own on real SQLite files."""

from __future__ import annotations

from bot.storage import Store
from tests.discord_app.conftest import StartBot

from .conftest import Scene
from .test_round7 import title_of

SLOW = "You're going a bit fast"


async def test_talk_under_a_card_uses_none_of_the_members_lookups(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """A reply under the bot's card pings it (Discord lists the bot in `mentions`); chatter
    there is left unanswered, but each such reply took one of the member's lookups before it
    was searched: three words of chat under a card and `/define` said "going a bit fast".
    Now chatter costs no lookup; such replies have a limit of their own (the search each makes
    stays bounded), and one that finds a card takes a lookup as a mention does."""
    fake = scene.fake
    async with start_bot(store, cooldown=(3, 60.0)):
        await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} rag")
        card = await fake.wait_for_channel_message(scene.channel)
        assert title_of(card) == "Retrieval-Augmented Generation (RAG)", card
        for chatter in ("ok we will use this in the pipeline tomorrow", "thanks!", "lol"):
            await fake.user_message(scene.bob, scene.channel, chatter, reply_to=card)
        looked_up = await fake.slash(
            scene.bob, "define", {"term": "kv cache"}, channel=scene.channel
        )
        assert title_of(await looked_up.final_message()) == "KV Cache"
        # A fourth reply within the minute is past the replies' own limit: not searched, though
        # it would find a card; it takes no lookup either.
        unsearched = await fake.user_message(
            scene.bob, scene.channel, "and kv cache?", reply_to=card
        )
        asked = await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} rag")
        answer = await fake.wait_for_channel_message(scene.channel)
        assert answer["message_reference"]["message_id"] == asked["id"], answer
        replied_to = [
            m.get("message_reference", {}).get("message_id")
            for m in fake.store.channel_messages(scene.channel.id)
        ]
        assert unsearched["id"] not in replied_to
        for term in ("lora", "rag"):  # bob's second and third lookups
            looked_up = await fake.slash(scene.bob, "define", {"term": term}, channel=scene.channel)
            assert SLOW not in str((await looked_up.final_message()).get("content")), term
        # A reply that finds a card is a lookup: alice's third, then /define is one too many.
        asked = await fake.user_message(scene.alice, scene.channel, "and kv cache?", reply_to=card)
        answer = await fake.wait_for_channel_message(scene.channel)
        assert answer["message_reference"]["message_id"] == asked["id"], answer
        assert title_of(answer) == "KV Cache", answer
        refused = await fake.slash(scene.alice, "define", {"term": "lora"}, channel=scene.channel)
        assert str((await refused.final_message()).get("content")).startswith(SLOW)
