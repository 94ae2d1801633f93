"""Review of the last merges (tests/outsider/PLAN.md, "Review of the last merges (review38)"):
left37's mentions and `/stats` digest, shards37's SHARD_COUNT lock.

Through the real bot (discord.py) against the fake Discord, on real SQLite files; the shard
claims on a real PostgreSQL."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.define import MENTION_HELP
from bot.storage import Store
from tests.discord_app.helpers import selects

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


async def test_a_long_miss_picked_among_many_with_its_first_words_is_added(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """R3: a long miss beside a long entry id is offered by its digest and the ~30 characters
    of it that fit; picked, the stored misses holding those characters were read, the top 100
    of them. Misses sharing them ("what is the difference between …") searched more often since
    the menu was sent hid it: "no longer stored", nothing added, though it was."""
    fake = scene.fake
    title = "Zorblax Frimble Quantization Scheduler Warmup Calibration"
    opened = await fake.slash(
        scene.moderator, "term add", {"category": "Fundamentals"}, channel=scene.channel
    )
    await opened.response()
    values = {"title": title, "definition": "The nightly job that warms the zorblax up."}
    added = await (await fake.submit_modal(scene.moderator, opened, values)).final_message()
    assert added["content"].startswith(f"Added **{title}"), added
    head = "what is the difference between "
    miss = f"{head}zorblax frimble quantization scheduler warmup calibration"
    store.record_miss(scene.guild.id, miss)
    shown = await fake.slash(scene.moderator, "stats", {}, channel=scene.channel)
    message = await shown.final_message()
    [menu] = selects(message)
    [option] = menu["options"]
    assert option["value"].startswith("~"), option  # offered by its digest
    for n in range(120):  # searched since, each more often than it
        for _ in range(2):
            store.record_miss(scene.guild.id, f"{head}thing {n} and thing {n + 1}")
    picked = await fake.select(scene.moderator, message, menu["custom_id"], [option["value"]])
    answer = (await picked.final_message())["content"]
    assert answer.startswith(f"Added: “{miss}” now opens **{title}"), answer
