"""/define through the real discord.py client and the fake Discord: match, typo, suggest, none."""

from __future__ import annotations

import asyncio

import pytest

from bot.discord_app.app import GlossaryBot
from bot.glossary import Glossary
from bot.storage import Store
from tests.fake_discord import is_silent
from tests.resilience.helpers import warned

from .conftest import Scene, StartBot
from .helpers import (
    CHANNEL_MESSAGE,
    UPDATE_MESSAGE,
    buttons,
    define,
    embed_of,
    fields,
    footer,
    is_ephemeral,
    selects,
)


async def test_define_answers_with_a_public_card(
    scene: Scene, bot: GlossaryBot, glossary: Glossary
) -> None:
    handle, message = await define(scene.fake, scene.alice, "kv cache", scene.channel)
    assert handle.response_latency is not None
    assert handle.response_latency < 3
    embed = embed_of(message)
    assert embed["title"] == "KV Cache"
    assert not is_ephemeral(message)
    assert embed["description"].startswith("**A cache for attention keys and values")
    card_fields = fields(message)
    assert card_fields["🚫 What it is not"].startswith(
        "The cache stores keys and values, not attention"
    )
    assert "PagedAttention" in card_fields["Related"]
    assert "As the Foundations glossary puts it" in card_fields
    related = buttons(message)
    assert "PagedAttention" in related
    assert "Attention Mechanism" in related
    # Footer: category and every source; no "matched ..." for an exact name.
    text = footer(message)
    assert text.startswith("Inference & Operations · ")
    for source in ("LLM Studio topics glossary", "Foundations glossary", "Backend.AI GO glossary"):
        assert source in text
    assert "matched" not in text
    assert embed["color"] == 0x00A8FC  # the Inference & Operations colour
    assert is_silent(scene.fake.sent_messages[-1].allowed_mentions)


async def test_card_title_links_to_the_reference(
    scene: Scene, bot: GlossaryBot, glossary: Glossary
) -> None:
    entry = next(e for e in glossary if e.reference and e.acronym and e.acronym not in e.title)
    _, message = await define(scene.fake, scene.alice, entry.title, scene.channel)
    embed = embed_of(message)
    assert embed["title"] == f"{entry.title} ({entry.acronym})"
    assert embed["url"] == entry.reference


async def test_a_typo_still_answers_and_the_footer_says_how(scene: Scene, bot: GlossaryBot) -> None:
    _, message = await define(scene.fake, scene.alice, "kv cahce", scene.channel)
    assert embed_of(message)["title"] == "KV Cache"
    assert 'matched "kv cahce" as a typo' in footer(message)


async def test_a_message_in_another_language_is_read_as_define_reads_it(
    scene: Scene, bot: GlossaryBot
) -> None:
    """The card's title is nowhere in what was typed: the footer says how it was read, as it
    does for a typo; "Explain terms" finds the same entries."""
    _, message = await define(scene.fake, scene.alice, "什么是注意力机制", scene.channel)
    assert embed_of(message)["title"] == "Attention Mechanism"
    assert 'matched "什么是注意力机制" in translation' in footer(message)
    # "Explain terms" on such a message lists what /define finds there
    said = await scene.fake.user_message(scene.bob, scene.channel, "注意力机制和过拟合有什么关系？")
    command = await scene.fake.message_command(scene.alice, "Explain terms", said)
    listing = await command.final_message()
    assert [o["value"] for o in selects(listing)[0]["options"]] == ["attention", "overfitting"]


async def test_suggest_offers_buttons_and_the_askers_click_becomes_the_card(
    scene: Scene, bot: GlossaryBot, glossary: Glossary
) -> None:
    fake = scene.fake
    _handle, message = await define(fake, scene.alice, "hallu", scene.channel)
    assert message["content"] == "Did you mean one of these for “hallu”?"
    assert not message["embeds"]
    assert not is_ephemeral(message)
    offered = buttons(message)
    hallucination = glossary["hallucination"].display_title
    assert {hallucination, glossary["hallucination-detection"].display_title} <= set(offered)

    click = await fake.click(scene.alice, message, offered[hallucination])
    assert (await click.response())["type"] == UPDATE_MESSAGE
    card = await click.final_message()
    assert card["id"] == message["id"]  # the same message, now the card
    assert card["content"] == ""
    assert embed_of(card)["title"] == hallucination


