"""The fake's per-route rate limits (outsider50): Discord's headers on every answer of a limited
route, its 429 past the limit (as the spec shapes it and discord.py retries it), a bucket per
channel, and discord.py waiting on the headers so that nothing sent is lost."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import discord

from tests.fake_discord import FakeDiscord
from tests.fake_discord.openapi import SPEC_PATH, spec_errors, spec_or_skip

from .conftest import Scene
from .tiny_bot import TinyBot

ROUTE = "/channels/{channel_id}/messages"


async def test_a_spent_bucket_answers_discords_429_and_another_channel_has_its_own() -> None:
    spec_or_skip()
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Lab")
        general, other = guild.add_text_channel("general"), guild.add_text_channel("other")
        fake.rate_limit("POST", ROUTE, limit=1, per=60.0)
        headers = {"Authorization": f"Bot {fake.token}"}
        async with aiohttp.ClientSession(headers=headers) as session:

            async def post(channel_id: int) -> tuple[int, dict[str, str], dict[str, object]]:
                url = f"{fake.api_base}/channels/{channel_id}/messages"
                async with session.post(url, json={"content": "hi"}) as response:
                    return response.status, dict(response.headers), await response.json()

            first = await post(general.id)
            second = await post(general.id)
            elsewhere = await post(other.id)
    assert first[0] == 200, first
    assert first[1]["X-RateLimit-Remaining"] == "0"
    assert 0 < float(first[1]["X-RateLimit-Reset-After"]) <= 60
    status, said, body = second
    assert status == 429, second
    assert spec_errors("RatelimitedResponse", body) == []
    named = json.loads(SPEC_PATH.read_text())["components"]["responses"]
    assert set(named["ClientRatelimitedResponse"]["headers"]) <= set(said)
    assert said["Via"]  # discord.py retries a 429 only with it
    assert 0 < float(str(body["retry_after"])) <= 60
    assert elsewhere[0] == 200, elsewhere  # a bucket per channel
    assert [(r.method, r.path) for r in fake.rate_limits.refused] == [("POST", ROUTE)]
    assert len(fake.rate_limits.spent) == 2
    assert [m.body["content"] for m in fake.sent_messages] == ["hi", "hi"]


async def test_discord_py_waits_on_the_headers_and_loses_nothing(
    scene: Scene, bot: TinyBot
) -> None:
    """Five messages sent at once into a bucket of one per 0.2 s: discord.py reads
    Remaining 0 and waits out Reset-After before each next one; all five arrive."""
    fake = scene.fake
    fake.rate_limit("POST", ROUTE, limit=1, per=0.2)
    channel = bot.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    await asyncio.gather(*(channel.send(f"m{n}") for n in range(5)))
    assert sorted(m.body["content"] for m in fake.sent_messages) == [f"m{n}" for n in range(5)]
    assert len(fake.rate_limits.spent) == 5
    assert fake.rate_limits.refused == []
