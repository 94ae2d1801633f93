"""Who may use a command, as Discord decides it: for the menus that act like one.

Discord enforces a command's permissions only when the command is invoked: server admins set
overrides in Server Settings > Integrations (per command, or for the whole application; for
roles, users and channels) on top of its default member permissions. A button or menu carries
none of that, so one that does what a command does (the /stats menu adds an alias) asks here.

`may_use` is the rule, a pure function; `CommandAccess` feeds it each server's overrides,
fetched once and kept briefly, forgotten when Discord says they changed. If they cannot be
read, it falls back to the default member permissions alone (and logs that once).
"""

from __future__ import annotations

import asyncio
import enum
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord

from bot.once import OncePerReason

log = logging.getLogger(__name__)

CACHE_SECONDS = 60.0  # overrides changed meanwhile arrive as a gateway event anyway
FETCH_TIMEOUT = 2.0


class TargetType(enum.IntEnum):
    ROLE = 1  # @everyone: the guild's id
    USER = 2
    CHANNEL = 3  # "all channels": the guild's id - 1


@dataclass(frozen=True)
class Override:
    target_id: int
    type: TargetType
    allow: bool


@dataclass(frozen=True)
class Asker:
    """Who wants to use the command, and where."""

    guild_id: int
    user_id: int
    role_ids: frozenset[int]
    channel_id: int  # a thread's parent: threads follow their channel's overrides
    permissions: discord.Permissions  # theirs, in that channel


def may_use(
    asker: Asker,
    default_permissions: discord.Permissions | None,
    command_overrides: Sequence[Override] = (),
    app_overrides: Sequence[Override] = (),
) -> bool:
    """Discord's rule. Administrators always may. Otherwise the channel, then the member:
    each decided by the first override that names them, command-level before application-level,
    and within a level this channel before all channels, the user before their roles (any role
    allowed wins) before @everyone. A channel allowed still leaves the member to decide; a
    member no override names gets the command's default member permissions."""
    if asker.permissions.administrator:
        return True
    levels = (command_overrides, app_overrides)
    channels = (
        (TargetType.CHANNEL, {asker.channel_id}),
        (TargetType.CHANNEL, {asker.guild_id - 1}),
    )
    if next(_verdicts(levels, channels), True) is False:
        return False
    members = (
        (TargetType.USER, {asker.user_id}),
        (TargetType.ROLE, asker.role_ids),
        (TargetType.ROLE, {asker.guild_id}),
    )
    verdict = next(_verdicts(levels, members), None)
    if verdict is not None:
        return verdict
    if default_permissions is None:
        return True
    if default_permissions.value == 0:  # "administrators only", and they were let in above
        return False
    return asker.permissions >= default_permissions


def _verdicts(
    levels: Iterable[Sequence[Override]], targets: Iterable[tuple[TargetType, Iterable[int]]]
) -> Iterator[bool]:
    """Each decision the overrides make about these targets, the one that counts first."""
    for overrides in levels:
        for kind, ids in targets:
            wanted = set(ids)
            named = [o.allow for o in overrides if o.type is kind and o.target_id in wanted]
            if named:
                yield any(named)


def parse_overrides(payloads: Iterable[Mapping[str, Any]]) -> dict[int, list[Override]]:
    """Discord's list of GuildApplicationCommandPermissions, by command id (or application id
    for the application-wide entry). Targets of unknown types are left out."""
    parsed: dict[int, list[Override]] = {}
    for entry in payloads:
        overrides = parsed.setdefault(int(entry["id"]), [])
        for item in entry.get("permissions") or []:
            if item.get("type") in TargetType._value2member_map_:
                overrides.append(
                    Override(int(item["id"]), TargetType(item["type"]), bool(item["permission"]))
                )
    return parsed


def asker_of(interaction: discord.Interaction[Any]) -> Asker | None:
    """The member behind an interaction in a server (None elsewhere)."""
    member, guild_id = interaction.user, interaction.guild_id
    if guild_id is None or not isinstance(member, discord.Member):
        return None
    channel = interaction.channel
    channel_id = interaction.channel_id or 0
    if isinstance(channel, discord.Thread) and channel.parent_id:
        channel_id = channel.parent_id
    return Asker(
        guild_id=guild_id,
        user_id=member.id,
        role_ids=frozenset(role.id for role in member.roles),
        channel_id=channel_id,
        permissions=interaction.permissions,
    )


