"""Leftovers of round 27 (tests/outsider/PLAN.md, "Leftovers of round 27 (left37)"): others'
mentions in a mention's text, long misses in `/stats`' menu, the replied-to text Discord
withholds.

Through the real bot (discord.py) against the fake Discord, on real SQLite files."""

from __future__ import annotations

from bot.aliases import MAX_ALIAS_LENGTH
from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.stats import GONE_MISS, miss_description, miss_label
from bot.limits import SELECT_OPTION_TEXT
from bot.storage import Store
from tests.discord_app.helpers import embed_of, selects

from .conftest import Scene

RAG = "Retrieval-Augmented Generation (RAG)"
SRAM = "Static Random-Access Memory"


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
        assert answer["embeds"], (said, answer)
        assert answer["embeds"][0]["title"] == RAG, (said, answer)
    message = await fake.user_message(scene.bob, scene.channel, f"{bob} see {me} rag for {bob}")
    await fake.wait_for_channel_message(scene.channel)
    explained = await fake.message_command(scene.alice, "Explain terms", message)
    listing = embed_of(await explained.final_message())["description"]
    assert listing.startswith(f"**{RAG}**:"), listing


async def test_the_stats_menu_offers_misses_too_long_to_hold_beside_their_entrys_id(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Leftover 2: an option's value (at most 100 characters) held the entry's id and the miss,
    so a miss longer than 100 characters less the id's was never offered ("how does speculative
    decodng work…", 100 characters, beside "speculative-decoding"). Now every miss is offered,
    at Discord's limits (the fake refuses a value or label past 100), and picking one adds the
    whole miss as the alias; one no longer stored (added, pruned) is said to be gone."""
    fake = scene.fake
    misses = [
        "how does speculative decodng work and why does it make generation faster on big models "
        "like these on",
        "what exactly is static random acess memory and how is it different from the other kind "
        "of memory chi",
        "what exactly is static random acess memory and how is it different from other memory",
        "kv chache",
    ]
    assert [len(m) for m in misses[:2]] == [MAX_ALIAS_LENGTH] * 2
    for miss in misses:
        store.record_miss(scene.guild.id, miss)
    shown = await fake.slash(scene.moderator, "stats", {}, channel=scene.channel)
    message = await shown.final_message()
    [menu] = selects(message)
    options = menu["options"]
    assert len(options) == len(misses), options
    for option in options:
        assert len(option["value"]) <= SELECT_OPTION_TEXT, option
        assert len(option["label"]) <= SELECT_OPTION_TEXT, option
    assert len({o["value"] for o in options}) == len(options), options
    for miss in misses[1:3]:  # the same target, the same first 70 characters
        shown = (miss_label(miss, SRAM), miss_description(miss, SRAM, 1))
        [option] = [o for o in options if (o["label"], o["description"]) == shown]
        picked = await fake.select(scene.moderator, message, menu["custom_id"], [option["value"]])
        answer = (await picked.final_message())["content"]
        assert answer.startswith(f"Added: “{miss}” now opens **{SRAM}"), answer
    # picked again: added, the miss is no longer stored (as after a prune): said, nothing added
    picked = await fake.select(scene.moderator, message, menu["custom_id"], [option["value"]])
    assert (await picked.final_message())["content"] == GONE_MISS
