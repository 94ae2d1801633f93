"""Modals through the real discord.py client: opened from a command or a button, submitted as
Discord submits them, and refused where Discord refuses them."""

from __future__ import annotations

import asyncio

import discord
import pytest

from tests.fake_discord import FakeDiscord, InteractionHandle

from .conftest import Scene
from .tiny_bot import TinyBot

TERM = {
    "name": "KV cache",
    "definition": "Keys and values kept between decoding steps.\n" * 80,  # 3,680 characters
    "boundary": "Not a key-value store.",
    "related": "attention",
}


async def test_five_field_modal_round_trip(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    opened = await fake.slash(scene.moderator, "term_add", channel=scene.channel)
    body = await opened.response()
    assert body["type"] == 9
    assert body["data"]["title"] == "Add a term"
    assert len(body["data"]["components"]) == 5
    submitted = await fake.submit_modal(scene.moderator, opened, TERM)
    assert (await submitted.final_message())["content"] == "added KV cache"
    async with asyncio.timeout(5):
        values = await bot.submitted.get()
    # The untouched input submits its prefilled value, as Discord does.
    assert values == {**TERM, "aliases": "kvc"}


async def test_submit_is_shaped_as_discord_sends_it(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    opened = await fake.slash(scene.moderator, "term_add", channel=scene.channel)
    await opened.response()
    submitted = await fake.submit_modal(scene.moderator, opened, TERM)
    await submitted.final_message()
    payload = submitted.payload
    assert payload["type"] == 5
    data = payload["data"]
    assert data["custom_id"] == "term:add"
    first_row = data["components"][0]
    assert first_row == {
        "type": 1,
        "id": 1,
        "components": [{"type": 4, "id": 2, "custom_id": "name", "value": "KV cache"}],
    }
    ids = [c["id"] for row in data["components"] for c in (row, *row["components"])]
    assert ids == list(range(1, 11))
    assert payload["member"]["user"]["id"] == str(scene.moderator.id)


async def test_button_opens_a_modal_and_the_submit_carries_the_message(
    scene: Scene, bot: TinyBot
) -> None:
    fake = scene.fake
    message = await (
        await fake.slash(scene.alice, "suggest", channel=scene.channel)
    ).final_message()
    click = await fake.click(scene.alice, message, "suggest")
    assert (await click.response())["type"] == 9
    submitted = await fake.submit_modal(scene.alice, click, {"name": "rope", "definition": "d"})
    assert (await submitted.final_message())["content"] == "added rope"
    assert submitted.payload["message"]["id"] == message["id"]


async def test_submitting_twice_gives_two_interactions(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake  # a double click on Submit
    opened = await fake.slash(scene.moderator, "term_add", channel=scene.channel)
    await opened.response()
    first = await fake.submit_modal(scene.moderator, opened, TERM)
    second = await fake.submit_modal(scene.moderator, opened, TERM)
    assert first.id != second.id
    await first.final_message()
    await second.final_message()
    async with asyncio.timeout(5):
        assert [await bot.submitted.get(), await bot.submitted.get()] == [
            {**TERM, "aliases": "kvc"}
        ] * 2


async def test_what_a_user_could_not_submit_is_refused_before_sending(
    scene: Scene, bot: TinyBot
) -> None:
    fake = scene.fake
    opened = await fake.slash(scene.moderator, "term_add", channel=scene.channel)
    await opened.response()
    with pytest.raises(ValueError, match="no inputs"):
        await fake.submit_modal(scene.moderator, opened, {"colour": "red"})
    with pytest.raises(ValueError, match="required"):
        await fake.submit_modal(scene.moderator, opened, {"name": "x"})  # definition missing
    with pytest.raises(ValueError, match="4000"):
        await fake.submit_modal(scene.moderator, opened, {**TERM, "definition": "d" * 4001})
    with pytest.raises(ValueError, match=r"2\.\.4000"):
        await fake.submit_modal(scene.moderator, opened, {**TERM, "related": "a"})
    with pytest.raises(ValueError, match="single-line"):
        await fake.submit_modal(scene.moderator, opened, {**TERM, "name": "two\nlines"})
    define = await fake.slash(scene.alice, "define", {"term": "kv"}, channel=scene.channel)
    await define.final_message()
    with pytest.raises(ValueError, match="not answered with a modal"):
        await fake.submit_modal(scene.alice, define, {})


# --- rejections -----------------------------------------------------------------------------


async def discord_refused(bot: TinyBot, fake: FakeDiscord, code: int, violation: str) -> None:
    """The bot got Discord's error ``code`` back, and the fake recorded one ``violation``."""
    async with asyncio.timeout(5):
        error = await bot.errors.get()
    assert isinstance(error, discord.HTTPException)
    assert (error.status, error.code) == (400, code)
    assert [v.kind for v in fake.pop_violations()] == [violation]


def form_errors(handle: InteractionHandle) -> dict[str, object]:
    """The nested ``errors`` of the 50035 Invalid Form Body the bot's last callback got."""
    body = handle.records[-1].response
    assert isinstance(body, dict)
    assert (body["code"], body["message"]) == (50035, "Invalid Form Body")
    errors = body["errors"]
    assert isinstance(errors, dict)
    return errors


def error_at(code: str, message: str) -> dict[str, object]:
    return {"_errors": [{"code": code, "message": message}]}


async def test_overlong_modal_title_is_rejected(scene: Scene, bot: TinyBot) -> None:
    handle = await scene.fake.slash(scene.alice, "long_title", channel=scene.channel)
    await discord_refused(bot, scene.fake, 50035, "invalid_form_body")
    message = "Must be between 1 and 45 in length."
    assert form_errors(handle)["data"] == {"title": error_at("BASE_TYPE_BAD_LENGTH", message)}
    assert not handle.acknowledged


async def test_six_inputs_are_rejected(scene: Scene, bot: TinyBot) -> None:
    handle = await scene.fake.slash(scene.alice, "six_inputs", channel=scene.channel)
    await discord_refused(bot, scene.fake, 50035, "invalid_form_body")
    message = "Must be between 1 and 5."
    assert form_errors(handle)["data"] == {"components": error_at("BASE_TYPE_BAD_LENGTH", message)}


async def test_modal_after_defer_is_already_acknowledged(scene: Scene, bot: TinyBot) -> None:
    handle = await scene.fake.slash(scene.alice, "defer_then_modal", channel=scene.channel)
    await discord_refused(bot, scene.fake, 40060, "already_acknowledged")
    assert [(r.kind, r.status) for r in handle.records] == [("callback", 200), ("callback", 400)]
    assert handle.callback is not None
    assert handle.callback["type"] == 5  # the defer stands


async def test_modal_in_answer_to_autocomplete_is_rejected(scene: Scene, bot: TinyBot) -> None:
    handle = await scene.fake.autocomplete(
        scene.alice, "modal_complete", {"q": "k"}, focused="q", channel=scene.channel
    )
    await discord_refused(bot, scene.fake, 50035, "invalid_form_body")
    message = "Callback type 9 is invalid for interaction type 4"
    assert form_errors(handle)["type"] == error_at("INTERACTION_CALLBACK_TYPE_INVALID", message)


async def test_modal_in_answer_to_a_modal_submit_is_rejected(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    opened = await fake.slash(scene.alice, "modal_again", channel=scene.channel)
    await opened.response()
    submitted = await fake.submit_modal(scene.alice, opened, {"note": "hi"})
    await submitted.wait_for(lambda h: h.records or None)
    message = "Callback type 9 is invalid for interaction type 5"
    assert form_errors(submitted)["type"] == error_at("INTERACTION_CALLBACK_TYPE_INVALID", message)
    assert not submitted.acknowledged
    assert [v.kind for v in fake.pop_violations()] == ["invalid_form_body"]
