"""Known Discord-side product faults left by earlier rounds (task left19), each through the bot
against the fake Discord, on real SQLite files."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.helpers import buttons, define, embed_of, selects
from tests.discord_app.test_term_log import term, write
from tests.fake_discord import FakeChannel
from tests.fake_discord.models import SEND_MESSAGES
from tests.ops.test_metrics import metrics_port, scrape
from tests.resilience.botproc import BotProcess
from tests.resilience.helpers import warned

from .conftest import Scene
from .test_round16 import POLL, demote

# Discord's docs: a poll's `expiry` is nullable, "to support non-expiring polls in the future".
ENDLESS_POLL = {**POLL, "expiry": None}


async def test_explain_terms_on_a_poll_that_never_ends(scene: Scene, bot: GlossaryBot) -> None:
    """discord.py works a poll's duration out of its `expiry`, and raised a TypeError on a poll
    without one: Explain terms on such a poll was "This interaction failed". Now the poll's
    question and answers are read as for any poll."""
    fake = scene.fake
    poll = await fake.user_message(scene.bob, scene.channel, "", poll=ENDLESS_POLL)
    answer = await (await fake.message_command(scene.alice, "Explain terms", poll)).final_message()
    lines = str(embed_of(answer)["description"])
    assert "KV Cache" in lines, answer
    assert "Retrieval-Augmented Generation" in lines, answer


async def test_a_mention_carrying_a_poll_that_never_ends_is_answered(
    scene: Scene, bot: GlossaryBot
) -> None:
    """The same poll in a message that mentions the bot ("@Glossary what is rag", with a poll)
    raised in discord.py's gateway reader, before any listener: no answer, and the bot's
    connection dropped. Now the mention is answered, and the next one too."""
    fake = scene.fake
    mention = f"<@{fake.bot.id}> what is rag"
    await fake.user_message(scene.alice, scene.channel, mention, poll=ENDLESS_POLL)
    card = await fake.wait_for_channel_message(scene.channel)
    assert embed_of(card)["title"] == "Retrieval-Augmented Generation (RAG)", card
    await fake.user_message(scene.alice, scene.channel, f"<@{fake.bot.id}> kv cache")
    card = await fake.wait_for_channel_message(scene.channel)
    assert embed_of(card)["title"].startswith("KV Cache"), card


async def test_a_message_forwarded_to_the_bot_in_a_dm_gets_its_terms(
    scene: Scene, bot: GlossaryBot
) -> None:
    """A member forwards a message ("we keep the kv cache warm before RAG") to the bot in a DM,
    as one shows a friend something to explain. Discord sends a forward with no text of its own
    (the text is in its snapshot): the bot answered its help line, "Ask me about a term". Now it
    lists the forward's terms as Explain terms does, with the menu to open their cards; a
    forward without any says so."""
    fake = scene.fake
    dm = fake.dm_channel(scene.alice)
    original = await fake.user_message(
        scene.bob, scene.channel, "we keep the kv cache warm before RAG"
    )
    await fake.user_message(scene.alice, dm, "", forward_of=original)
    listing = await fake.wait_for_channel_message(dm)
    assert embed_of(listing)["title"] == "2 glossary terms in this message", listing
    lines = str(embed_of(listing)["description"])
    assert "KV Cache" in lines, listing
    assert "Retrieval-Augmented Generation" in lines, listing
    [menu] = selects(listing)
    rag = next(o["value"] for o in menu["options"] if o["label"].startswith("Retrieval"))
    card = await (await fake.select(scene.alice, listing, menu["custom_id"], [rag])).final_message()
    assert embed_of(card)["title"] == "Retrieval-Augmented Generation (RAG)", card
    plain = await fake.user_message(scene.bob, scene.channel, "see you all tomorrow")
    await fake.user_message(scene.alice, dm, "", forward_of=plain)
    answer = await fake.wait_for_channel_message(dm)
    assert answer["content"] == "I found no glossary terms in that message.", answer


@pytest.fixture
def known_thread(scene: Scene) -> FakeChannel:
    """A thread there before the bot connects: discord.py knows it from GUILD_CREATE."""
    return scene.guild.add_thread(scene.channel, "a thread", scene.bob)


async def test_a_mention_in_a_known_thread_whose_parent_is_not_cached_gets_the_card(
    scene: Scene, known_thread: FakeChannel, bot: GlossaryBot, caplog: pytest.LogCaptureFixture
) -> None:
    """A thread discord.py knows takes its permissions from its parent channel, and raises when
    that channel is not in its cache (discord.py caches no channel of a type it does not know,
    one newer than it): here the parent is taken out of the bot's cache. Checking Embed Links
    for a mention there raised: "Something went wrong" and an error id. Now it is answered as
    in a thread discord.py was never told about: with the card."""
    fake = scene.fake
    guild = bot.get_guild(scene.guild.id)
    assert guild is not None
    assert guild.get_thread(known_thread.id) is not None
    parent = guild.get_channel(scene.channel.id)
    assert parent is not None
    guild._remove_channel(parent)
    await fake.user_message(scene.alice, known_thread, f"<@{fake.bot.id}> what is rag")
    reply = await fake.wait_for_channel_message(known_thread)
    assert embed_of(reply)["title"] == "Retrieval-Augmented Generation (RAG)", reply
    assert "Embed Links" not in caplog.text


async def test_a_mention_whose_reply_is_refused_is_no_lookup(
    scene: Scene, bot: GlossaryBot
) -> None:
    """A mention's card was counted as a lookup before its reply was sent: a reply Discord
    refused (the bot may not send there: 403, 50013) or whose channel was deleted meanwhile
    counted a card nobody saw, in `/stats` and the next card's footer. Now a mention's card is
    counted once its reply is sent, as `/define`'s are; the card's footer still counts itself."""
    fake, store = scene.fake, bot.state.store
    assert store is not None
    guild, channel = scene.other_guild, scene.other_channel
    mention = f"<@{fake.bot.id}> what is rag"
    for role in guild.roles.values():
        role.permissions &= ~SEND_MESSAGES
    async with warned("cannot reply to a mention"):
        await fake.user_message(scene.alice, channel, mention)
    assert [v.kind for v in fake.pop_violations()] == ["missing_permissions"]
    for role in guild.roles.values():
        role.permissions |= SEND_MESSAGES
    fake.faults.delay("POST", "/channels/{channel_id}/messages", 1.0, times=1)
    async with warned("the channel or the message was deleted first"):
        await fake.user_message(scene.alice, channel, mention)
        del guild.channels[channel.id]
    await store.flush()
    assert await store.lookup_count(guild.id, "rag") == 0
    await fake.user_message(scene.alice, scene.channel, mention)
    card = await fake.wait_for_channel_message(scene.channel)
    assert "looked up 1 time here" in embed_of(card)["footer"]["text"], card
    await fake.settle()  # counted once its reply returned: let the bot take the answer in
    await store.flush()
    assert await store.lookup_count(scene.guild.id, "rag") == 1


async def test_term_log_pages_do_not_turn_for_a_moderator_whose_role_went(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """`/term log` showed a moderator the newest changes; an admin then took their role away.
    Discord checks `/term`'s permission when the command runs, never a button's: "Older" still
    showed them the server's older changes. Now a page turn asks what Discord asks of `/term`
    (as the `/term` forms and buttons do since round 16) and says why it shows nothing more."""
    fake, mod = scene.fake, scene.moderator
    for n in range(12):
        await write(store, scene.guild.id, mod.id, term(n, f"First words of term {n}."))
    shown = await (await fake.slash(mod, "term log", {}, channel=scene.channel)).final_message()
    newest = embed_of(shown)["description"]
    demote(scene)
    clicked = await fake.click(mod, shown, buttons(shown)["Older"])
    [answer] = await clicked.followups(1)
    assert answer["content"].startswith("You can't read this server's term changes: that takes"), (
        answer
    )
    assert embed_of(fake.message(int(shown["id"])))["description"] == newest


# A Persian word with its half-space (a zero-width non-joiner: "می‌خواهم", "I want"), and
# Devanagari with a joiner after the virama (the half form of ka) and a non-joiner (the virama
# shown): each joiner changes how the word is drawn.
JOINED_WORDS = (
    "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
    "\u0915\u094d\u200d\u0937",
    "\u0915\u094d\u200c\u0937",
)


async def test_a_miss_echoes_joiners_inside_words_of_scripts_written_with_them(
    scene: Scene, bot: GlossaryBot
) -> None:
    """What a member typed is shown back without invisible characters; since round 18 a
    joiner gluing emoji stays. The joiners inside Persian and Indic words went: "می‌خواهم"
    came back as "میخواهم", drawn joined, a different spelling. Names and Explain terms keep
    them there: now the echo does too (one rule, `name_rules.shaping_joiner`); a joiner
    inside a Latin word still goes."""
    for word in JOINED_WORDS:
        _, said = await define(scene.fake, scene.alice, f"{word} zo\u200crb", scene.channel)
        assert f"“{word} zorb" in said["content"], (word, said["content"])


async def test_metrics_on_port_0_serve_on_a_free_port_named_in_the_log(
    scene: Scene, tmp_path: Path
) -> None:
    """Tests picked a "free" port, closed it, then started a bot on it: another test (a second
    pytest worker) could take it in between, and the bot ran without metrics. `METRICS_PORT=0`
    was refused ("a port number from 1 to 65535"). Now it serves on a free port the system
    picks, and the log line names it: the tests read the port from there."""
    async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path, METRICS_PORT="0") as bot:
        port = await metrics_port(bot)
        assert port > 0
        values = await asyncio.to_thread(scrape, port)
        assert values["glossary_definitions", (("source", "foundations"),)] > 100
        assert await bot.stop() == 0
