"""Application command permission overrides (Server Settings > Integrations), kept per guild.

Discord's shapes: a guild holds one ``GuildApplicationCommandPermissions`` object
``{id, application_id, guild_id, permissions: [{id, type, permission}]}`` per command that has
overrides, plus one whose ``id`` is the application id (application-wide, for every command).
Targets: ROLE (1; @everyone is the guild id), USER (2), CHANNEL (3; "all channels" is
``guild_id - 1``). Which override decides, as Discord documents it: command-level before
application-level; within a level the channel gate (this channel, then all channels), then the
member (user, then any of their roles, allow winning over deny, then @everyone); administrators
are never refused; with no member override, ``default_member_permissions`` decides.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from .models import ADMINISTRATOR, FakeChannel, FakeGuild, FakeRole, FakeUser

JSON = dict[str, Any]
ROLE, USER, CHANNEL = 1, 2, 3
MAX_OVERRIDES = 100  # per command, as Discord caps them
Target = FakeRole | FakeUser | FakeChannel


def override(target: Target | int, allow: bool, *, kind: int | None = None) -> JSON:
    """One override as Discord stores it: ``override(mods_role, True)``, ``override(user,
    False)``, ``override(all_channels(guild), False, kind=CHANNEL)``."""
    if isinstance(target, int):
        if kind is None:
            raise ValueError("a bare id needs kind= (ROLE, USER or CHANNEL)")
        return {"id": str(target), "type": kind, "permission": allow}
    found = (
        ROLE if isinstance(target, FakeRole) else USER if isinstance(target, FakeUser) else CHANNEL
    )
    return {"id": str(target.id), "type": found, "permission": allow}


def all_channels(guild: FakeGuild) -> int:
    """The id Discord uses for "all channels" in a guild."""
    return guild.id - 1


class CommandPermissions:
    """Every guild's overrides, keyed by (guild id, command id or application id)."""

    def __init__(self, application_id: int) -> None:
        self.application_id = application_id
        self._entries: dict[tuple[int, int], list[JSON]] = {}

    def set(self, guild_id: int, target_id: int, overrides: Sequence[Mapping[str, Any]]) -> JSON:
        """Replace the overrides of one command (or, with the application id, of the whole
        application) in one guild, as a PUT does; an empty list removes them."""
        if len(overrides) > MAX_OVERRIDES:
            raise ValueError(f"Discord allows at most {MAX_OVERRIDES} overrides per command")
        kept = [
            {"id": str(o["id"]), "type": int(o["type"]), "permission": bool(o["permission"])}
            for o in overrides
        ]
        if kept:
            self._entries[(guild_id, target_id)] = kept
        else:
            self._entries.pop((guild_id, target_id), None)
        return self._payload(guild_id, target_id, kept)

    def get(self, guild_id: int, target_id: int) -> JSON | None:
        kept = self._entries.get((guild_id, target_id))
        return None if kept is None else self._payload(guild_id, target_id, kept)

    def listing(self, guild_id: int) -> list[JSON]:
        return [
            self._payload(g, t, kept) for (g, t), kept in self._entries.items() if g == guild_id
        ]

    def _payload(self, guild_id: int, target_id: int, kept: list[JSON]) -> JSON:
        return {
            "id": str(target_id),
            "application_id": str(self.application_id),
            "guild_id": str(guild_id),
            "permissions": copy.deepcopy(kept),
        }

    def decision(
        self,
        command: Mapping[str, Any],
        guild: FakeGuild,
        user_id: int,
        channel: FakeChannel,
        permissions: int,
    ) -> tuple[bool, str] | None:
        """(allowed, why) if an override (or being an administrator) decides whether this member
        may use this command here; None if none does, and ``default_member_permissions`` decides."""
        if permissions & ADMINISTRATOR:
            return True, "administrators may use every command"
        levels = [
            self._entries.get((guild.id, int(command["id"])), []),
            self._entries.get((guild.id, self.application_id), []),
        ]
        places = _verdicts(levels, [(CHANNEL, [channel.id]), (CHANNEL, [all_channels(guild)])])
        if next(places, True) is False:
            return False, f"an override denies the command in channel {channel.id}"
        member = guild.members.get(user_id)
        roles = [] if member is None else member.role_ids
        who = _verdicts(levels, [(USER, [user_id]), (ROLE, roles), (ROLE, [guild.id])])
        verdict = next(who, None)
        if verdict is None:
            return None
        return verdict, f"an override {'allows' if verdict else 'denies'} the command to {user_id}"


def _verdicts(
    levels: Iterable[list[JSON]], targets: Sequence[tuple[int, Sequence[int]]]
) -> Iterator[bool]:
    """Each override verdict in precedence order: level by level, target by target (among a
    member's several roles, any allow wins)."""
    for level in levels:
        for kind, ids in targets:
            wanted = {str(i) for i in ids}
            found = [o["permission"] for o in level if o["type"] == kind and o["id"] in wanted]
            if found:
                yield any(found)
