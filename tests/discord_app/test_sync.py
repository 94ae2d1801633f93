"""Login and command sync: what a server's members see in the command picker."""

from __future__ import annotations

import re

from bot.discord_app.app import GlossaryBot
from tests.fake_discord.gateway import PRIVILEGED_INTENTS

from .conftest import Scene

NAME = re.compile(r"^[-_\w]{1,32}$")
MANAGE_SERVER = 1 << 5
CHAT_INPUT, MESSAGE_COMMAND = 1, 3
GUILD, BOT_DM = 0, 1


def _check_options(options: list[dict[str, object]], where: str) -> None:
    assert len(options) <= 25, where
    required_seen_optional = False
    for option in options:
        name, description = str(option["name"]), str(option["description"])
        assert NAME.match(name), f"{where}: option {name!r}"
        assert name == name.lower(), f"{where}: option {name!r}"
        assert 1 <= len(description) <= 100, f"{where} {name}: description {description!r}"
        if option["type"] in (1, 2):  # subcommand (group)
            _check_options(option.get("options") or [], f"{where} {name}")  # type: ignore[arg-type]
        elif option.get("required"):
            assert not required_seen_optional, f"{where}: required option {name} after optional"
        else:
            required_seen_optional = True


async def test_login_syncs_valid_commands(scene: Scene, bot: GlossaryBot) -> None:
    fake = scene.fake
    assert bot.user is not None
    assert bot.user.id == fake.bot.id
    assert fake.gateway.identify_count == 1
    assert not fake.gateway.intents & PRIVILEGED_INTENTS  # no privileged intents asked for
    assert bot.get_guild(scene.guild.id) is not None

    commands = {(c["type"], c["name"]): c for c in fake.commands()}
    assert set(commands) == {
        (CHAT_INPUT, "define"),
        (CHAT_INPUT, "alias"),
        (CHAT_INPUT, "term"),
        (CHAT_INPUT, "suggest"),
        (CHAT_INPUT, "glossary"),
        (CHAT_INPUT, "stats"),
        (MESSAGE_COMMAND, "Explain terms"),
    }
    for (kind, name), command in commands.items():
        if kind == CHAT_INPUT:
            assert NAME.match(name)
            assert name == name.lower()
            assert 1 <= len(command["description"]) <= 100
            _check_options(command["options"], f"/{name}")
        else:
            assert command["description"] == ""
            assert not command["options"]

    define = commands[(CHAT_INPUT, "define")]
    term, private = define["options"]
    assert (term["name"], term["type"], term["required"], term["autocomplete"]) == (
        "term",
        3,
        True,
        True,
    )
    assert (private["name"], private["type"], private.get("required", False)) == (
        "private",
        5,
        False,
    )
    assert define["default_member_permissions"] is None
    assert BOT_DM in define["contexts"]  # /define works in DMs

    alias = commands[(CHAT_INPUT, "alias")]
    assert alias["default_member_permissions"] == str(MANAGE_SERVER)
    assert alias["contexts"] == [GUILD]  # a server's aliases make no sense in a DM
    assert {o["name"] for o in alias["options"]} == {"add", "remove", "list"}

    glossary = commands[(CHAT_INPUT, "glossary")]
    assert {o["name"] for o in glossary["options"]} == {"about"}
    assert glossary["default_member_permissions"] is None  # about is for everyone

    stats = commands[(CHAT_INPUT, "stats")]
    assert stats["default_member_permissions"] == str(MANAGE_SERVER)  # Discord enforces it
    assert stats["contexts"] == [GUILD]

    explain = commands[(MESSAGE_COMMAND, "Explain terms")]
    assert BOT_DM in explain["contexts"]
