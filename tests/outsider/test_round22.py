"""What a twenty-second round of outside testing found: a new server's first week, all inside
Discord (its channels, its permissions, a moderator's first mistakes), and Discord's clock
(tokens, restarts, forms left open) (tests/outsider/PLAN.md, round 22)."""

from __future__ import annotations

import pytest

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons, selects
from tests.fake_discord.models import READ_MESSAGE_HISTORY, SEND_MESSAGES, SEND_MESSAGES_IN_THREADS
from tests.resilience.helpers import locked_by_another_process, warned

from .conftest import Scene
from .test_round7 import title_of


async def test_a_mention_where_the_bot_may_not_read_history_is_answered_without_replying(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Plan line N32: a server that tidies its roles takes Read Message History from the bot
    (the README's invite asks for it "to reply to the message that mentioned it"). Discord then
    refuses every reply (403, 160002 "Cannot reply without permission to read message
    history"), and a member who mentioned the bot got nothing, with a WARNING per mention. Now
    the answer is posted as a message of its own there (Send Messages is all that needs), and
    the operator told once per channel; where the bot may read history it replies as ever."""
    for role in scene.other_guild.roles.values():
        role.permissions &= ~READ_MESSAGE_HISTORY
    fake = scene.fake
    async with start_bot(store):
        async with warned("Read Message History") as records:
            for query in ("rag", "kv cache"):
                await fake.user_message(
                    scene.alice, scene.other_channel, f"{fake.bot.mention} {query}"
                )
                posted = await fake.wait_for_channel_message(scene.other_channel)
                assert "message_reference" not in posted, posted
                assert title_of(posted) in ("Retrieval-Augmented Generation (RAG)", "KV Cache")
        told = [r for r in records if "Read Message History" in r.getMessage()]
        assert len(told) == 1, [r.getMessage() for r in records]
        asked = await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} rag")
        replied = await fake.wait_for_channel_message(scene.channel)
        assert replied["message_reference"]["message_id"] == asked["id"], replied


async def test_a_mention_where_the_bot_may_not_post_is_one_line_naming_the_permission(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Plan line N6: a server takes Send Messages in Threads from the bot (the README's invite
    asks for it). A mention in a thread there logged "the bot lacks Embed Links there", which
    it had (discord.py derives no Embed Links in a thread where it may not post), then tried a
    line of text, refused too (403, 50013), and a WARNING per mention listing View Channel,
    Send Messages, Embed Links and Read Message History: never the one it lacked. Likewise
    Send Messages in a channel. Now a mention where the bot may not post is not answered (no
    request Discord refuses), and the operator told once per channel which permission it
    lacks; `/define` answers there as ever (an interaction's answer needs neither)."""
    fake = scene.fake
    thread = scene.other_guild.add_thread(scene.other_channel, "help", scene.alice)
    for role in scene.other_guild.roles.values():
        role.permissions &= ~SEND_MESSAGES_IN_THREADS
    silent = scene.guild.add_text_channel("announcements-only")
    for role in scene.guild.roles.values():
        if role.managed:  # the bot's own role: Send Messages taken where it is granted
            role.permissions &= ~SEND_MESSAGES
    scene.guild.everyone.permissions &= ~SEND_MESSAGES
    async with start_bot(store):
        for channel, lacking in ((thread, "Send Messages in Threads"), (silent, "Send Messages")):
            async with warned(f"lacks {lacking} there") as records:
                for query in ("rag", "kv cache", "lora"):
                    said = f"{fake.bot.mention} {query}"
                    await fake.user_message(scene.alice, channel, said)
                # Mentions are answered in order: once one in a channel where the bot may post
                # is answered, those before it are done with.
                await fake.user_message(scene.alice, scene.other_channel, f"{fake.bot.mention} rag")
                await fake.wait_for_channel_message(scene.other_channel)
            said_lines = [r.getMessage() for r in records]
            assert len(said_lines) == 1, said_lines
            assert "Embed Links" not in said_lines[0], said_lines
            answer = await fake.slash(scene.alice, "define", {"term": "rag"}, channel=channel)
            assert title_of(await answer.final_message()) == "Retrieval-Augmented Generation (RAG)"


@pytest.mark.busy_timeout(0.5)  # the refusal is the point, not SQLite's 5 s wait
async def test_a_form_saved_while_the_database_is_locked_keeps_what_was_typed(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line N33: a moderator writes a term in `/term add`'s form (a definition of up to
    4,000 characters) and saves while another process holds the database's write lock. The
    answer was "The database cannot be written right now, so nothing was changed. Please try
    again later." and nothing more: what they typed was gone, where a form refused for its text
    keeps it for **Edit again**. Now this one keeps it too, and Edit again saves it once the
    database is back."""
    fake = scene.fake
    definition = "Our nightly batch job that re-ranks retrieved documents. " * 60
    opened = await fake.slash(
        scene.moderator, "term add", {"category": "Fundamentals"}, channel=scene.channel
    )
    await opened.response()
    async with locked_by_another_process(scene.db_path):
        submitted = await fake.submit_modal(
            scene.moderator, opened, {"title": "Zorblax", "definition": definition}
        )
        answer = await submitted.final_message()
    assert answer["content"].startswith("The database cannot be written right now"), answer
    assert "Edit again" in buttons(answer), answer
    assert await read_terms(store, scene.guild.id) == []
    again = await fake.click(scene.moderator, answer, buttons(answer)["Edit again"])
    form = await again.response()
    assert form["type"] == 9, form
    saved = await (await fake.submit_modal(scene.moderator, again, {})).final_message()
    assert saved["content"].startswith("Added **Zorblax**"), saved
    [term] = await read_terms(store, scene.guild.id)
    assert term.definition == definition.strip(), term


async def test_a_form_refused_for_its_category_lets_the_moderator_choose_one(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line N34: a new server's moderator runs `/term add` without its category option
    (optional: a term that words a bundled entry takes that entry's), writes the form and
    saves: "Category: choose a category", with **Edit again**, which reopens the same form,
    where there is no field for it. Every save refused the same way: the only way out was
    `/term add category:…` and the text typed again. Now the refusal carries a menu of the
    categories: a pick saves what was typed in the category chosen (category71: it reopened
    the form, to be submitted again)."""
    fake = scene.fake
    values = {"title": "Zorblax", "definition": "The nightly batch job that re-ranks documents."}
    opened = await fake.slash(scene.moderator, "term add", {}, channel=scene.channel)
    await opened.response()
    refused = await (await fake.submit_modal(scene.moderator, opened, values)).final_message()
    assert "choose a category" in refused["content"], refused
    [menu] = selects(refused)
    assert [o["label"] for o in menu["options"]][:2] == ["Fundamentals", "Retrieval & Context"]
    picked = await fake.select(scene.moderator, refused, menu["custom_id"], ["Fundamentals"])
    saved = await picked.final_message()
    assert saved["content"].startswith("Added **Zorblax**"), saved
    [term] = await read_terms(store, scene.guild.id)
    assert (term.category, term.definition) == ("Fundamentals", values["definition"]), term