Fetch = Callable[[int], Awaitable[list[Any]]]  # guild id -> Discord's permissions payloads


class CommandAccess:
    """Each server's command overrides, fetched when first needed and kept `cache_seconds`."""

    def __init__(
        self,
        fetch: Fetch,
        *,
        cache_seconds: float = CACHE_SECONDS,
        fetch_timeout: float = FETCH_TIMEOUT,
    ) -> None:
        self._fetch = fetch
        self.cache_seconds = cache_seconds
        self.fetch_timeout = fetch_timeout
        self.application_id = 0
        self._commands: dict[str, tuple[int, discord.Permissions | None]] = {}
        self._cached: dict[int, tuple[float, dict[int, list[Override]]]] = {}
        self._changes: dict[int, int] = {}  # guild id -> overrides changed this many times
        self._reading: dict[int, asyncio.Future[dict[int, list[Override]] | None]] = {}
        self._failing = OncePerReason()  # reads fail: said once a streak

    def know(
        self, application_id: int, commands: Iterable[discord.app_commands.AppCommand]
    ) -> None:
        """The commands as Discord registered them (what a sync returns): ids and defaults."""
        self.application_id = application_id
        for command in commands:
            self._commands[command.name] = (command.id, command.default_member_permissions)

    def forget(self, guild_id: int) -> None:
        """Discord says this server's overrides changed: read them again when next needed."""
        self._cached.pop(guild_id, None)
        self._reading.pop(guild_id, None)  # a read under way may predate the change
        self._changes[guild_id] = self._changes.get(guild_id, 0) + 1

    async def may_use(
        self, interaction: discord.Interaction[Any], command: str, *, within: float | None = None
    ) -> bool:
        """May the member behind this interaction use the top-level `command` where they are?
        `within`: seconds to wait for the overrides (an answer that cannot be deferred, as a
        form's opening; the read goes on for the next). Not read by then: yes, for an override
        may grant what the defaults refuse; what that answer opens asks again when it acts."""
        asker = asker_of(interaction)
        known = self._commands.get(command)
        if asker is None or known is None:
            return False
        command_id, default = known
        try:
            overrides = await asyncio.wait_for(self._overrides(asker.guild_id), within)
        except TimeoutError:  # a role the overrides allow was refused by the defaults alone
            return True
        if overrides is None:
            return may_use(asker, default)
        return may_use(
            asker,
            default,
            overrides.get(command_id, ()),
            overrides.get(self.application_id, ()),
        )

    async def _overrides(self, guild_id: int) -> dict[int, list[Override]] | None:
        cached = self._cached.get(guild_id)
        if cached is not None and time.monotonic() - cached[0] < self.cache_seconds:
            return cached[1]
        # One read per server at a time, however many menus are picked meanwhile.
        reading = self._reading.get(guild_id)
        if reading is None:
            reading = asyncio.ensure_future(self._read(guild_id))
            self._reading[guild_id] = reading
            reading.add_done_callback(functools.partial(self._read_done, guild_id))
        return await asyncio.shield(reading)

    def _read_done(self, guild_id: int, reading: asyncio.Future[Any]) -> None:
        if self._reading.get(guild_id) is reading:
            del self._reading[guild_id]

    async def _read(self, guild_id: int) -> dict[int, list[Override]] | None:
        changes = self._changes.get(guild_id, 0)
        try:
            payloads = await asyncio.wait_for(self._fetch(guild_id), self.fetch_timeout)
            overrides = parse_overrides(payloads)
        except (  # a dropped connection too (aiohttp's own, which discord.py lets through)
            discord.HTTPException,
            aiohttp.ClientError,
            OSError,
            TimeoutError,
            KeyError,
            TypeError,
            ValueError,
        ) as exc:
            if self._failing.starts():
                log.warning(
                    "could not read the command permissions set in Integrations (%s); until "
                    "they can be read, menus that act like a command ask only for its default "
                    "member permissions",
                    exc,
                )
            return None
        self._failing.ended()
        if self._changes.get(guild_id, 0) == changes:  # not changed while this was read
            self._cached[guild_id] = (time.monotonic(), overrides)
        return overrides
