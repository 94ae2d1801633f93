"""Gateway resume, intents, and injected rate limits, errors and latency."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest

from tests.fake_discord import FakeDiscord, run_client
from tests.fake_discord.models import (
    ALL_PERMISSIONS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
)
from tests.polling import eventually

from .conftest import Scene
from .tiny_bot import TinyBot

CALLBACK = "/interactions/{interaction_id}/{token}/callback"


async def test_dropped_gateway_resumes_and_answers_the_next_interaction(
    scene: Scene, bot: TinyBot
) -> None:
    fake = scene.fake
    await fake.drop_gateway()
    await fake.wait_resumed()
    assert (fake.gateway.identify_count, fake.gateway.resume_count) == (1, 1)
    handle = await fake.slash(scene.alice, "define", {"term": "kv"}, channel=scene.channel)
    assert (await handle.final_message())["embeds"][0]["title"] == "kv"


async def test_events_sent_while_disconnected_are_replayed_on_resume(
    scene: Scene, bot: TinyBot
) -> None:
    fake = scene.fake
    fake.gateway.resume_gate.clear()  # hold the bot's RESUME until the event is queued
    await fake.drop_gateway()
    handle = await fake.slash(scene.alice, "define", {"term": "rope"}, channel=scene.channel)
    assert handle.sent_at is None  # kept for the replay, as Discord does
    fake.gateway.resume_gate.set()
    await fake.wait_resumed()
    assert (await handle.final_message())["embeds"][0]["title"] == "rope"


async def test_reconnect_request_resumes(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    session_id = fake.gateway.sessions[0].id
    await fake.request_reconnect()
    await fake.wait_resumed()
    # op 7 made the bot open a new connection and RESUME the same session, not IDENTIFY anew.
    assert len(fake.gateway.connections) == 2
    assert (fake.gateway.identify_count, fake.gateway.resume_count) == (1, 1)
    assert [p["op"] for p in fake.gateway.received if p["op"] in (2, 6)] == [2, 6]
    assert fake.gateway.sessions[0].id == session_id
    handle = await fake.slash(scene.alice, "define", {"term": "kv"}, channel=scene.channel)
    assert (await handle.final_message())["embeds"][0]["title"] == "kv"


async def test_a_connection_held_before_its_hello_ends_with_the_fake(
    fake_discord: FakeDiscord,
) -> None:
    """`hello_gate` holds a new connection's HELLO (Discord out of reach, as the bot sees it).
    Closing the fake then closes that connection without a HELLO, and it is no longer open."""
    gateway = fake_discord.gateway
    gateway.hello_gate.clear()
    async with aiohttp.ClientSession() as session, session.ws_connect(gateway.url) as ws:
        await fake_discord.waiter.wait_for(lambda: gateway._open, "a connection held")
        await gateway.close()
        said = await ws.receive(timeout=5)
        assert said.type is aiohttp.WSMsgType.CLOSE, said
    await fake_discord.waiter.wait_for(lambda: not gateway._open, "the held connection ended")


async def test_a_connection_made_while_the_fake_stops_is_closed_not_served(
    fake_discord: FakeDiscord,
) -> None:
    """A bot told "going away" reconnects at once, and may reach the gateway while the fake
    is still stopping (its server not yet gone): that connection got a HELLO and stayed open
    until aiohttp's shutdown gave up on it a minute later, so the bot saw Discord out of reach
    only then (test_readme35 timed out once in CI that way). Now it is closed as the others."""
    gateway = fake_discord.gateway
    await gateway.close()  # what `stop` does first, before the server goes
    async with aiohttp.ClientSession() as session, session.ws_connect(gateway.url) as ws:
        said = await ws.receive(timeout=5)
        assert said.type is aiohttp.WSMsgType.CLOSE, said
        assert said.data == 1001, said
    await fake_discord.waiter.wait_for(lambda: not gateway._open, "the late connection ended")


async def test_rate_limited_callback_is_retried(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    fake.fail_next("POST", CALLBACK, status=429, retry_after=0.05)
    handle = await fake.slash(scene.alice, "define", {"term": "kv"}, channel=scene.channel)
    await handle.final_message()
    assert [r.status for r in handle.records] == [200]  # the 429 never reached the handler
    assert [(s.path, s.status) for s in fake.faults.served] == [(CALLBACK, 429)]


async def test_rate_limited_channel_message_is_retried(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    fake.fail_next("POST", "/channels/{channel_id}/messages", status=429, retry_after=0.05)
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} hello")
    assert (await fake.wait_for_channel_message(scene.channel))["content"].endswith("hello")
    assert len(fake.faults.served) == 1


async def test_server_error_is_retried(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake  # discord.py waits 1 s before retrying a 500
    fake.fail_next("POST", "/channels/{channel_id}/messages", status=500)
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} again")
    await fake.wait_for_channel_message(scene.channel)
    assert [s.status for s in fake.faults.served] == [500]


async def test_delayed_route_shows_in_latency(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    fake.delay("POST", CALLBACK, 0.2)
    handle = await fake.slash(scene.alice, "define", {"term": "kv"}, channel=scene.channel)
    await handle.final_message()
    # The deadline clock reads arrival; the bot's own wait includes the delay after it (a
    # difference, not a bound on arrival that a loaded machine could pass).
    assert handle.elapsed() - handle.records[0].elapsed >= 0.2


async def test_a_stopping_fake_ends_the_answers_a_delay_holds() -> None:
    """Stopping waited out every answer a delay held (aiohttp's shutdown waits for handlers, up
    to a minute): a test holding the login 20 s spent them after its bot had stopped. Now the
    held answer ends unanswered, its connection closed, as a server going down closes it."""
    fake = FakeDiscord()
    await fake.start()
    fake.delay("GET", "/users/@me", 3600.0)
    async with aiohttp.ClientSession() as session:
        asked = asyncio.create_task(
            session.get(
                f"{fake.api_base}/users/@me", headers={"Authorization": f"Bot {fake.token}"}
            )
        )
        await eventually(
            lambda: ("GET", "/api/v10/users/@me") in fake.requests, "the question to arrive"
        )
        # A bound on a hang, far under the held hour and aiohttp's minute, not a timing.
        await asyncio.wait_for(fake.stop(), 30)
        with pytest.raises(aiohttp.ClientConnectionError):
            await asyncio.wait_for(asked, 30)


def test_fault_on_unknown_route_is_refused() -> None:
    with pytest.raises(ValueError, match="no such route"):
        FakeDiscord().fail_next("POST", "/channels/{id}/messages")


async def test_message_content_needs_the_intent_unless_mentioned(
    scene: Scene, bot: TinyBot
) -> None:
    fake = scene.fake
    seen: asyncio.Queue[discord.Message] = asyncio.Queue()
    bot.add_listener(seen.put, "on_message")
    await fake.user_message(scene.alice, scene.channel, "no mention here")
    async with asyncio.timeout(5):
        assert (await seen.get()).content == ""  # the bot lacks the message content intent


async def test_a_reply_mentioning_the_bot_shows_it_the_replied_to_text_only_where_it_may_read_it(
    scene: Scene, bot: TinyBot
) -> None:
    """Without the message content intent, Discord shows a bot the text of a message that
    mentions it, of its own messages and of DMs: not that of the message a mention replies to
    (`referenced_message` with empty content, embeds, attachments and components), which the
    fake copied whole. A replied-to message that mentions the bot is shown, as are DMs."""
    fake = scene.fake
    seen: asyncio.Queue[discord.Message] = asyncio.Queue()
    bot.add_listener(seen.put, "on_message")
    me = fake.bot.mention
    link = [{"title": "a link"}]
    jargon = await fake.user_message(scene.moderator, scene.channel, "LoRA behind RAG", embeds=link)
    asking = await fake.user_message(
        scene.moderator, scene.channel, f"{me} what is RAG?", embeds=link
    )
    dm = fake.dm_channel(scene.alice)
    own = await fake.user_message(scene.alice, dm, "LoRA behind RAG", embeds=link)
    for replied, channel, shown in (
        (jargon, scene.channel, ""),
        (asking, scene.channel, f"{me} what is RAG?"),
        (own, dm, "LoRA behind RAG"),
    ):
        await fake.user_message(scene.alice, channel, f"{me} what?", reply_to=replied)
        async with asyncio.timeout(5):
            while (
                message := await seen.get()
            ).author.id != scene.alice.id or not message.reference:
                pass
        resolved = message.reference.resolved
        assert isinstance(resolved, discord.Message), resolved
        assert resolved.id == int(replied["id"])
        assert resolved.content == shown, (channel, resolved.content)
        assert [e.title for e in resolved.embeds] == (["a link"] if shown else []), resolved


async def test_disallowed_privileged_intent_closes_with_4014() -> None:
    async with FakeDiscord(allowed_privileged_intents=0) as fake:
        with fake.patch_discord_py(), pytest.raises(discord.PrivilegedIntentsRequired):
            async with run_client(TinyBot(message_content=True), fake):
                pass


async def test_op9_resumable_is_resumed_and_not_resumable_identifies_anew(
    scene: Scene, bot: TinyBot
) -> None:
    """Op 9 INVALID_SESSION sent on a live session: with `d: true` discord.py RESUMEs the same
    session; with `d: false` the session is gone and it IDENTIFYs again (gateway.py, received
    op INVALIDATE_SESSION)."""
    fake = scene.fake
    first = fake.gateway.sessions[0].id
    await fake.gateway.invalidate_session(resumable=True)
    await fake.waiter.wait_for(lambda: fake.gateway.resume_count == 1, "RESUME")
    assert (fake.gateway.identify_count, fake.gateway.sessions[0].id) == (1, first)
    await fake.gateway.invalidate_session(resumable=False)
    await fake.waiter.wait_for(lambda: fake.gateway.shard_ready(0), "a new READY")
    assert fake.gateway.identify_count == 2
    assert fake.gateway.sessions[0].id != first
    handle = await fake.slash(scene.alice, "define", {"term": "kv"}, channel=scene.channel)
    assert (await handle.final_message())["embeds"][0]["title"] == "kv"


async def test_a_guild_in_an_outage_is_unavailable_until_its_guild_create(scene: Scene) -> None:
    fake = scene.fake
    fake.gateway.outages.add(scene.guild.id)
    client = TinyBot()
    async with run_client(client, fake):
        guild = client.get_guild(scene.guild.id)
        assert guild is not None
        assert guild.unavailable
        await fake.gateway.end_outage(scene.guild.id)
        await fake.settle()
        guild = client.get_guild(scene.guild.id)
        assert guild is not None
        assert not guild.unavailable
        assert guild.name == scene.guild.name


async def test_unanswered_heartbeats_make_the_client_reconnect() -> None:
    """A zombie connection: no HEARTBEAT_ACK (nor anything else) comes; discord.py closes it
    after `heartbeat_timeout` without a frame and RESUMEs."""
    async with FakeDiscord(heartbeat_interval_ms=100) as fake:
        fake.add_guild("Lab")
        with fake.patch_discord_py():
            async with run_client(TinyBot(heartbeat_timeout=0.5), fake, synced=False):
                fake.gateway.ack_heartbeats = False
                await fake.waiter.wait_for(lambda: fake.gateway.resume_count == 1, "RESUME")
                assert fake.gateway.identify_count == 1


async def post(
    fake: FakeDiscord, channel_id: int, *, reply_to: int | None = None
) -> tuple[int, int]:
    """The bot posts in a channel (a reply to message `reply_to`): Discord's HTTP status and
    error code (0 when it took it)."""
    url = f"{fake.api_base}/channels/{channel_id}/messages"
    headers = {"Authorization": f"Bot {fake.token}"}
    body: dict[str, object] = {"content": "hello"}
    if reply_to is not None:
        body["message_reference"] = {"message_id": str(reply_to)}
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, json=body, headers=headers) as answer,
    ):
        return answer.status, int((await answer.json()).get("code", 0))


async def get(fake: FakeDiscord, path: str) -> tuple[int, int]:
    """The bot reads `path`: Discord's HTTP status and error code (0 when it answered)."""
    headers = {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{fake.api_base}{path}", headers=headers) as answer,
    ):
        found = await answer.json()
        return answer.status, int(found.get("code", 0)) if isinstance(found, dict) else 0


