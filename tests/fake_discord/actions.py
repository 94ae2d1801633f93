"""What a test does as a Discord user: invoke commands, click, select, submit, post messages.

``UserActions`` is mixed into ``FakeDiscord``; each method builds the payload Discord's client
would send, waits until the bot has digested earlier replies (``settle``), then dispatches it.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Mapping, Sequence
from typing import Any

from .attachments import FakeAttachment
from .command_permissions import CommandPermissions
from .commands import CommandRegistry, refusal
from .gateway import DIRECT_MESSAGES, GUILD_MESSAGES, GUILDS, MESSAGE_CONTENT, Gateway
from .handles import InteractionHandle, Waiter
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    OptionValue,
    Resolved,
    SelectValue,
    base_payload,
    command_data,
    component_data,
    modal_data,
)
from .messages import (
    DEFAULT,
    REPLY,
    MessageStore,
    build_message,
    replied_copy,
    withhold_content,
    withhold_replied_to,
)
from .models import ALL_PERMISSIONS, FakeChannel, FakeGuild, FakeRole, FakeUser, new_snowflake
from .validation import CHAT_INPUT, MESSAGE_COMMAND, USER_COMMAND
from .world import World

JSON = dict[str, Any]
FORWARD = 1  # a message reference's type for a forward (0 is a reply)
# What a forward's snapshot keeps of the forwarded message (Discord's message snapshot object).
SNAPSHOT_FIELDS = (
    "type",
    "content",
    "embeds",
    "attachments",
    "timestamp",
    "edited_timestamp",
    "flags",
    "mentions",
    "mention_roles",
    "sticker_items",
    "components",
)
MessageRef = Mapping[str, Any] | int  # a message dict (as tests receive them) or its id


class UserActions:
    # Provided by FakeDiscord.
    world: World
    store: MessageStore
    registry: CommandRegistry
    command_permissions: CommandPermissions
    gateway: Gateway
    waiter: Waiter
    interactions: dict[int, InteractionHandle]

    async def settle(self) -> None:
        raise NotImplementedError

    @property
    def bot(self) -> FakeUser:
        return self.world.bot

    def commands(self, guild_id: int | None = None) -> list[JSON]:
        """The registered application commands: global, or one guild's."""
        return self.registry.listing(guild_id)

    # --- interactions ----------------------------------------------------------------------

    async def slash(
        self,
        user: FakeUser,
        command: str,
        options: Mapping[str, OptionValue] | None = None,
        *,
        channel: FakeChannel,
        held_up: float = 0.0,
        settle: bool = True,
    ) -> InteractionHandle:
        """Invoke ``/command`` (``"group sub"`` for subcommands) with ``options`` by name.
        ``held_up``: Discord sent it that many seconds before the bot got it (its id says so,
        and its 3 s count from then). ``settle=False``: sent while earlier REST calls are
        still under way (one whose answer a test holds)."""
        return await self._command_interaction(
            APPLICATION_COMMAND,
            user,
            command,
            options or {},
            channel,
            focused=None,
            created_ago=held_up,
            held_up=held_up,
            settle=settle,
        )

    async def autocomplete(
        self,
        user: FakeUser,
        command: str,
        options: Mapping[str, OptionValue],
        *,
        focused: str,
        channel: FakeChannel,
        created_ago: float = 0.0,
    ) -> InteractionHandle:
        """The user is typing into option ``focused``; ``options[focused]`` is the text so far.
        ``created_ago``: Discord created the request that many seconds ago (it was held up on
        the way to the bot)."""
        return await self._command_interaction(
            AUTOCOMPLETE, user, command, options, channel, focused=focused, created_ago=created_ago
        )

    async def keystrokes(
        self,
        user: FakeUser,
        command: str,
        focused: str,
        texts: Sequence[str],
        *,
        channel: FakeChannel,
    ) -> list[InteractionHandle]:
        """The user types on in option ``focused``: an autocomplete request for each of
        ``texts``, sent back to back (none waits for the bot's answer or for the bot to read
        the one before), as they reach a bot that is slow to read its gateway."""
        await self.settle()
        sent = []
        for text in texts:
            payload, refused = self._command_payload(
                AUTOCOMPLETE, user, command, {focused: text}, channel, focused=focused
            )
            sent.append(await self._send(payload, refused, settle=False))
        return sent

    async def _command_interaction(
        self,
        kind: int,
        user: FakeUser,
        command: str,
        options: Mapping[str, OptionValue],
        channel: FakeChannel,
        *,
        focused: str | None,
        created_ago: float = 0.0,
        held_up: float = 0.0,
        settle: bool = True,
    ) -> InteractionHandle:
        payload, refused = self._command_payload(
            kind, user, command, options, channel, focused=focused, created_ago=created_ago
        )
        return await self._send(payload, refused, held_up=held_up, settle=settle)

    def _command_payload(
        self,
        kind: int,
        user: FakeUser,
        command: str,
        options: Mapping[str, OptionValue],
        channel: FakeChannel,
        *,
        focused: str | None,
        created_ago: float = 0.0,
    ) -> tuple[JSON, str | None]:
        """An INTERACTION_CREATE's payload for ``/command``, and why Discord refuses it, if so."""
        name, *path = command.split()
        guild = self.world.guild_of(channel)
        registered = self._find_command(name, CHAT_INPUT, guild)
        permissions = None if guild is None else guild.permissions_of(user.id)
        refused = self._refusal(registered, user, channel)
        data = command_data(
            registered,
            path,
            options,
            Resolved(self.world, guild),
            focused=focused,
            permissions=ALL_PERMISSIONS if permissions is None else permissions,
        )
        payload = base_payload(self.world, kind=kind, data=data, user=user, channel=channel)
        if created_ago:
            payload["id"] = str(new_snowflake(ago=created_ago))
        return payload, refused

    async def click(self, user: FakeUser, message: MessageRef, custom_id: str) -> InteractionHandle:
        """Press the button ``custom_id`` on ``message`` (a message dict or id)."""
        return await self._component(user, message, custom_id, None)

    async def select(
        self, user: FakeUser, message: MessageRef, custom_id: str, values: Sequence[SelectValue]
    ) -> InteractionHandle:
        """Pick ``values`` in the select menu ``custom_id`` on ``message``: option values, or
        users/roles/channels for those select types."""
        return await self._component(user, message, custom_id, values)

    async def _component(
        self,
        user: FakeUser,
        message: MessageRef,
        custom_id: str,
        values: Sequence[SelectValue] | None,
    ) -> InteractionHandle:
        stored = self._stored_message(message)
        channel = self._channel(int(stored["channel_id"]))
        resolved = Resolved(self.world, self.world.guild_of(channel))
        data = component_data(stored, custom_id, values, resolved)
        payload = base_payload(
            self.world,
            kind=MESSAGE_COMPONENT,
            data=data,
            user=user,
            channel=channel,
            message=copy.deepcopy(stored),
        )
        return await self._send(payload, None, target_message_id=int(stored["id"]))

    async def message_command(
        self,
        user: FakeUser,
        name: str,
        target: MessageRef,
        *,
        channel: FakeChannel | None = None,
        held_up: float = 0.0,
    ) -> InteractionHandle:
        """Run the message context-menu command ``name`` on ``target``. ``held_up``: as for
        ``slash``, Discord sent it that many seconds before the bot got it."""
        stored = self._stored_message(target)
        channel = channel or self._channel(int(stored["channel_id"]))
        guild = self.world.guild_of(channel)
        registered = self._find_command(name, MESSAGE_COMMAND, guild)
        resolved = Resolved(self.world, guild)
        target_id = resolved.message(copy.deepcopy(stored))
        return await self._context_menu(
            user, registered, target_id, resolved, channel, held_up=held_up
        )

    async def user_command(
        self, user: FakeUser, name: str, target: FakeUser, *, channel: FakeChannel
    ) -> InteractionHandle:
        """Run the user context-menu command ``name`` on ``target``."""
        guild = self.world.guild_of(channel)
        registered = self._find_command(name, USER_COMMAND, guild)
        resolved = Resolved(self.world, guild)
        return await self._context_menu(user, registered, resolved.user(target), resolved, channel)

    async def _context_menu(
        self,
        user: FakeUser,
        registered: JSON,
        target_id: str,
        resolved: Resolved,
        channel: FakeChannel,
        *,
        held_up: float = 0.0,
    ) -> InteractionHandle:
        data: JSON = {
            "id": registered["id"],
            "name": registered["name"],
            "type": registered["type"],
            "target_id": target_id,
            "resolved": resolved.data,
        }
        if "guild_id" in registered:
            data["guild_id"] = registered["guild_id"]
        payload = base_payload(
            self.world, kind=APPLICATION_COMMAND, data=data, user=user, channel=channel
        )
        if held_up:
            payload["id"] = str(new_snowflake(ago=held_up))
        return await self._send(payload, self._refusal(registered, user, channel), held_up=held_up)

    def _refusal(self, registered: JSON, user: FakeUser, channel: FakeChannel) -> str | None:
        """Why Discord would not let ``user`` invoke this command here: its contexts, the
        guild's overrides (Integrations) or else its ``default_member_permissions``."""
        guild = self.world.guild_of(channel)
        if guild is None:
            return refusal(registered, permissions=None)
        permissions = guild.permissions_of(user.id)
        decided = self.command_permissions.decision(
            registered, guild, user.id, channel, permissions
        )
        return refusal(registered, permissions=permissions, overridden=decided)

    async def set_command_permissions(
        self, guild: FakeGuild, command: str | None, overrides: Sequence[Mapping[str, Any]]
    ) -> JSON:
        """What an admin does in Server Settings > Integrations: replace the overrides of the
        top-level command ``command`` (None: the whole application) in ``guild``; build them
        with ``command_permissions.override``. The bot gets APPLICATION_COMMAND_PERMISSIONS_UPDATE."""
        if command is None:
            target = self.world.application_id
        else:
            found = [c for c in self.commands(guild.id) + self.commands() if c["name"] == command]
            if not found:
                raise LookupError(f"no registered command {command!r}")
            target = int(found[0]["id"])
        payload = self.command_permissions.set(guild.id, target, overrides)
        if self.gateway.has_session(guild.id):
            await self.settle()
            await self.gateway.dispatch(
                "APPLICATION_COMMAND_PERMISSIONS_UPDATE", copy.deepcopy(payload), guild_id=guild.id
            )
        return payload

    async def update_channel(self, channel: FakeChannel) -> None:
        """What a moderator's edit of a server channel (its overwrites, name, age restriction)
        sends the bot: CHANNEL_UPDATE, the whole channel as it now is (the GUILDS intent). Change
        the channel first (``channel.overwrite(...)``); unsent, the bot's cache keeps the old."""
        if channel.is_dm or channel.is_thread:  # a thread's edit is THREAD_UPDATE
            raise ValueError(f"channel {channel.id} is not a server channel")
        if self.gateway.has_session(channel.guild_id):
            await self.settle()
            await self.gateway.dispatch(
                "CHANNEL_UPDATE", channel.payload(), guild_id=channel.guild_id, intent=GUILDS
            )

    async def update_guild(self, guild: FakeGuild) -> None:
        """What an admin's edit of the server itself (its name, icon, owner) sends the bot:
        GUILD_UPDATE, the guild object as it now is (the GUILDS intent; discord.py's
        `parse_guild_update`). Change it first (``guild.name = "New"``); unsent, the bot's cache
        keeps the old name."""
        if self.gateway.has_session(guild.id):
            await self.settle()
            await self.gateway.dispatch(
                "GUILD_UPDATE", guild.update_payload(), guild_id=guild.id, intent=GUILDS
            )

    async def delete_role(self, role: FakeRole) -> None:
        """An admin deletes a role: gone from the server and from every member who had it, and
        the bot is sent GUILD_ROLE_DELETE (the server's id and the role's; the GUILDS intent;
        discord.py's `parse_guild_role_delete`). Overwrites naming it (a channel's, a command's)
        are left as they are: they apply to no one now."""
        guild = self.world.guilds[role.guild_id]
        if role.id == guild.id or role.managed:
            raise ValueError(f"{role.name} cannot be deleted")  # @everyone, the bot's own
        del guild.roles[role.id]
        for member in guild.members.values():
            member.role_ids = [r for r in member.role_ids if r != role.id]
        if self.gateway.has_session(guild.id):
            await self.settle()
            await self.gateway.dispatch(
                "GUILD_ROLE_DELETE",
                {"guild_id": str(guild.id), "role_id": str(role.id)},
                guild_id=guild.id,
                intent=GUILDS,
            )

    async def update_role(self, role: FakeRole) -> None:
        """What a moderator's edit of a server role (its permissions, name) sends the bot:
        GUILD_ROLE_UPDATE, the server's id and the whole role as it now is (the GUILDS intent;
        the role as openapi.json's GuildRoleResponse, read by discord.py's
        `parse_guild_role_update`). Change the role first (``role.permissions &= ~flag``);
        unsent, the bot's cache keeps the old permissions, as with Discord."""
        if self.gateway.has_session(role.guild_id):
            await self.settle()
            await self.gateway.dispatch(
                "GUILD_ROLE_UPDATE",
                {"guild_id": str(role.guild_id), "role": role.payload()},
                guild_id=role.guild_id,
                intent=GUILDS,
            )

    async def submit_modal(
        self, user: FakeUser, origin: InteractionHandle, values: Mapping[str, str | Sequence[str]]
    ) -> InteractionHandle:
        """Submit the modal the bot opened in answer to ``origin`` (callback type 9)."""
        body = origin.callback
        if body is None or body.get("type") != 9:
            raise ValueError(f"interaction {origin.id} was not answered with a modal: {body}")
        channel = self._channel(int(origin.payload["channel_id"]))
        payload = base_payload(
            self.world,
            kind=MODAL_SUBMIT,
            data=modal_data(body["data"], values),
            user=user,
            channel=channel,
            message=origin.payload.get("message"),
        )
        return await self._send(payload, None, target_message_id=origin.target_message_id)

    async def raw_interaction(
        self, payload: JSON, *, target_message_id: int | None = None
    ) -> InteractionHandle:
        """Send a hand-built INTERACTION_CREATE as it is, past every check of what a user could
        do: for payloads Discord should never send (a missing option, an unknown command, a
        wrong type). ``interactions.base_payload`` builds the envelope."""
        return await self._send(payload, None, target_message_id=target_message_id)

    async def redeliver(self, handle: InteractionHandle) -> None:
        """Deliver an interaction already sent once more, as it was (the same payload, a new
        sequence number): Discord replaying an event twice (across a RESUME, say). Its 3 s
        still count from the first sending; the bot's answers land on the same handle, and a
        second initial response is refused as Discord refuses it (40060)."""
        if handle.sent_at is None:
            raise ValueError(f"interaction {handle.id} was never delivered")
        await self.settle()
        payload = handle.payload
        guild_id = int(payload["guild_id"]) if "guild_id" in payload else None
        await self.gateway.dispatch("INTERACTION_CREATE", payload, guild_id=guild_id)

    async def _send(
        self,
        payload: JSON,
        refused: str | None,
        *,
        target_message_id: int | None = None,
        settle: bool = True,
        held_up: float = 0.0,
    ) -> InteractionHandle:
        handle = InteractionHandle(
            payload=payload,
            waiter=self.waiter,
            store=self.store,
            refusal=refused,
            target_message_id=target_message_id,
        )
        self.interactions[handle.id] = handle
        if refused is None:
            if settle:
                await self.settle()

            def stamp() -> None:
                handle.sent_at = time.monotonic()
                handle.discord_sent_at = handle.sent_at - held_up

            guild_id = int(payload["guild_id"]) if "guild_id" in payload else None
            await self.gateway.dispatch(
                "INTERACTION_CREATE", payload, guild_id=guild_id, before_send=stamp
            )
        return handle

    def _find_command(self, name: str, kind: int, guild: FakeGuild | None) -> JSON:
        found = self.registry.find(name, kind, None if guild is None else guild.id)
        if found is None:
            known = [c["name"] for c in self.commands()]
            if guild is not None:
                known += [c["name"] for c in self.commands(guild.id)]
            raise LookupError(f"no registered command {name!r} of type {kind}; known: {known}")
        return found

    # --- messages --------------------------------------------------------------------------

    async def user_message(
        self,
        user: FakeUser,
        channel: FakeChannel,
        content: str,
        *,
        reply_to: MessageRef | None = None,
        embeds: Sequence[JSON] = (),
        poll: JSON | None = None,
        forward_of: MessageRef | None = None,
        ping: bool = True,
        attachments: Sequence[FakeAttachment] = (),
    ) -> JSON:
        """``user`` posts ``content`` (and ``embeds``, as another bot or a webhook may) in
        ``channel``; the bot gets MESSAGE_CREATE if its intents allow.

        ``attachments`` are files sent with it (``fake.add_attachment(..., channel=channel)``):
        Discord's client sends a paste past the message's length as ``message.txt`` with no
        content.

        A reply (``reply_to``) pings the replied-to author unless ``ping`` is False (the
        client's "@ ON" is the default): Discord then lists that author first in ``mentions``,
        though the text names nobody. Replying to oneself pings no one.

        ``poll`` is a poll object as Discord sends it; ``forward_of`` makes the message a
        forward of a stored one, as Discord does: no content of its own, a reference of type 1
        and the forwarded message's text, embeds and attachments in ``message_snapshots``.

        Without the message content intent, guild messages that do not mention the bot reach
        it with empty content, as on Discord; so does a reply's copy of the message it replies to
        (``referenced_message``), unless that one is the bot's or mentions it.
        """
        guild = self.world.guild_of(channel)
        extra: JSON = {}
        kind = DEFAULT
        if reply_to is not None:
            ref = self._stored_message(reply_to)
            kind = REPLY
            extra["message_reference"] = {"message_id": ref["id"], "channel_id": ref["channel_id"]}
            extra["referenced_message"] = replied_copy(ref)
        if poll is not None:
            extra["poll"] = copy.deepcopy(poll)
        if forward_of is not None:
            ref = self._stored_message(forward_of)
            extra["message_reference"] = {
                "type": FORWARD,
                "message_id": ref["id"],
                "channel_id": ref["channel_id"],
            }
            snapshot = {k: copy.deepcopy(ref[k]) for k in SNAPSHOT_FIELDS if k in ref}
            extra["message_snapshots"] = [{"message": snapshot}]
        message = build_message(
            {
                "content": content,
                "embeds": list(embeds),
                "attachments": [a.payload() for a in attachments],
            },
            channel=channel,
            author=user,
            message_type=kind,
            users=self.world.users,
            extra=extra,
        )
        if reply_to is not None and ping:
            replied = message["referenced_message"]["author"]
            named = {m["id"] for m in message["mentions"]}
            if replied["id"] != str(user.id) and replied["id"] not in named:
                message["mentions"].insert(0, copy.deepcopy(replied))
        if guild is not None:
            message["member"] = self.world.member(guild, user).payload(with_user=False)
            for mention in message["mentions"]:
                member = guild.members.get(int(mention["id"]))
                if member is not None:
                    mention["member"] = member.payload(with_user=False)
        self.store.add(message)
        event = copy.deepcopy(message)
        mentions_bot = any(int(m["id"]) == self.bot.id for m in message["mentions"])
        intents = self.gateway.intents_of(None if guild is None else guild.id)
        if guild is not None and not intents & MESSAGE_CONTENT:
            if not mentions_bot:
                withhold_content(event)
            withhold_replied_to(event, self.bot.id)
        intent = DIRECT_MESSAGES if guild is None else GUILD_MESSAGES
        await self.settle()
        guild_id = None if guild is None else guild.id
        await self.gateway.dispatch("MESSAGE_CREATE", event, guild_id=guild_id, intent=intent)
        return copy.deepcopy(message)

    async def redeliver_message(self, message: JSON) -> None:
        """Deliver a MESSAGE_CREATE already sent once more: ``message`` as ``user_message``
        returned it (the event as the bot got it, for one that mentions the bot or reaches it
        with the message content intent), Discord replaying an event."""
        await self.settle()
        guild_id = int(message["guild_id"]) if "guild_id" in message else None
        intent = DIRECT_MESSAGES if guild_id is None else GUILD_MESSAGES
        event = copy.deepcopy(message)
        await self.gateway.dispatch("MESSAGE_CREATE", event, guild_id=guild_id, intent=intent)

    async def wait_for_channel_message(self, channel: FakeChannel | int) -> JSON:
        """The next message the bot posts in ``channel`` via POST /channels/{id}/messages.

        Each call returns a different message, oldest first.
        """
        channel_id = channel.id if isinstance(channel, FakeChannel) else channel
        return await self.waiter.wait_for(
            lambda: self.store.next_bot_post(channel_id),
            f"bot message in channel {channel_id}",
        )

    def message(self, message_id: int) -> JSON:
        """The current state of a message the fake knows."""
        return self.store.snapshot(message_id)

    def _stored_message(self, ref: MessageRef) -> JSON:
        message_id = ref if isinstance(ref, int) else int(ref["id"])
        if not self.store.is_live(message_id):
            raise ValueError(f"message {message_id} does not exist (or was deleted)")
        stored = self.store.get(message_id)
        assert stored is not None
        return stored

    def _channel(self, channel_id: int) -> FakeChannel:
        channel = self.world.channel(channel_id)
        if channel is None:
            raise ValueError(f"channel {channel_id} is not configured")
        return channel
