"""Outsider round 29 (tests/outsider/PLAN.md, outsider41): a member in a busy server, does the
bot answer, and does it get in the way. The real bot (discord.py) against the fake Discord, on
real SQLite files."""

from __future__ import annotations

from typing import Any

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.helpers import embed_of

from .conftest import Scene

RAG = "Retrieval-Augmented Generation (RAG)"


async def _next_answer(scene: Scene) -> tuple[str, Any]:
    """The next post of the bot in the channel: the id of the message it replies to, and it."""
    answer = await scene.fake.wait_for_channel_message(scene.channel)
    return answer["message_reference"]["message_id"], answer


async def test_a_mention_shown_in_code_is_not_asked(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan lines Q1, Q2: a member showing others how to ask the bot, its mention inside code
    ("type `@Glossary rag` to get a card", or in a fenced block under "like this:"), got a public
    reply, "Did you mean one of these for “type \\` rag\\` to get a card”?", in the busy
    channel, and a missed search for the server's stats: nobody had asked. Code shows text as
    typed: a mention in it is shown, not said. Now such a message is not answered; a mention
    outside code with the term in code ("@Glossary `rag`") still is."""
    fake = scene.fake
    me = fake.bot.mention
    for shown in (
        f"type `{me} rag` to get a card",
        f"like this:\n```\n{me} rag\n```\nit answers in the channel",
        f"``{me} what is rag`` works, or `/define`",
    ):
        await fake.user_message(scene.alice, scene.channel, shown)
    asked = await fake.user_message(scene.bob, scene.channel, f"{me} `rag`")
    replied_to, answer = await _next_answer(scene)
    assert replied_to == asked["id"], answer
    assert embed_of(answer)["title"] == RAG
    await store.flush()
    assert await store.top_misses(scene.guild.id) == []
