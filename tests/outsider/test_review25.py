"""What a reading of the session's changes found (task review25): through the real bot
(discord.py) against the fake Discord, on real SQLite files."""

from __future__ import annotations

import sqlite3
from typing import NoReturn

import pytest

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from bot.storage.queries import terms as term_queries
from tests.discord_app.helpers import buttons
from tests.fake_discord import FakeChannel, FakeGuild
from tests.fake_discord.models import SEND_MESSAGES_IN_THREADS
from tests.resilience.helpers import warned

from .conftest import Scene
from .test_round19_left import known_thread  # noqa: F401  (the fixture)


async def refused_mention_line(
    scene: Scene, guild: FakeGuild, channel: FakeChannel, taken: int
) -> str:
    """The line the bot logs for a mention in `channel` that Discord refuses, the permission
    `taken` from every role of `guild` since the bot was told its roles."""
    fake = scene.fake
    for role in guild.roles.values():
        role.permissions &= ~taken
    async with warned("cannot reply to a mention") as said:
        await fake.user_message(scene.alice, channel, f"<@{fake.bot.id}> what is rag")
    assert [v.kind for v in fake.pop_violations()] == ["missing_permissions"]
    [line] = [r.getMessage() for r in said if "cannot reply to a mention" in r.getMessage()]
    return line


async def test_a_refused_mention_in_a_thread_names_the_permission_a_thread_needs(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Where the bot cannot know its permissions (a thread it was never told about), it posts
    and Discord may refuse (403, 50013). The line then said the bot "needs View Channel, Send
    Messages, Embed Links and Read Message History there": since round 22 (N6, N32) a mention
    is answered without the last two, and a thread asks Send Messages in Threads, which it
    never named. Now it names what a post there needs (discord.py knows such a thread by its
    id alone, not as a thread: both permissions are named)."""
    guild = scene.other_guild
    thread = guild.add_thread(scene.other_channel, "started meanwhile", scene.bob)
    line = await refused_mention_line(scene, guild, thread, SEND_MESSAGES_IN_THREADS)
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
    line = await refused_mention_line(scene, scene.guild, known_thread, SEND_MESSAGES_IN_THREADS)
    assert line.endswith("it needs View Channel and Send Messages in Threads there"), line


async def test_a_term_form_whose_write_fails_past_its_checks_claims_nothing_and_keeps_the_text(
    scene: Scene, bot: GlossaryBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 22's N33 kept a form's text when the database refused the save, but only where
    the write failed before the form was checked (the lock taken first). Failing after (the
    disk full as the term is written: SQLite says so at that insert) the checks had marked the
    term saved: the answer said the database could not be written, with no Edit again, and the
    suggestion waiting under that name was accepted, its member told to look up a term that
    is not there. Now nothing is claimed and the text is kept, as for the lock."""
    fake = scene.fake
    await store.add_suggestion(scene.guild.id, scene.alice.id, "Zorblax", "The nightly job.")

    def disk_full(*args: object, **kwargs: object) -> NoReturn:
        raise sqlite3.OperationalError("database or disk is full")

    opened = await fake.slash(
        scene.moderator, "term add", {"category": "Fundamentals"}, channel=scene.channel
    )
    await opened.response()
    values = {"title": "Zorblax", "definition": "The nightly job that re-ranks documents."}
    with monkeypatch.context() as patched:
        patched.setattr(term_queries, "apply_change", disk_full)
        answer = await (await fake.submit_modal(scene.moderator, opened, values)).final_message()
    assert answer["content"].startswith("The database cannot be written right now"), answer
    assert "accepted" not in answer["content"].lower(), answer
    assert "Edit again" in buttons(answer), answer
    assert [s.title for s in await store.open_suggestions(scene.guild.id)] == ["Zorblax"]
    assert fake.store.channel_messages(fake.dm_channel(scene.alice).id) == []
    again = await fake.click(scene.moderator, answer, buttons(answer)["Edit again"])
    await again.response()
    saved = await (await fake.submit_modal(scene.moderator, again, {})).final_message()
    assert saved["content"].startswith("Added **Zorblax**"), saved
