"""What a sixteenth round of outside testing found: a server's life over months and Discord as
it really behaves (forwarded messages and polls, permissions that change while a form is open),
through the real bot against the fake Discord (tests/outsider/PLAN.md, round 16)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.helpers import buttons, define, embed_of
from tests.discord_app.term_commands import TERM, add_term, open_add, suggest_from_a_miss
from tests.fake_discord import FakeChannel, FakeUser
from tests.fake_discord.command_permissions import override
from tests.fake_discord.models import GUILD_FORUM, GUILD_VOICE
from tests.resilience.botproc import BotProcess
from tests.resilience.helpers import HANG_GUARD

from .conftest import Scene

MENTION = "<@{bot}> what is rag"

POLL = {
    "question": {"text": "Should we add RAG to the support bot?"},
    "answers": [
        {"answer_id": 1, "poll_media": {"text": "Yes, with a kv cache"}},
        {"answer_id": 2, "poll_media": {"text": "No"}},
    ],
    "expiry": "2030-01-01T00:00:00+00:00",
    "allow_multiselect": False,
    "layout_type": 1,
}


def explained(message: dict[str, object]) -> str:
    return str(embed_of(message)["description"])


async def test_explain_terms_reads_a_forwarded_message(scene: Scene, bot: GlossaryBot) -> None:
    """Plan line Z24: a member forwards a message ("we keep the kv cache warm before RAG") to
    another channel and a reader runs Explain terms on the forward. Discord sends the forward
    with no text of its own, the forwarded text in its snapshot: the bot answered "I found no
    glossary terms in that message". Now it reads the snapshot as the message's text."""
    fake = scene.fake
    original = await fake.user_message(
        scene.alice, scene.other_channel, "we keep the kv cache warm before RAG"
    )
    forward = await fake.user_message(scene.alice, scene.channel, "", forward_of=original)
    answer = await (
        await fake.message_command(scene.alice, "Explain terms", forward)
    ).final_message()
    lines = explained(answer)
    assert "KV Cache" in lines, answer
    assert "Retrieval-Augmented Generation" in lines, answer


async def test_explain_terms_reads_a_poll(scene: Scene, bot: GlossaryBot) -> None:
    """Plan line Z25: a poll ("Should we add RAG to the support bot?", answers "Yes, with a kv
    cache", "No") is a message with no content: Explain terms said it found no terms. Now the
    question and the answers are read as the poll's text."""
    fake = scene.fake
    poll = await fake.user_message(scene.bob, scene.channel, "", poll=POLL)
    answer = await (await fake.message_command(scene.alice, "Explain terms", poll)).final_message()
    lines = explained(answer)
    assert "KV Cache" in lines, answer
    assert "Retrieval-Augmented Generation" in lines, answer


NO_LONGER = "You can't change this server's terms: that takes the right to use `/term`"


def demote(scene: Scene) -> None:
    """The moderator's role (Manage Server) is taken away, as a server admin does in Discord."""
    scene.guild.members[scene.moderator.id].role_ids.clear()


