"""Registered application commands (global and per guild) and who may see them."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from .models import ALL_PERMISSIONS, new_snowflake

JSON = dict[str, Any]
Scope = int | None  # None: global, else a guild id

CHAT_INPUT = 1
GUILD_CONTEXT, BOT_DM_CONTEXT = 0, 1


class CommandRegistry:
    def __init__(self, application_id: int) -> None:
        self.application_id = application_id
        self._commands: dict[Scope, list[JSON]] = {None: []}
        self.sync_counts: dict[Scope, int] = {}

    def listing(self, scope: Scope) -> list[JSON]:
        return copy.deepcopy(self._commands.get(scope, []))

    def overwrite(self, scope: Scope, commands: list[Mapping[str, Any]]) -> list[JSON]:
        """A bulk PUT: the new list replaces the old; unchanged (type, name) keep their ids."""
        old = {(c["type"], c["name"]): c["id"] for c in self._commands.get(scope, [])}
        stored = [self._normalise(scope, c, old) for c in commands]
        self._commands[scope] = stored
        self.sync_counts[scope] = self.sync_counts.get(scope, 0) + 1
        return copy.deepcopy(stored)

    def upsert(self, scope: Scope, command: Mapping[str, Any]) -> JSON:
        existing = self._commands.setdefault(scope, [])
        old = {(c["type"], c["name"]): c["id"] for c in existing}
        stored = self._normalise(scope, command, old)
        key = (stored["type"], stored["name"])
        self._commands[scope] = [c for c in existing if (c["type"], c["name"]) != key] + [stored]
        return copy.deepcopy(stored)

    def get(self, scope: Scope, command_id: int) -> JSON | None:
        for command in self._commands.get(scope, []):
            if int(command["id"]) == command_id:
                return command
        return None

    def delete(self, scope: Scope, command_id: int) -> bool:
        before = self._commands.get(scope, [])
        self._commands[scope] = [c for c in before if int(c["id"]) != command_id]
        return len(before) != len(self._commands[scope])

    def find(self, name: str, kind: int, guild_id: int | None) -> JSON | None:
        """The command a user would see under this name: a guild's own first, then global."""
        scopes: list[Scope] = [guild_id, None] if guild_id is not None else [None]
        for scope in scopes:
            for command in self._commands.get(scope, []):
                if command["name"] == name and command["type"] == kind:
                    return command
        return None

    def _normalise(self, scope: Scope, command: Mapping[str, Any], ids: Mapping[Any, str]) -> JSON:
        kind = int(command.get("type", CHAT_INPUT))
        stored: JSON = copy.deepcopy(dict(command))
        permissions = command.get("default_member_permissions")
        stored.update(
            id=ids.get((kind, command.get("name")), str(new_snowflake())),
            application_id=str(self.application_id),
            type=kind,
            description=command.get("description") or "",
            options=copy.deepcopy(list(command.get("options") or [])),
            default_member_permissions=None if permissions is None else str(permissions),
            version=str(new_snowflake()),
        )
        stored.setdefault("nsfw", False)
        stored.setdefault("dm_permission", True)
        if scope is not None:
            stored["guild_id"] = str(scope)
        return stored


def refusal(
    command: Mapping[str, Any],
    *,
    permissions: int | None,
    overridden: tuple[bool, str] | None = None,
) -> str | None:
    """Why Discord would not offer this command to the user, or None if it would.

    ``permissions`` is the member's guild permissions, or None in a DM. ``overridden``: what
    the guild's command permission overrides decided for this member, if they decided
    (``CommandPermissions.decision``); they take the place of ``default_member_permissions``.
    """
    contexts = command.get("contexts")
    if permissions is None:
        if command.get("guild_id") is not None:
            return "guild commands are not offered in DMs"
        if command.get("dm_permission") is False or (
            contexts is not None and BOT_DM_CONTEXT not in contexts
        ):
            return "command is not allowed in DMs"
        return None
    if contexts is not None and GUILD_CONTEXT not in contexts:
        return "command is not allowed in guilds"
    if overridden is not None:
        allowed, why = overridden
        return None if allowed else why
    required = command.get("default_member_permissions")
    if required is None:
        return None
    needed = int(required)
    # "0" hides the command from everyone but administrators (who have every bit).
    if needed == 0 and permissions != ALL_PERMISSIONS:
        return "command is limited to administrators (default_member_permissions=0)"
    if permissions & needed != needed:
        return f"member lacks default_member_permissions {needed} (has {permissions})"
    return None