async def test_no_entry_is_ephemeral_and_recorded_as_a_miss(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    _, message = await define(scene.fake, scene.alice, "Qwertyuiop", scene.channel)
    assert is_ephemeral(message)
    assert message["content"].startswith("No entry for “Qwertyuiop”")
    assert not message["embeds"]
    await scene.fake.settle()  # counted once its send returned: let the bot take the reply in
    await store.flush()
    [miss] = await store.top_misses(scene.guild.id)
    assert (miss.query, miss.count) == ("qwertyuiop", 1)
    assert await store.top_misses(scene.other_guild.id) == []


@pytest.mark.parametrize("term", ["   ", "\u200b\u200b", "\u200e \u2060", "#", "@", "# @"])
async def test_a_term_of_nothing_visible_asks_for_one_and_records_no_miss(
    scene: Scene, bot: GlossaryBot, store: Store, term: str
) -> None:
    """Spaces, invisible characters or punctuation only: nothing was looked up, so there is no "No
    entry for “”", no empty miss for moderators and no button to suggest nothing. ("#" and "@"
    stay in the read text, for names like C#.)"""
    _, message = await define(scene.fake, scene.alice, term, scene.channel)
    assert is_ephemeral(message)
    assert message["content"].startswith("Nothing to look up")
    assert not message["embeds"]
    assert not message.get("components")
    await store.flush()
    assert await store.top_misses(scene.guild.id) == []


async def test_no_entry_after_a_deferred_start_is_still_only_for_the_asker(
    scene: Scene, bot: GlossaryBot
) -> None:
    # Forgetting the server's aliases makes /define read them again, so it defers first.
    bot.state.servers.forget(scene.guild.id)
    handle, message = await define(scene.fake, scene.alice, "qwertyuiop", scene.channel)
    assert (await handle.response())["type"] == 5
    assert is_ephemeral(message)
    assert message["content"].startswith("No entry for “qwertyuiop”")
    live = [
        m
        for m in scene.fake.store.channel_messages(scene.channel.id)
        if int(m["id"]) != int(message["id"]) and "qwertyuiop" in m["content"]
    ]
    assert live == []


async def test_private_define_is_ephemeral(scene: Scene, bot: GlossaryBot) -> None:
    # First with the server's aliases not cached (the bot defers), then with them cached.
    bot.state.servers.forget(scene.guild.id)
    kinds = []
    for _ in range(2):
        handle, message = await define(
            scene.fake, scene.alice, "kv cache", scene.channel, private=True
        )
        kinds.append((await handle.response())["type"])
        assert is_ephemeral(message)
        assert embed_of(message)["title"] == "KV Cache"
    assert kinds == [5, CHANNEL_MESSAGE]


async def test_define_in_a_dm(scene: Scene, bot: GlossaryBot) -> None:
    dm = scene.fake.dm_channel(scene.alice)
    _, message = await define(scene.fake, scene.alice, "rag", dm)
    assert embed_of(message)["title"] == "Retrieval-Augmented Generation (RAG)"
    assert "guild_id" not in message


async def test_user_text_echoed_back_is_escaped(scene: Scene, bot: GlossaryBot) -> None:
    fake = scene.fake
    role = scene.guild.add_role("Everyone Important")
    nasty = f"@everyone <@&{role.id}> **x**"
    _, message = await define(fake, scene.alice, nasty, scene.channel)
    content = message["content"]
    assert "@everyone" not in content  # broken with a zero-width space
    assert f"<@&{role.id}>" not in content
    assert r"\*\*x\*\*" in content  # shown as typed, not bold
    assert not message["mention_roles"]
    assert not message["mentions"]
    sent = fake.sent_messages[-1]
    assert sent.pings == []
    assert is_silent(sent.allowed_mentions)


async def test_a_slow_database_defers_and_still_answers(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    never = asyncio.Event()

    async def hung(scope: int) -> dict[str, str]:
        await never.wait()  # a database that does not answer
        return {}

    # The bot's read timeout, shortened: the test waits for it, not for the default second.
    async with start_bot(store, read_timeout=0.05) as bot:
        monkeypatch.setattr(store, "aliases", hung)
        bot.state.servers.forget(scene.guild.id)
        handle, message = await define(scene.fake, scene.alice, "kv cache", scene.channel)
        assert (await handle.response())["type"] == 5  # acknowledged at once ...
        assert handle.response_latency is not None
        assert handle.response_latency < 3
        assert embed_of(message)["title"] == "KV Cache"  # ... and answered without the aliases
        assert not is_ephemeral(message)


async def test_the_per_user_cooldown_answers_politely(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    fake = scene.fake
    async with start_bot(store, cooldown=(2, 60.0)):
        for _ in range(2):
            _, card = await define(fake, scene.alice, "rag", scene.channel)
            assert embed_of(card)["title"].endswith("(RAG)")
        _, slow_down = await define(fake, scene.alice, "rag", scene.channel)
        assert is_ephemeral(slow_down)
        assert slow_down["content"].startswith("You're going a bit fast: try again in")
        _, other = await define(fake, scene.bob, "rag", scene.channel)  # per user
        assert embed_of(other)["title"].endswith("(RAG)")


async def test_a_comparison_card_offers_the_other_side_first(
    scene: Scene, bot: GlossaryBot
) -> None:
    """ "X vs Y" answers X with Y as the first button, though X's related terms lack it
    (compare25); the click opens Y in place."""
    fake = scene.fake
    _, card = await define(fake, scene.alice, "safetensors vs checkpoint", scene.channel)
    assert embed_of(card)["title"] == "Safetensors"
    assert next(iter(buttons(card))) == "Checkpoint"
    click = await fake.click(scene.alice, card, buttons(card)["Checkpoint"])
    assert (await click.response())["type"] == UPDATE_MESSAGE
    assert embed_of(await click.final_message())["title"] == "Checkpoint"
    # a card opened by its own name keeps its related terms as they are
    _, plain = await define(fake, scene.alice, "safetensors", scene.channel)
    assert "Checkpoint" not in buttons(plain)


async def test_define_held_up_past_discords_deadline_posts_its_card_in_the_channel(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Discord's 3 s for the first response count from when it sent the interaction. The bot
    counted them from when it read it: one held up on the way (a slow network, a busy machine)
    got a response Discord refused (10062), and the user saw "did not respond". Counted from the
    interaction's id (as late autocompletes are), it is known to be late: the card goes to the
    channel as a message of its own."""
    fake = scene.fake
    first, _ = await define(fake, scene.alice, "kv cache", scene.channel)  # the clocks' offset
    late = await fake.slash(
        scene.alice, "define", {"term": "kv cache"}, channel=scene.channel, held_up=5.0
    )
    posted = await fake.wait_for_channel_message(scene.channel)
    assert embed_of(posted)["title"] == "KV Cache"
    assert int(posted["id"]) != first.original_message_id
    assert late.records == []  # nothing sent that Discord would refuse


async def test_explain_terms_held_up_past_discords_deadline_sends_nothing_to_be_refused(
    scene: Scene, bot: GlossaryBot
) -> None:
    """The "Explain terms" command counts Discord's 3 s from when Discord sent the interaction,
    as /define does. Its answer is private (a listing of someone else's message, for the one who
    asked): a late one is not posted in the channel for all to see, nothing is sent that Discord
    would refuse (10062), and the log says the answer is lost."""
    fake = scene.fake
    said = await fake.user_message(scene.bob, scene.channel, "we cache the kv cache")
    first = await fake.message_command(scene.alice, "Explain terms", said)  # the clocks' offset
    assert is_ephemeral(await first.final_message())
    posts = len(fake.sent_messages)
    async with warned("private answer is lost") as records:
        late = await fake.message_command(scene.alice, "Explain terms", said, held_up=5.0)
    [lost] = [r.getMessage() for r in records if "private answer is lost" in r.getMessage()]
    assert f"interaction {late.id} " in lost, lost
    await fake.settle()
    assert late.records == []  # nothing sent that Discord would refuse
    assert len(fake.sent_messages) == posts  # nor posted in the channel
