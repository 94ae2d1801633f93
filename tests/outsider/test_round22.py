"""What a twenty-second round of outside testing found: a new server's first week, all inside
Discord (its channels, its permissions, a moderator's first mistakes), and Discord's clock
(tokens, restarts, forms left open) (tests/outsider/PLAN.md, round 22)."""

from __future__ import annotations

from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.fake_discord.models import READ_MESSAGE_HISTORY, SEND_MESSAGES, SEND_MESSAGES_IN_THREADS
from tests.resilience.helpers import warned

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
