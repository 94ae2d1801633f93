"""Leftovers of round 27 (tests/outsider/PLAN.md, "Leftovers of round 27 (left37)"): others'
mentions in a mention's text, long misses in `/stats`' menu, the replied-to text Discord
withholds.

Through the real bot (discord.py) against the fake Discord, on real SQLite files."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from tests.discord_app.helpers import embed_of

from .conftest import Scene

RAG = "Retrieval-Augmented Generation (RAG)"


async def test_others_mentions_in_a_mention_are_read_as_nothing(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Leftover 1 (round 27's E3): "@bob see @Glossary rag" and "@Glossary rag for @bob" got
    "Did you mean one of these for “<@…> see rag”?" where "@Glossary rag" gets RAG's card: the
    words said to the other member ("@bob see", "for @bob") were searched with the term. Now the
    words before the bot's mention are said to the member mentioned there, and "for"/"to"/"cc"
    before another's mention go with it; a role's, a channel's mention and a custom emoji alike.
    DMs read them the same way, and Explain terms finds the term among them."""
    fake = scene.fake
    me, bob = fake.bot.mention, scene.bob.mention
    role = scene.guild.add_role("Helpers")
    said_as = [
        f"{bob} see {me} rag",
        f"{me} rag for {bob}",
        f"<@!{scene.bob.id}> see {me} rag",
        f"{role.mention} check {me} rag",
        f"{me} rag cc <#{scene.channel.id}>",
        f"{me} <:pepe:1234567890> rag <a:party:987654321> for {bob}",
        f"hey {bob}, {me} what is rag?",
    ]
    for said in said_as:
        await fake.user_message(scene.alice, scene.channel, said)
        answer = await fake.wait_for_channel_message(scene.channel)
        assert answer["embeds"], (said, answer["content"])
        assert answer["embeds"][0]["title"] == RAG, (said, answer)
    # a term that is no entry: the miss echoes the member's words, not the others' mentions
    await fake.user_message(scene.alice, scene.channel, f"{bob} see {me} zorbly frimble")
    answer = await fake.wait_for_channel_message(scene.channel)
    assert answer["content"].startswith("No entry for “zorbly frimble”"), answer["content"]
    dm = fake.dm_channel(scene.alice)
    for said in (f"rag for {bob}", f"{bob} see {me} rag"):
        await fake.user_message(scene.alice, dm, said)
        answer = await fake.wait_for_channel_message(dm)
        assert answer["embeds"] and answer["embeds"][0]["title"] == RAG, (said, answer)
    message = await fake.user_message(scene.bob, scene.channel, f"{bob} see {me} rag for {bob}")
    await fake.wait_for_channel_message(scene.channel)
    explained = await fake.message_command(scene.alice, "Explain terms", message)
    listing = embed_of(await explained.final_message())["description"]
    assert listing.startswith(f"**{RAG}**:"), listing
