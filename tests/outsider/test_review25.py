"""What a reading of the session's changes found (task review25): through the real bot
(discord.py) against the fake Discord, on real SQLite files."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from tests.fake_discord import FakeChannel
from tests.fake_discord.models import READ_MESSAGE_HISTORY, SEND_MESSAGES_IN_THREADS
from tests.resilience.helpers import warned

from .conftest import Scene
from .test_round19_left import known_thread  # noqa: F401  (the fixture)


async def test_a_refused_mention_in_a_thread_names_the_permission_a_thread_needs(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Where the bot cannot know its permissions (a thread it was never told about), it posts
    and Discord may refuse (403, 50013). The line then said the bot "needs View Channel, Send
    Messages, Embed Links and Read Message History there": since round 22 (N6, N32) a mention
    is answered without the last two, and a thread asks Send Messages in Threads, which it
    never named. Now it names what a post there needs (discord.py knows such a thread by its
    id alone, not as a thread: both permissions are named)."""
    fake = scene.fake
    thread = scene.other_guild.add_thread(scene.other_channel, "started meanwhile", scene.bob)
    for role in scene.other_guild.roles.values():
        role.permissions &= ~SEND_MESSAGES_IN_THREADS
    async with warned("cannot reply to a mention") as said:
        await fake.user_message(scene.alice, thread, f"<@{fake.bot.id}> what is rag")
    assert [v.kind for v in fake.pop_violations()] == ["missing_permissions"]
    [line] = [r.getMessage() for r in said if "cannot reply to a mention" in r.getMessage()]
    assert f"the bot may not post in channel {thread.id}" in line, line
    assert line.endswith(
        "it needs View Channel and Send Messages (in a thread, Send Messages in Threads) there"
    ), line


async def test_a_refused_mention_in_a_known_thread_names_send_messages_in_threads(
    scene: Scene,
    known_thread: FakeChannel,  # noqa: F811  (the fixture imported above)
    bot: GlossaryBot,
) -> None:
    """A thread discord.py knows, where the bot's permissions changed since it was told them
    (Discord refuses the post it tries, 403, 50013): the line names Send Messages in Threads."""
    fake = scene.fake
    for role in scene.guild.roles.values():
        role.permissions &= ~SEND_MESSAGES_IN_THREADS
    async with warned("cannot reply to a mention") as said:
        await fake.user_message(scene.alice, known_thread, f"<@{fake.bot.id}> what is rag")
    assert [v.kind for v in fake.pop_violations()] == ["missing_permissions"]
    [line] = [r.getMessage() for r in said if "cannot reply to a mention" in r.getMessage()]
    assert line.endswith("it needs View Channel and Send Messages in Threads there"), line


async def test_a_refused_reply_names_read_message_history(scene: Scene, bot: GlossaryBot) -> None:
    """Read Message History taken since the bot was told its roles: Discord refuses the reply
    (403, 160002). The line named the four permissions of the invite; now the one a reply
    needs, as Discord's own text there says."""
    fake = scene.fake
    for role in scene.other_guild.roles.values():
        role.permissions &= ~READ_MESSAGE_HISTORY
    channel = scene.other_channel
    async with warned("cannot reply to a mention") as said:
        await fake.user_message(scene.alice, channel, f"<@{fake.bot.id}> what is rag")
    assert [v.kind for v in fake.pop_violations()] == ["missing_permissions"]
    [line] = [r.getMessage() for r in said if "cannot reply to a mention" in r.getMessage()]
    assert f"the bot may not reply in channel {channel.id}" in line, line
    assert line.endswith("it needs View Channel and Read Message History there"), line
