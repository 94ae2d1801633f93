"""Review of the last session's changes (tests/outsider/PLAN.md, "Review of the last session's
changes (review40)").

Through the real bot (discord.py) against the fake Discord, on real SQLite files, and on the
test PostgreSQL where marked."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.define import MENTION_HELP

from .conftest import Scene

RAG = "Retrieval-Augmented Generation (RAG)"


async def test_a_pleasantry_after_the_bot_s_mention_is_no_question(
    scene: Scene, bot: GlossaryBot
) -> None:
    """W1: "@bob what's rag @Glossary thanks!" asks the bot about RAG; review38 read the words
    before the mention where only punctuation followed it, but a "thanks" there was taken as
    the question, and the member got the help line. Words after it that ask ("@bob see
    @Glossary rag") are still the question, and only a pleasantry in all is still the help."""
    fake = scene.fake
    me, bob = fake.bot.mention, scene.bob.mention
    for said in (
        f"{bob} what's rag {me} thanks!",
        f"{bob} explain rag please {me} thx",
        f"{bob} what is rag? {me} ty :)",
        f"{bob} see {me} rag",
    ):
        await fake.user_message(scene.alice, scene.channel, said)
        answer = await fake.wait_for_channel_message(scene.channel)
        assert answer["embeds"], (said, answer["content"])
        assert answer["embeds"][0]["title"] == RAG, (said, answer)
    for said in (f"{bob} thanks {me} thanks!", f"{bob} {me} hi"):
        await fake.user_message(scene.alice, scene.channel, said)
        answer = await fake.wait_for_channel_message(scene.channel)
        assert answer["content"] == MENTION_HELP, (said, answer)
