"""Review of the last merges (tests/outsider/PLAN.md, "Review of the last merges (review38)"):
left37's mentions and `/stats` digest, shards37's SHARD_COUNT lock.

Through the real bot (discord.py) against the fake Discord, on real SQLite files; the shard
claims on a real PostgreSQL."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.define import MENTION_HELP

from .conftest import Scene

RAG = "Retrieval-Augmented Generation (RAG)"


async def test_a_question_put_to_the_bot_after_another_s_mention_keeps_its_words(
    scene: Scene, bot: GlossaryBot
) -> None:
    """R1, R2: "@bob what's rag, @Glossary?" asks the bot about RAG; only the "?" came after
    the bot's mention, and left37 took what follows it as the question. The bot between two
    others, "cc @bob" first, and a message of only mentions and emoji as before."""
    fake = scene.fake
    me, bob, mod = fake.bot.mention, scene.bob.mention, scene.moderator.mention
    for said in (
        f"{bob} what's rag, {me}?",
        f"{bob} explain rag {me} !",
        f"{mod} {me} rag for {bob}",
        f"cc {bob} {me} rag",
        f"{bob} {me} what is rag? {mod}",
    ):
        await fake.user_message(scene.alice, scene.channel, said)
        answer = await fake.wait_for_channel_message(scene.channel)
        assert answer["embeds"], (said, answer["content"])
        assert answer["embeds"][0]["title"] == RAG, (said, answer)
    for said in (f"{bob} {me} <:pepe:1234567890> {mod}", f"{bob} {me}"):
        await fake.user_message(scene.alice, scene.channel, said)
        answer = await fake.wait_for_channel_message(scene.channel)
        assert answer["content"] == MENTION_HELP, (said, answer)