async def test_a_term_form_submitted_after_the_moderators_role_went_is_refused(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line Z33: a moderator opened `/term add`'s form; while they typed, an admin took
    their moderator role away. Discord checks `/term`'s permission when the command runs, never
    when its form is submitted: the bot answered "Added **Zorblax** in this server's glossary".
    Now the submit asks what Discord asks of `/term`, and nothing is written."""
    opened = await open_add(scene, scene.moderator, category="Retrieval & Context")
    demote(scene)
    submitted = await scene.fake.submit_modal(scene.moderator, opened, TERM)
    answer = await submitted.final_message()
    assert answer["content"].startswith(NO_LONGER), answer["content"]
    assert await read_terms(store, scene.guild.id) == []


async def test_a_role_granted_term_in_integrations_still_saves_its_form(
    scene: Scene, fake_helper: FakeUser, bot: GlossaryBot, store: Store
) -> None:
    """Plan line Z33 (the other side): a member without Manage Server whose role a server admin
    granted `/term` in Integrations saves the form as before: the save asks what Discord asks."""
    role = scene.guild.roles[scene.guild.members[fake_helper.id].role_ids[0]]
    await scene.fake.set_command_permissions(scene.guild, "term", [override(role, True)])
    opened = await open_add(scene, fake_helper, category="Retrieval & Context")
    submitted = await scene.fake.submit_modal(fake_helper, opened, TERM)
    assert (await submitted.final_message())["content"].startswith("Added **Zorblax**")
    assert [t.id for t in await read_terms(store, scene.guild.id)] == ["zorblax"]


@pytest.fixture
def fake_helper(scene: Scene) -> FakeUser:
    """A member of a role without Manage Server, there before the bot connects."""
    helper = scene.fake.add_user("hal")
    scene.guild.add_member(helper, roles=[scene.guild.add_role("Helpers")])
    return helper


async def test_a_removal_confirmed_after_the_moderators_role_went_is_refused(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line Z33 (the same for `/term remove`'s confirm button): it removed the term."""
    await add_term(scene)
    asked = await scene.fake.slash(
        scene.moderator, "term remove", {"term": "zorblax"}, channel=scene.channel
    )
    prompt = await asked.final_message()
    demote(scene)
    clicked = await scene.fake.click(scene.moderator, prompt, buttons(prompt)["Remove"])
    [answer] = await clicked.followups(1)
    assert answer["content"].startswith(NO_LONGER), answer["content"]
    assert [t.id for t in await read_terms(store, scene.guild.id)] == ["zorblax"]


async def test_a_suggestion_decided_after_the_moderators_role_went_is_refused(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line Z35: `/term review` showed a member's suggestion; the moderator lost the role
    and then clicked Reject: the suggestion was rejected and the member told; Accept's form
    saved it as a term. Now both are refused and the suggestion stays open."""
    await suggest_from_a_miss(scene)
    review = await scene.fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
    shown = await review.final_message()
    demote(scene)
    rejected = await scene.fake.click(scene.moderator, shown, buttons(shown)["Reject"])
    answer = await rejected.final_message()
    assert answer["content"].startswith(NO_LONGER), answer
    accepted = await scene.fake.click(scene.moderator, shown, buttons(shown)["Accept…"])
    answer = await accepted.final_message()  # no form opens (left43; its save asks too)
    assert answer["content"].startswith(NO_LONGER), answer
    assert await read_terms(store, scene.guild.id) == []
    [still_open] = await store.open_suggestions(scene.guild.id)
    assert still_open.title == "zorblax"


async def test_autocomplete_answers_that_came_too_late_are_one_line_a_minute(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line Z15: a member types "retri" into `/define` while the bot (or its link to
    Discord) is slow: each keystroke's answer reaches Discord after its 3 s and is refused as
    Unknown interaction (10062). The log got an ERROR "Ignoring exception in autocomplete" and
    a traceback for every keystroke, as for a bug. Now it is one WARNING line, without a
    traceback, counting the late answers, at most once a minute; the next keystroke answered in
    time is not affected."""
    fake = scene.fake
    async with BotProcess(fake, scene.db_path, cwd=tmp_path) as bot:
        fake.ack_deadline = 0.0  # every answer comes too late
        late = [
            await fake.autocomplete(
                scene.alice, "define", {"term": "retri"[:n]}, focused="term", channel=scene.channel
            )
            for n in range(1, 6)
        ]
        for handle in late:
            await fake.waiter.wait_for(lambda h=handle: h.records or None, "the late answer")
        fake.ack_deadline = HANG_GUARD  # answered, however busy the machine: not late
        on_time = await fake.autocomplete(
            scene.alice, "define", {"term": "retrieval"}, focused="term", channel=scene.channel
        )
        first = next(c["name"] for c in await on_time.choices())
        assert first.startswith("Retrieval"), first
        await bot.wait_for_output("too late")
    fake.pop_violations()  # the late answers, which the fake records as Discord refuses them
    assert "Traceback" not in bot.output, bot.output
    assert "Ignoring exception" not in bot.output, bot.output
    told = [line for line in bot.lines if "too late" in line]
    assert len(told) == 1, told
    assert "WARNING" in told[0], told
    assert "1 autocomplete answer reached" in told[0], told


async def test_a_mention_in_a_thread_the_bot_has_not_seen_gets_the_card(
    scene: Scene, bot: GlossaryBot, caplog: pytest.LogCaptureFixture
) -> None:
    """Plan line Z18: a member mentions the bot in a thread it was never told about (started
    while it was away, or one Discord sent no THREAD_CREATE for): discord.py knows the channel
    only by its id, with no permissions. The bot read that as "no Embed Links": it answered
    "has a card, but I can't show cards in this channel: it needs the Embed Links permission"
    and logged a WARNING saying the bot lacked it, which it did not. Now a channel whose
    permissions are not known gets the card, as a DM does (Discord refuses it if need be)."""
    fake = scene.fake
    thread = scene.guild.add_thread(scene.channel, "started while the bot was away", scene.bob)
    await fake.user_message(scene.alice, thread, MENTION.format(bot=fake.bot.id))
    reply = await fake.wait_for_channel_message(thread)
    assert embed_of(reply)["title"] == "Retrieval-Augmented Generation (RAG)", reply
    assert "Embed Links" not in caplog.text


async def test_a_mention_in_threads_and_voice_text_the_bot_knows_gets_the_card(
    scene: Scene, fake_places: tuple[FakeChannel, ...], bot: GlossaryBot
) -> None:
    """Plan lines Z18-Z20 (ok, kept as a check): a thread, a forum post and a voice channel's
    text chat, known from GUILD_CREATE: `/define` and a mention answer with the card there."""
    fake = scene.fake
    for place in fake_places:
        _, card = await define(fake, scene.alice, "rag", place)
        assert embed_of(card)["title"] == "Retrieval-Augmented Generation (RAG)", place.name
        await fake.user_message(scene.alice, place, MENTION.format(bot=fake.bot.id))
        reply = await fake.wait_for_channel_message(place)
        assert embed_of(reply)["title"] == "Retrieval-Augmented Generation (RAG)", place.name


@pytest.fixture
def fake_places(scene: Scene) -> tuple[FakeChannel, ...]:
    """A voice channel, a thread and a forum post, there before the bot connects."""
    guild = scene.guild
    forum = guild.add_channel("help", GUILD_FORUM)
    return (
        guild.add_channel("Lounge", GUILD_VOICE),
        guild.add_thread(scene.channel, "a thread", scene.bob),
        guild.add_thread(forum, "How do I use RAG?", scene.bob),
    )


async def test_every_command_is_for_servers_that_added_the_bot_only(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Plan line Z23: every command declared `integration_types` [0] (installed to a server)
    but `/alias`, which declared none: Discord then takes the app's own install settings, so an
    operator who turned on User Install in the Developer Portal would let a member run `/alias`
    (and store aliases) in a server that never added the bot. Now `/alias` declares it too."""
    declared = {c["name"]: c.get("integration_types") for c in scene.fake.commands()}
    assert declared == {name: [0] for name in declared}, declared
