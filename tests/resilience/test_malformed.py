"""Interactions Discord should never send, or sends when its idea of the commands is out of date:
a missing option, an unknown command, wrong option types, no subcommand, autocomplete without a
focused option, a message command without its message, a button no handler knows. Each is logged
and, where Discord expects an answer, answered clearly and privately; the bot carries on."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest

from bot.discord_app.app import OUTDATED_COMPONENT, GlossaryBot
from bot.discord_app.errors import STALE_COMMAND
from tests.discord_app.helpers import define, embed_of, is_ephemeral
from tests.fake_discord.interactions import base_payload

from .conftest import Scene

JSON = dict[str, Any]
COMMAND, COMPONENT, AUTOCOMPLETE = 2, 3, 4
ERROR_ID = re.compile(r"Something went wrong on my side \(error id `([0-9a-f]{8})`\)")
UNKNOWN_ID = "123456789012345678"


def command_id(scene: Scene, name: str, kind: int = 1) -> str:
    found = scene.fake.registry.find(name, kind, None)
    assert found is not None
    return str(found["id"])


def data_for(scene: Scene, case: str) -> JSON:
    define_id = command_id(scene, "define")
    return {
        "missing option": {"id": define_id, "name": "define", "type": 1, "options": []},
        "unknown command": {"id": UNKNOWN_ID, "name": "frobnicate", "type": 1, "options": []},
        "no subcommand": {"id": command_id(scene, "alias"), "name": "alias", "type": 1},
        "wrong option types": {
            "id": define_id,
            "name": "define",
            "type": 1,
            "options": [
                {"name": "term", "type": 4, "value": 42},
                {"name": "private", "type": 3, "value": "yes"},
            ],
        },
        "message command without its message": {
            "id": command_id(scene, "Explain terms", 3),
            "name": "Explain terms",
            "type": 3,
            "target_id": UNKNOWN_ID,
        },
    }[case]


async def still_answers(scene: Scene) -> None:
    _, card = await define(scene.fake, scene.alice, "kv cache", scene.channel)
    assert embed_of(card)["title"] == "KV Cache"


@pytest.mark.parametrize(
    ("case", "answer"),
    [
        ("missing option", STALE_COMMAND),
        ("unknown command", STALE_COMMAND),
        ("no subcommand", STALE_COMMAND),
        ("wrong option types", ERROR_ID),
        ("message command without its message", ERROR_ID),
    ],
)
async def test_a_malformed_command_is_answered_and_logged(
    scene: Scene,
    bot: GlossaryBot,
    caplog: pytest.LogCaptureFixture,
    case: str,
    answer: str | re.Pattern[str],
) -> None:
    fake = scene.fake
    caplog.set_level(logging.WARNING, logger="bot")
    payload = base_payload(
        fake.world,
        kind=COMMAND,
        data=data_for(scene, case),
        user=scene.moderator,
        channel=scene.channel,
    )
    handle = await fake.raw_interaction(payload)
    message = await handle.final_message()
    assert is_ephemeral(message)
    content = message["content"]
    if isinstance(answer, str):
        assert content == answer
    else:
        found = answer.search(content)
        assert found, content
        assert any(found.group(1) in r.getMessage() and r.exc_info for r in caplog.records)
    assert any(str(handle.id) in r.getMessage() for r in caplog.records)  # logged, with its id
    await still_answers(scene)


@pytest.mark.parametrize("case", ["no focused option", "unknown command"])
async def test_malformed_autocomplete_gets_an_empty_list(
    scene: Scene, bot: GlossaryBot, caplog: pytest.LogCaptureFixture, case: str
) -> None:
    fake = scene.fake
    caplog.set_level(logging.WARNING, logger="bot")
    typed = {"name": "term", "type": 3, "value": "kv"}
    data = {
        "no focused option": {
            "id": command_id(scene, "define"),
            "name": "define",
            "type": 1,
            "options": [typed],
        },
        "unknown command": {
            "id": UNKNOWN_ID,
            "name": "frobnicate",
            "type": 1,
            "options": [{**typed, "focused": True}],
        },
    }[case]
    payload = base_payload(
        fake.world, kind=AUTOCOMPLETE, data=data, user=scene.alice, channel=scene.channel
    )
    handle = await fake.raw_interaction(payload)
    assert await handle.choices() == []  # not Discord's "Loading options failed"
    assert any(str(handle.id) in r.getMessage() for r in caplog.records)
    await still_answers(scene)


async def test_a_button_no_handler_knows_is_answered(
    scene: Scene, bot: GlossaryBot, caplog: pytest.LogCaptureFixture
) -> None:
    fake = scene.fake
    caplog.set_level(logging.WARNING, logger="bot")
    _, card = await define(fake, scene.alice, "kv cache", scene.channel)
    for custom_id in ("gb:open:kv-cache", "gb:flip:kv-cache:1", "something-else"):
        payload = base_payload(
            fake.world,
            kind=COMPONENT,
            data={"custom_id": custom_id, "component_type": 2},
            user=scene.alice,
            channel=scene.channel,
            message=card,
        )
        handle = await fake.raw_interaction(payload, target_message_id=int(card["id"]))
        message = await handle.final_message()
        assert is_ephemeral(message)
        assert message["content"] == OUTDATED_COMPONENT
        assert any(repr(custom_id) in r.getMessage() for r in caplog.records)
    assert fake.message(int(card["id"])) == card  # the card itself is left as it was
    await still_answers(scene)


async def test_an_interaction_of_an_unknown_type_is_ignored(scene: Scene, bot: GlossaryBot) -> None:
    fake = scene.fake
    payload = base_payload(fake.world, kind=99, data={}, user=scene.alice, channel=scene.channel)
    handle = await fake.raw_interaction(payload)
    await still_answers(scene)
    assert handle.records == []  # nothing to answer with: Discord sends no such type