async def test_posts_in_an_archived_thread_or_a_server_the_bot_left_are_refused(
    scene: Scene,
) -> None:
    fake = scene.fake
    thread = scene.guild.add_thread(scene.channel, "help", scene.alice)
    assert await post(fake, thread.id) == (200, 0)
    thread.archived = True
    assert await post(fake, thread.id) == (400, 50083)
    assert await get(fake, f"/guilds/{scene.guild.id}") == (200, 0)
    del scene.guild.members[fake.bot.id]
    assert await post(fake, scene.channel.id) == (403, 50001)
    assert await get(fake, f"/guilds/{scene.guild.id}") == (404, 10004)  # as if none
    assert [v.kind for v in fake.pop_violations()] == ["archived_thread", "missing_access"]


async def test_a_reply_where_the_bot_may_not_read_history_is_refused(scene: Scene) -> None:
    """Discord refuses a reply (a post with `message_reference`) where the bot lacks Read
    Message History: 403, 160002; a message of its own there is taken."""
    fake = scene.fake
    assert await post(fake, scene.channel.id) == (200, 0)
    said = fake.sent_messages[-1].message
    assert await post(fake, scene.channel.id, reply_to=int(said["id"])) == (200, 0)
    for role in scene.guild.roles.values():
        role.permissions &= ~READ_MESSAGE_HISTORY
    assert await post(fake, scene.channel.id, reply_to=int(said["id"])) == (403, 160002)
    assert await post(fake, scene.channel.id) == (200, 0)
    assert [v.kind for v in fake.pop_violations()] == ["missing_permissions"]


