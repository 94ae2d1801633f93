"""Gateway resume, intents, and injected rate limits, errors and latency."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest

from tests.fake_discord import FakeDiscord, run_client

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


async def test_disallowed_privileged_intent_closes_with_4014() -> None:
    async with FakeDiscord(allowed_privileged_intents=0) as fake:
        with fake.patch_discord_py(), pytest.raises(discord.PrivilegedIntentsRequired):
            async with run_client(TinyBot(message_content=True), fake):
                pass
