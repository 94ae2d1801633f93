"""The fake refuses what Discord refuses, with Discord's error bodies, and records a violation."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from tests.fake_discord import FakeDiscord

from .conftest import Scene
from .tiny_bot import TinyBot


def kinds(fake: FakeDiscord) -> list[str]:
    return [v.kind for v in fake.pop_violations()]


async def test_overlong_embed_is_rejected(scene: Scene, bot: TinyBot) -> None:
    handle = await scene.fake.slash(scene.alice, "overlong", channel=scene.channel)
    await handle.wait_for(lambda h: h.records or None)
    [record] = handle.records
    assert record.status == 400
    assert record.response["code"] == 50035
    error = record.response["errors"]["embeds"]["0"]["description"]["_errors"][0]
    assert error["code"] == "BASE_TYPE_MAX_LENGTH"
    assert not handle.acknowledged
    assert kinds(scene.fake) == ["invalid_form_body"]
    async with asyncio.timeout(5):
        seen = await bot.errors.get()  # discord.py raised it to the command's error handler
    assert isinstance(seen, discord.HTTPException)
    assert seen.code == 50035


async def test_26_autocomplete_choices_are_rejected(scene: Scene, bot: TinyBot) -> None:
    handle = await scene.fake.autocomplete(
        scene.alice, "many", {"q": ""}, focused="q", channel=scene.channel
    )
    assert len((await handle.response())["data"]["choices"]) == 26  # what the bot sent
    await handle.wait_for(lambda h: h.records or None)
    assert handle.records[0].response["errors"]["data"]["choices"]["_errors"][0]["code"] == (
        "BASE_TYPE_MAX_LENGTH"
    )
    assert kinds(scene.fake) == ["invalid_form_body"]


async def test_a_choice_past_its_options_declared_length_is_rejected(
    scene: Scene, bot: TinyBot
) -> None:
    """product72: the option is registered as discord.py sends it (min_length 2, max_length 5);
    a value typed past them is the client's to refuse (ValueError), and a choice the bot offers
    past them, which would be sent as that value, is refused as an invalid form body."""
    [capped] = [c for c in scene.fake.commands() if c["name"] == "capped"]
    [option] = capped["options"]
    assert (option["min_length"], option["max_length"]) == (2, 5)
    for typed in ("x", "sixsix"):
        with pytest.raises(ValueError, match=r"length must be within 2\.\.5"):
            await scene.fake.slash(scene.alice, "capped", {"q": typed}, channel=scene.channel)
    said = await scene.fake.slash(scene.alice, "capped", {"q": "fiver"}, channel=scene.channel)
    assert (await said.final_message())["content"] == "fiver"
    handle = await scene.fake.autocomplete(
        scene.alice, "capped", {"q": ""}, focused="q", channel=scene.channel
    )
    await handle.wait_for(lambda h: h.records or None)
    errors = handle.records[0].response["errors"]["data"]["choices"]
    assert list(errors) == ["1"], errors  # "sixsix"; "short" fits
    assert errors["1"]["value"]["_errors"][0]["code"] == "BASE_TYPE_BAD_LENGTH"
    assert kinds(scene.fake) == ["invalid_form_body"]


async def test_second_initial_response_is_rejected(scene: Scene, bot: TinyBot) -> None:
    handle = await scene.fake.slash(scene.alice, "twice", channel=scene.channel)
    await handle.wait_for(lambda h: len(h.records) == 2 or None)
    first, second = handle.records
    assert first.status == 200
    assert (second.status, second.response["code"]) == (400, 40060)
    assert kinds(scene.fake) == ["already_acknowledged"]


async def test_late_initial_response_is_unknown_interaction(scene: Scene, bot: TinyBot) -> None:
    scene.fake.ack_deadline = 0.1  # the bot's /late takes 0.3 s
    handle = await scene.fake.slash(scene.alice, "late", channel=scene.channel)
    await handle.wait_for(lambda h: h.records or None)
    [record] = handle.records
    assert (record.status, record.response["code"]) == (404, 10062)
    assert record.elapsed > 0.1
    assert kinds(scene.fake) == ["unknown_interaction"]


async def test_message_that_would_ping_is_flagged(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    quiet = await fake.slash(scene.alice, "post", {"text": "hi @everyone"}, channel=scene.channel)
    await quiet.final_message()
    assert (await fake.wait_for_channel_message(scene.channel))["content"] == "hi @everyone"
    assert fake.violations == []  # allowed_mentions {"parse": []}: nobody is notified
    loud = await fake.slash(
        scene.alice,
        "post",
        {"text": f"hey {scene.alice.mention}", "loud": True},
        channel=scene.channel,
    )
    await loud.final_message()
    await fake.wait_for_channel_message(scene.channel)
    assert fake.sent_messages[-1].pings == [f"user {scene.alice.id}"]
    assert kinds(fake) == ["ping"]


async def test_invalid_command_registration_is_rejected(scene: Scene, bot: TinyBot) -> None:
    assert bot.application_id is not None
    bad: list[dict[str, Any]] = [
        {"name": "Define", "description": "uppercase", "type": 1},
        {"name": "ok", "description": "", "type": 1},
        {
            "name": "opts",
            "description": "optional before required",
            "options": [
                {"type": 3, "name": "a", "description": "a"},
                {"type": 3, "name": "b", "description": "b", "required": True},
            ],
        },
        {"name": "Menu", "description": "context menus have none", "type": 3},
    ]
    with pytest.raises(discord.HTTPException) as caught:
        await bot.http.bulk_upsert_global_commands(bot.application_id, bad)
    errors = caught.value.response.status, caught.value.code
    assert errors == (400, 50035)
    assert kinds(scene.fake) == ["invalid_form_body"]
    assert "define" in [c["name"] for c in scene.fake.commands()]  # the old set is kept


async def test_bad_token_gets_401_and_login_failure(fake_discord: FakeDiscord) -> None:
    client = discord.Client(intents=discord.Intents.default())
    with pytest.raises(discord.LoginFailure) as caught:
        await client.login("not-the-token")
    await client.close()
    assert fake_discord.requests == [("GET", "/api/v10/users/@me")]
    unauthorized = caught.value.__cause__
    assert isinstance(unauthorized, discord.HTTPException)
    assert (unauthorized.status, unauthorized.code, unauthorized.text) == (
        401,
        0,
        "401: Unauthorized",
    )


async def test_unknown_route_is_recorded(scene: Scene, bot: TinyBot) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/voice/regions"))
    assert scene.fake.unknown_routes == ["GET /api/v10/voice/regions"]
    assert kinds(scene.fake) == ["unknown_route"]


async def test_edit_after_the_token_expired_is_refused(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    handle = await fake.slash(scene.alice, "slow", {"term": "rope"}, channel=scene.channel)
    assert (await handle.response())["type"] == 5
    fake.followup_window = 0.0  # as if the 15 minutes had passed
    bot.slow_release.set()
    await handle.wait_for(lambda h: len(h.records) == 2 or None)
    assert (handle.records[1].status, handle.records[1].response["code"]) == (401, 50027)
    async with asyncio.timeout(5):
        assert isinstance(await bot.errors.get(), discord.HTTPException)
    assert kinds(fake) == ["unknown_webhook"]
