"""`may_use`: Discord's precedence for command permission overrides, case by case.

From Discord's documentation of application command permissions: administrators may use every
command; command-level overrides come before application-level ones; within a level a
channel's own override before the "all channels" one (guild id - 1), and the user's own before
their roles' (any allowed role wins) before @everyone's (guild id); a member no override names
gets the command's default member permissions ("0": administrators only).
"""

from __future__ import annotations

import discord
import pytest

from bot.discord_app.command_permissions import (
    Asker,
    Override,
    TargetType,
    may_use,
    parse_overrides,
)

GUILD, USER, MODS, HELPERS, CHANNEL, OTHER_CHANNEL = 1000, 2001, 3001, 3002, 4001, 4002
ALL_CHANNELS, EVERYONE = GUILD - 1, GUILD
MANAGE = discord.Permissions(manage_guild=True)
PLAIN = discord.Permissions(send_messages=True)


def asker(
    perms: discord.Permissions = PLAIN, roles: tuple[int, ...] = (), channel: int = CHANNEL
) -> Asker:
    return Asker(GUILD, USER, frozenset(roles), channel, perms)


def user(allow: bool, target: int = USER) -> Override:
    return Override(target, TargetType.USER, allow)


def role(target: int, allow: bool) -> Override:
    return Override(target, TargetType.ROLE, allow)


def channel(target: int, allow: bool) -> Override:
    return Override(target, TargetType.CHANNEL, allow)


@pytest.mark.parametrize(
    ("who", "default", "command", "app", "expected"),
    [
        # No overrides: the default member permissions.
        (asker(MANAGE), MANAGE, [], [], True),
        (asker(PLAIN), MANAGE, [], [], False),
        (asker(PLAIN), None, [], [], True),
        (asker(MANAGE), discord.Permissions(0), [], [], False),  # "0": administrators only
        (asker(discord.Permissions(administrator=True)), discord.Permissions(0), [], [], True),
        # Administrators are never refused, whatever the overrides.
        (
            asker(discord.Permissions(administrator=True)),
            MANAGE,
            [user(False), channel(CHANNEL, False)],
            [],
            True,
        ),
        # A member's override replaces the default, both ways.
        (asker(MANAGE), MANAGE, [user(False)], [], False),
        (asker(PLAIN, roles=(HELPERS,)), MANAGE, [role(HELPERS, True)], [], True),
        (asker(PLAIN), MANAGE, [role(EVERYONE, True)], [], True),
        (asker(MANAGE), MANAGE, [role(EVERYONE, False)], [], False),
        # Someone else's override says nothing about this member.
        (asker(MANAGE), MANAGE, [user(False, target=9999), role(HELPERS, True)], [], True),
        # User before roles before @everyone.
        (asker(PLAIN, roles=(HELPERS,)), MANAGE, [role(HELPERS, True), user(False)], [], False),
        (asker(MANAGE, roles=(MODS,)), MANAGE, [role(MODS, False), user(True)], [], True),
        (
            asker(PLAIN, roles=(HELPERS,)),
            MANAGE,
            [role(EVERYONE, False), role(HELPERS, True)],
            [],
            True,
        ),
        (
            asker(MANAGE, roles=(MODS,)),
            MANAGE,
            [role(EVERYONE, True), role(MODS, False)],
            [],
            False,
        ),
        # Among several roles, an allowed one wins.
        (
            asker(PLAIN, roles=(MODS, HELPERS)),
            MANAGE,
            [role(MODS, False), role(HELPERS, True)],
            [],
            True,
        ),
        # Command level before application level, for members and for channels.
        (asker(PLAIN), MANAGE, [role(EVERYONE, True)], [user(False)], True),
        (asker(MANAGE), MANAGE, [], [user(False)], False),
        (asker(PLAIN), MANAGE, [], [role(EVERYONE, True)], True),
        (asker(MANAGE), MANAGE, [channel(CHANNEL, True)], [channel(CHANNEL, False)], True),
        (asker(MANAGE), MANAGE, [channel(ALL_CHANNELS, True)], [channel(CHANNEL, False)], True),
        (asker(MANAGE), MANAGE, [], [channel(ALL_CHANNELS, False)], False),
        # Within a level, this channel before all channels.
        (asker(MANAGE), MANAGE, [channel(ALL_CHANNELS, False), channel(CHANNEL, True)], [], True),
        (asker(MANAGE), MANAGE, [channel(ALL_CHANNELS, True), channel(CHANNEL, False)], [], False),
        (
            asker(MANAGE, channel=OTHER_CHANNEL),
            MANAGE,
            [channel(ALL_CHANNELS, False), channel(CHANNEL, True)],
            [],
            False,
        ),
        # An allowed channel lets the member question through; it does not grant the command.
        (asker(PLAIN), MANAGE, [channel(CHANNEL, True)], [], False),
        (asker(MANAGE), MANAGE, [channel(CHANNEL, True), user(False)], [], False),
        # A denied channel stops even a member allowed by name.
        (asker(PLAIN), MANAGE, [channel(CHANNEL, False), user(True)], [], False),
    ],
)
def test_discords_precedence(
    who: Asker,
    default: discord.Permissions | None,
    command: list[Override],
    app: list[Override],
    expected: bool,
) -> None:
    assert may_use(who, default, command, app) is expected


def test_discords_payloads_are_read_by_command() -> None:
    payloads = [
        {
            "id": "77",
            "application_id": "55",
            "guild_id": str(GUILD),
            "permissions": [
                {"id": str(USER), "type": 2, "permission": False},
                {"id": str(ALL_CHANNELS), "type": 3, "permission": True},
                {"id": "1", "type": 9, "permission": True},  # a type this bot does not know
            ],
        },
        {"id": "55", "application_id": "55", "guild_id": str(GUILD), "permissions": []},
    ]
    assert parse_overrides(payloads) == {
        77: [user(False), channel(ALL_CHANNELS, True)],
        55: [],
    }
