"""/glossary about, and what a user sees when something breaks inside the bot."""

from __future__ import annotations

import logging
import re

import pytest

from bot import __version__
from bot.discord_app import replies
from bot.discord_app.app import GlossaryBot
from bot.glossary import Glossary

from .conftest import Scene
from .helpers import buttons, define, embed_of, fields, is_ephemeral

ERROR = re.compile(r"Something went wrong on my side \(error id `([0-9a-f]{8})`\)")


async def test_about_names_the_version_sources_and_how_to_report(
    scene: Scene, bot: GlossaryBot, glossary: Glossary
) -> None:
    handle = await scene.fake.slash(scene.alice, "glossary about", channel=scene.channel)
    message = await handle.final_message()
    assert is_ephemeral(message)
    assert __version__ in embed_of(message)["footer"]["text"]
    about = fields(message)
    counts = about[f"{len(glossary)} entries from {len(glossary.sources)} sources"]
    for source in glossary.sources:
        assert f"{source.name}: " in counts
    assert "/alias add" in about["Missing a term?"]


async def test_an_error_gets_an_id_and_the_bot_keeps_answering(
    scene: Scene,
    bot: GlossaryBot,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("index exploded")

    with monkeypatch.context() as patch:
        patch.setattr(bot.state.index, "search", broken)
        with caplog.at_level(logging.ERROR):
            _, message = await define(scene.fake, scene.alice, "kv cache", scene.channel)
    assert is_ephemeral(message)
    match = ERROR.search(message["content"])
    assert match is not None, message["content"]
    assert "index exploded" not in message["content"]  # no traceback for the user
    logged = [r for r in caplog.records if match.group(1) in r.getMessage()]
    assert logged
    assert logged[0].exc_info is not None

    _, card = await define(scene.fake, scene.alice, "kv cache", scene.channel)
    assert embed_of(card)["title"] == "KV Cache"


async def test_an_error_in_a_button_is_answered_too(
    scene: Scene, bot: GlossaryBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = scene.fake
    _, card = await define(fake, scene.alice, "kv cache", scene.channel)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("renderer exploded")

    with monkeypatch.context() as patch:
        patch.setattr(replies, "render_card", broken)
        click = await fake.click(scene.alice, card, buttons(card)["PagedAttention"])
        message = await click.final_message()
    assert is_ephemeral(message)
    assert ERROR.search(message["content"])
    assert fake.message(int(card["id"])) == card

    again = await fake.click(scene.alice, card, buttons(card)["PagedAttention"])
    assert embed_of(await again.final_message())["title"] == "PagedAttention"


async def test_an_error_answering_a_mention_is_a_quiet_reply(
    scene: Scene, bot: GlossaryBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = scene.fake

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("index exploded")

    with monkeypatch.context() as patch:
        patch.setattr(bot.state.index, "search", broken)
        await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} kv cache")
        reply = await fake.wait_for_channel_message(scene.channel)
    assert ERROR.search(reply["content"])
    assert fake.sent_messages[-1].pings == []
