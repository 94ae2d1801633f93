"""Outsider round 29 (tests/outsider/PLAN.md, outsider41): a member in a busy server, does the
bot answer, and does it get in the way. The real bot (discord.py) against the fake Discord, on
real SQLite files."""

from __future__ import annotations

from typing import Any

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.define import EXPLAIN_ABOVE, EXPLAIN_REPLIED
from bot.storage import Store
from tests.discord_app.helpers import embed_of
from tests.fake_discord.models import FakeUser

from .conftest import Scene

RAG = "Retrieval-Augmented Generation (RAG)"


async def _next_answer(scene: Scene) -> tuple[str, Any]:
    """The next post of the bot in the channel: the id of the message it replies to, and it."""
    answer = await scene.fake.wait_for_channel_message(scene.channel)
    return answer["message_reference"]["message_id"], answer


async def only_the_ask_answered(scene: Scene, store: Store, asker: FakeUser, ask: str) -> None:
    """`asker` asks RAG with `ask` after messages that did not ask the bot: the ask's reply is
    the bot's next post (none of those was answered), RAG's card, and no miss is stored."""
    asked = await scene.fake.user_message(asker, scene.channel, ask)
    replied_to, answer = await _next_answer(scene)
    assert replied_to == asked["id"], answer
    assert embed_of(answer)["title"] == RAG
    await store.flush()
    assert await store.top_misses(scene.guild.id) == []


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
    await only_the_ask_answered(scene, store, scene.bob, f"{me} `rag`")


async def test_a_term_asked_with_a_link_opens_its_card(scene: Scene, bot: GlossaryBot) -> None:
    """Plan line W5: a member asks about a term and pastes where they met it ("@Glossary rag
    https://discord.com/channels/…", "@Glossary https://arxiv.org/abs/2005.11401 rag",
    `/define rag https://…`): "Did you mean one of these for “rag https[:]//discord[.]com/…”?"
    in public, the address echoed, though a link names no term (README; Explain terms reads none
    in one). Now where the whole finds no card, the words without their links are searched,
    and a card they open is the answer."""
    fake = scene.fake
    me = fake.bot.mention
    for said, title in (
        (f"{me} rag https://discord.com/channels/1/2/3", RAG),
        (f"{me} https://arxiv.org/abs/2005.11401 rag", RAG),
        (f"{me} kv cache <https://huggingface.co/docs/transformers>", "KV Cache"),
    ):
        asked = await fake.user_message(scene.alice, scene.channel, said)
        replied_to, answer = await _next_answer(scene)
        assert replied_to == asked["id"], answer
        assert answer["embeds"], (said, answer)
        assert embed_of(answer)["title"] == title, (said, answer)
    looked_up = await fake.slash(
        scene.bob,
        "define",
        {"term": "rag https://discord.com/channels/1/2/3"},
        channel=scene.channel,
    )
    answer = await looked_up.final_message()
    assert answer["embeds"], answer
    assert embed_of(answer)["title"] == RAG


async def test_a_mention_pointing_up_is_told_of_explain_terms(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line W7 (found on the way): "@Glossary ^" (or 👆, ⬆️), the chat way of saying
    "explain the message above", was answered in public "No entry for “^”. Try another
    spelling, or ask a moderator to add it as an alias." and "^" became a missed search in the
    server's /stats. The bot cannot read the message above (Discord shows it only the mention's
    own words): it now says how to get its terms, Explain terms, and records no miss. In a
    reply to another's message, the reply's own note; under the bot's card, nothing."""
    fake = scene.fake
    me = fake.bot.mention
    for said in (f"{me} ^", f"{me} ^^^", f"{me} \U0001f446", f"^ {me}", f"{me} \u2b06\ufe0f?"):
        asked = await fake.user_message(scene.alice, scene.channel, said)
        replied_to, answer = await _next_answer(scene)
        assert replied_to == asked["id"], answer
        assert answer["content"] == EXPLAIN_ABOVE, (said, answer["content"])
    jargon = await fake.user_message(scene.bob, scene.channel, "we tuned it with LoRA behind RAG")
    await fake.user_message(scene.alice, scene.channel, f"{me} ^", reply_to=jargon)
    _, answer = await _next_answer(scene)
    assert answer["content"] == EXPLAIN_REPLIED, answer["content"]
    await store.flush()
    assert await store.top_misses(scene.guild.id) == []
