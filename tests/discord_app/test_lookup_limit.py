"""One per-user limit for every way to look a term up (issue 10, item 8): /define, mentions
and "Explain terms" draw on it together, and over it nothing is said in public."""

from __future__ import annotations

from bot.storage import Store

from .conftest import Scene, StartBot
from .helpers import define, embed_of, is_ephemeral

LIMIT = (5, 60.0)


async def test_a_burst_of_mentions_gets_as_many_answers_as_define_would(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    fake = scene.fake
    async with start_bot(store, cooldown=LIMIT):
        said = [
            await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} rag")
            for _ in range(20)
        ]
        # bob's mention comes after all of alice's: once it is answered, hers were all seen.
        await fake.user_message(scene.bob, scene.channel, f"{fake.bot.mention} kv cache")
        replies = [await fake.wait_for_channel_message(scene.channel) for _ in range(6)]
        answered = [r["message_reference"]["message_id"] for r in replies]
        assert len([i for i in answered if i in {s["id"] for s in said}]) == 5
        assert all(r["embeds"] for r in replies)  # cards only: no "slow down" in public
        # ... and /define, sharing the limit, is now over it too.
        _, slow_down = await define(fake, scene.alice, "rag", scene.channel)
        assert is_ephemeral(slow_down)
        assert slow_down["content"].startswith("You're going a bit fast")
        # Nothing more was posted for alice's mentions past the limit.
        await fake.user_message(scene.bob, scene.channel, f"{fake.bot.mention} rag")
        last = await fake.wait_for_channel_message(scene.channel)
        assert last["message_reference"]["message_id"] not in {s["id"] for s in said}


async def test_explain_terms_shares_the_limit_with_define(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    fake = scene.fake
    async with start_bot(store, cooldown=LIMIT):
        said = await fake.user_message(scene.bob, scene.channel, "our kv cache is full")
        for _ in range(3):
            await define(fake, scene.alice, "rag", scene.channel)
        for _ in range(2):
            handle = await fake.message_command(scene.alice, "Explain terms", said)
            assert embed_of(await handle.final_message())["title"].endswith("in this message")
        over = await (
            await fake.message_command(scene.alice, "Explain terms", said)
        ).final_message()
        assert is_ephemeral(over)
        assert over["content"].startswith("You're going a bit fast")
        # Another user is not affected.
        handle = await fake.message_command(scene.bob, "Explain terms", said)
        assert embed_of(await handle.final_message())["title"].endswith("in this message")
