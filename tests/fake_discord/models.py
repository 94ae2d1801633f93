"""The fake's world: users, guilds, roles, members and channels, and their Discord JSON shapes.

Payload builders return plain dicts shaped like Discord's API objects, complete enough for
discord.py to parse them (it indexes some keys directly, e.g. a member's ``flags``).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000

# Permission bits the fake reasons about (https://discord.com/developers/docs/topics/permissions).
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
CHANGE_NICKNAME = 1 << 26
USE_APPLICATION_COMMANDS = 1 << 31
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 53) - 1

# Roughly what @everyone gets in a freshly created server.
DEFAULT_EVERYONE_PERMISSIONS = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
)

# Channel types used by the fake.
GUILD_TEXT = 0
DM = 1
GUILD_VOICE = 2  # its text chat takes messages like a text channel
GUILD_ANNOUNCEMENT = 5  # a text channel others can follow
PUBLIC_THREAD = 11  # a thread of a text channel, or a forum post
PRIVATE_THREAD = 12  # a thread only its members (and those who may manage threads) see
GUILD_STAGE_VOICE = 13  # its text chat takes messages like a voice channel's
GUILD_FORUM = 15  # holds posts (threads), takes no messages itself

_counter = itertools.count()


def new_snowflake(*, ago: float = 0.0) -> int:
    """A unique snowflake whose timestamp is now, or ``ago`` seconds before (discord.py reads it
    as created_at); increasing while ``ago`` is 0."""
    ms = int((time.time() - ago) * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(eq=False)
class FakeUser:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    # Privacy & Safety > "Direct Messages" off: Discord refuses the bot's DMs (403, 50007).
    dms_closed: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
        }


@dataclass(eq=False)
class FakeRole:
    id: int
    guild_id: int
    name: str
    permissions: int = 0
    position: int = 0
    managed: bool = False
    bot_id: int | None = None  # a bot's own role, managed by Discord: its tags name the bot

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> JSON:
        tags: JSON = {} if self.bot_id is None else {"tags": {"bot_id": str(self.bot_id)}}
        return tags | {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


@dataclass(frozen=True)
class Overwrite:
    """A channel's permission overwrite for a role (`type` 0) or a member (1), as Discord sends
    it in the channel's `permission_overwrites` (discord-api-spec's
    ChannelPermissionOverwriteResponse)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass(eq=False)
class FakeChannel:
    id: int
    name: str
    type: int = GUILD_TEXT
    guild_id: int | None = None
    position: int = 0
    recipient: FakeUser | None = None  # DMs only
    parent_id: int | None = None  # a thread's channel (or forum)
    owner_id: int | None = None  # who started the thread
    archived: bool = False  # a thread archived (and locked) by a moderator: no posts in it
    nsfw: bool = False  # age-restricted
    # Sent in GUILD_CREATE; changed later, the bot hears of it from `fake.update_channel`.
    overwrites: list[Overwrite] = field(default_factory=list)

    def overwrite(self, target: FakeRole | FakeUser, *, allow: int = 0, deny: int = 0) -> None:
        """This channel's overwrite for a role (`guild.everyone` included) or a member."""
        kind = 0 if isinstance(target, FakeRole) else 1
        self.overwrites = [o for o in self.overwrites if o.id != target.id]
        self.overwrites.append(Overwrite(target.id, kind, allow, deny))

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def is_dm(self) -> bool:
        return self.guild_id is None

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self) -> JSON:
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": None,
                "recipients": [self.recipient.payload()],
            }
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [o.payload() for o in self.overwrites],
            "nsfw": self.nsfw,
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
            **self._kind_fields(),
        }

    def _kind_fields(self) -> JSON:
        """What Discord adds for a voice or stage channel or a thread (discord.py requires them)."""
        if self.type in (GUILD_VOICE, GUILD_STAGE_VOICE):
            return {"bitrate": 64000, "user_limit": 0, "rtc_region": None}
        if self.is_thread:
            return {
                "owner_id": str(self.owner_id),
                "message_count": 0,
                "member_count": 1,
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": iso_now(),
                    "locked": self.archived,
                    **({"invitable": True} if self.type == PRIVATE_THREAD else {}),
                },
            }
        if self.type == GUILD_FORUM:
            return {"available_tags": [], "default_reaction_emoji": None}
        return {}