async def test_channel_overwrites_are_sent_and_count_as_discord_counts_them(scene: Scene) -> None:
    """A channel's `permission_overwrites` go out as Discord sends them, and the fake's own
    refusals and `app_permissions` apply them in Discord's order: @everyone's, the member's
    roles' together, the member's own; a thread takes its parent's."""
    fake = scene.fake
    guild = scene.guild
    [bot_role] = [role for role in guild.roles.values() if role.managed]
    quiet = guild.add_text_channel("announcements")
    quiet.overwrite(guild.everyone, allow=SEND_MESSAGES)
    quiet.overwrite(bot_role, deny=SEND_MESSAGES | SEND_MESSAGES_IN_THREADS)
    assert quiet.payload()["permission_overwrites"] == [
        {"id": str(guild.id), "type": 0, "allow": str(SEND_MESSAGES), "deny": "0"},
        {
            "id": str(bot_role.id),
            "type": 0,
            "allow": "0",
            "deny": str(SEND_MESSAGES | SEND_MESSAGES_IN_THREADS),
        },
    ]
    thread = guild.add_thread(quiet, "help", scene.alice)
    assert await post(fake, quiet.id) == (403, 50013)
    assert await post(fake, thread.id) == (403, 50013)
    assert await post(fake, scene.channel.id) == (200, 0)
    assert guild.permissions_in(quiet, scene.alice.id) & SEND_MESSAGES  # not their role
    quiet.overwrite(fake.bot, allow=SEND_MESSAGES)  # the member's own overwrite comes last
    assert await post(fake, quiet.id) == (200, 0)
    assert guild.permissions_in(quiet, guild.owner_id) == ALL_PERMISSIONS
    assert [v.kind for v in fake.pop_violations()] == ["missing_permissions"] * 2
