"""Leftovers of this session's product rounds (tests/outsider/PLAN.md, "Leftovers (left42)"):
the real bot (discord.py) against the fake Discord, on real SQLite files."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

import pytest

from bot.discord_app.app import GlossaryBot
from bot.glossary.lookalikes import LookAlikes
from bot.glossary.models import Entry
from bot.glossary.server_terms import ServerTerm
from bot.storage import Store
from bot.term_storage import TermChange, change_terms
from tests.discord_app.helpers import embed_of
from tests.fake_discord.models import EMBED_LINKS
from tests.resilience.conftest import StartBot

from .conftest import Scene
from .test_round29 import RAG, _next_answer, only_the_ask_answered


async def test_a_mention_only_quoted_is_not_asked_again(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Item 1: a member quoting someone who asked the bot ("> @Glossary rag", then their own
    words to the channel) got an answer, and a miss where their words found none: the quote
    shows what another said to the bot, it asks nothing again. A block quote (">>> ") too."""
    fake = scene.fake
    me = fake.bot.mention
    for quoting in (
        f"> {me} rag\nyeah I wondered about that too, see the pinned doc",
        f"> {me} what is lora\n> it explains it well\nthis is how you ask it",
        f">>> {me} kv cache\nand then it answered in the thread",
    ):
        await fake.user_message(scene.bob, scene.channel, quoting)
    await only_the_ask_answered(scene, store, scene.alice, f"{me} rag")


async def test_a_mention_under_a_quote_asks_about_the_quote_or_its_own_words(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Item 1: "> what is rag" and then "@Glossary" (or "@Glossary ?", "@Glossary ^") below it
    asks about the quote; "@Glossary what is a kv cache" below a quote asks its own words, and
    so does a mention below a quote of someone's mention ("> @Glossary lora" then "@Glossary
    rag"). The quote is read as the member's own words would be: "> we put RAG behind the
    chat" then "@Glossary" answers as "@Glossary we put RAG behind the chat" does."""
    fake = scene.fake
    me = fake.bot.mention
    for said, title in (
        (f"> what is rag\n{me}", RAG),
        (f"> what's rag?\n{me} ?", RAG),
        (f"> so what is a kv cache\n{me} ^", "KV Cache"),
        (f"> we put RAG behind the chat\n{me} what is a kv cache", "KV Cache"),
        (f"> {me} lora\n{me} rag", RAG),
        (f"> {me} lora\n\n{me} kv cache pls", "KV Cache"),
    ):
        asked = await fake.user_message(scene.alice, scene.channel, said)
        replied_to, answer = await _next_answer(scene)
        assert replied_to == asked["id"], answer
        assert answer["embeds"], (said, answer)
        assert embed_of(answer)["title"] == title, (said, answer)
    dm = fake.dm_channel(scene.alice)  # every DM is read: a quote alone asks about it
    await fake.user_message(scene.alice, dm, "> so what is a kv cache")
    assert embed_of(await fake.wait_for_channel_message(dm))["title"] == "KV Cache"


async def test_a_card_in_a_thread_the_bot_cannot_embed_in_is_still_readable(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Item 2: Discord posts a bot's message without its embeds where the bot lacks Embed
    Links (no error), and refuses one left with nothing to show (empty message, 50006;
    discord-api-docs issues 2601, 5648); the fake kept the card. Where the bot cannot know its
    permissions (a thread it was never told about) it sends the card: members saw a post with
    nothing but the card's buttons. Now that post becomes the line saying the card needs Embed
    Links (Discord answers with the message as posted, its embeds gone)."""
    fake = scene.fake
    guild = scene.other_guild
    thread = guild.add_thread(scene.other_channel, "started meanwhile", scene.bob)
    for role in guild.roles.values():
        role.permissions &= ~EMBED_LINKS
    await fake.user_message(scene.alice, thread, f"{fake.bot.mention} what is rag")
    posted = await fake.wait_for_channel_message(thread)
    assert not posted["embeds"], posted  # Discord dropped the card

    def readable() -> Any:
        now = fake.message(int(posted["id"]))
        return now if now["content"] else None

    answer = await fake.waiter.wait_for(readable, "the card's post made readable")
    assert not answer["components"], answer  # no buttons under a card not shown
    assert "needs the **Embed Links** permission" in answer["content"], answer
    assert RAG in answer["content"], answer


async def test_a_servers_lookalike_index_is_built_off_the_event_loop(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 3: the look-alike index of a server's names (`/suggest` and `/alias add` check a
    new name against it) was built on the event loop at the first such request after each
    change of the server's terms: 0.67 s for a server whose 2 MiB are names
    (bench/lookalike_bench.py), every server unanswered meanwhile. Now it is built with the
    server's index, off the loop."""
    fake = scene.fake
    term = ServerTerm(
        id="zorblax", title="Zorblax", definition="Our nightly job.", category="Fundamentals"
    )
    await change_terms(store, scene.guild.id, lambda *_: (TermChange(put=(term,)), None), 1)
    built_in: list[int] = []  # the threads that indexed entries' names
    real_add = LookAlikes.add

    def add(self: LookAlikes[Any], owner: Any, names: Iterable[str | None]) -> None:
        if isinstance(owner, Entry):
            built_in.append(threading.get_ident())
        real_add(self, owner, names)

    monkeypatch.setattr(LookAlikes, "add", add)
    async with start_bot(store):
        handle = await fake.slash(scene.alice, "suggest", {"term": "blorp"}, channel=scene.channel)
        await handle.response()
        idea = {"definition": "The nightly job that re-ranks what retrieval found."}
        sent = await fake.submit_modal(scene.alice, handle, idea)
        assert (await sent.final_message())["content"].startswith("Thanks!")
    assert built_in  # the index was built (the suggestion was checked against it)...
    assert threading.get_ident() not in built_in  # ...and not on the event loop