@dataclass(eq=False)
class FakeMember:
    user: FakeUser
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> JSON:
        data: JSON = {
            "roles": [str(r) for r in self.role_ids],
            "nick": self.nick,
            "avatar": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(eq=False)
class FakeGuild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)

    @property
    def everyone(self) -> FakeRole:
        # Discord gives @everyone the guild's own id.
        return self.roles[self.id]

    def add_role(self, name: str, *, permissions: int = 0) -> FakeRole:
        role = FakeRole(new_snowflake(), self.id, name, permissions, position=len(self.roles))
        self.roles[role.id] = role
        return role

    def add_text_channel(self, name: str) -> FakeChannel:
        channel = FakeChannel(new_snowflake(), name, GUILD_TEXT, self.id, len(self.channels))
        self.channels[channel.id] = channel
        return channel

    def add_channel(self, name: str, kind: int) -> FakeChannel:
        """A channel of another type (GUILD_VOICE, GUILD_ANNOUNCEMENT, GUILD_STAGE_VOICE,
        GUILD_FORUM)."""
        channel = FakeChannel(new_snowflake(), name, kind, self.id, len(self.channels))
        self.channels[channel.id] = channel
        return channel

    def add_thread(
        self, parent: FakeChannel, name: str, owner: FakeUser, *, kind: int = PUBLIC_THREAD
    ) -> FakeChannel:
        """A thread of a text channel (``kind=PRIVATE_THREAD`` for a private one), or a post of
        a forum: sent in GUILD_CREATE's threads."""
        thread = FakeChannel(
            new_snowflake(), name, kind, self.id, 0, parent_id=parent.id, owner_id=owner.id
        )
        self.channels[thread.id] = thread
        return thread

    def add_member(
        self, user: FakeUser, *, roles: list[FakeRole] | None = None, nick: str | None = None
    ) -> FakeMember:
        member = FakeMember(user, self.id, [r.id for r in roles or []], nick)
        self.members[user.id] = member
        return member

    def permissions_of(self, user_id: int) -> int:
        """Guild-level permissions (no channel overwrites): owner and administrators get all."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members.get(user_id)
        perms = self.everyone.permissions
        if member is not None:
            for role_id in member.role_ids:
                perms |= self.roles[role_id].permissions
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def permissions_in(self, channel: FakeChannel, user_id: int) -> int:
        """Permissions in `channel` as Discord computes them: the server's, then the channel's
        overwrites (a thread's are its parent's): @everyone's, the member's roles' together
        (denies, then allows), the member's own. Owner and administrators: all."""
        permissions = self.permissions_of(user_id)
        if permissions == ALL_PERMISSIONS:
            return permissions
        source = self.channels.get(channel.parent_id or 0) if channel.is_thread else channel
        overwrites = {o.id: o for o in (source.overwrites if source is not None else [])}
        member = self.members.get(user_id)
        roles = member.role_ids if member is not None else []
        steps = [
            [overwrites[self.id]] if self.id in overwrites else [],
            [overwrites[r] for r in roles if r in overwrites and overwrites[r].type == 0],
            [o for o in overwrites.values() if o.type == 1 and o.id == user_id],
        ]
        for step in steps:
            deny = allow = 0
            for o in step:
                deny, allow = deny | o.deny, allow | o.allow
            permissions = (permissions & ~deny) | allow
        return permissions

    def payload(self, *, include_all_members: bool, bot_id: int) -> JSON:
        """A GUILD_CREATE payload. Without the members intent Discord sends only the bot."""
        members = [
            m.payload() for m in self.members.values() if include_all_members or m.user.id == bot_id
        ]
        return {
            **self.update_payload(),
            "channels": [c.payload() for c in self.channels.values() if not c.is_thread],
            "threads": [c.payload() for c in self.channels.values() if c.is_thread],
            "members": members,
            "member_count": len(self.members),
            "large": False,
            "unavailable": False,
            "joined_at": iso_now(),
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def update_payload(self) -> JSON:
        """A GUILD_UPDATE payload: the guild object (openapi.json's GuildResponse), without
        GUILD_CREATE's extra fields (channels, members, ...), which discord.py's
        `parse_guild_update` keeps from its cache."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "features": [],
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            # The rest of what GuildResponse requires, with a new server's values.
            "home_header": None,
            "application_id": None,
            "region": "deprecated",
            "widget_enabled": False,
            "widget_channel_id": None,
            "max_presences": None,
            "max_members": 500000,
            "max_stage_video_channel_users": 50,
            "max_video_channel_users": 25,
            "safety_alerts_channel_id": None,
            "nsfw": False,
            "incidents_data": None,
        }
