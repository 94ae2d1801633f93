"""The configured world: the bot, users, guilds (with roles, members, channels) and DMs.

Configure it before the bot connects: GUILD_CREATE is sent once, at IDENTIFY.
"""

from __future__ import annotations

from .models import (
    DEFAULT_EVERYONE_PERMISSIONS,
    DM,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    new_snowflake,
)

# What the bot's managed role grants unless a test says otherwise.
DEFAULT_BOT_PERMISSIONS = DEFAULT_EVERYONE_PERMISSIONS


class World:
    def __init__(self, *, bot_name: str, bot_permissions: int = DEFAULT_BOT_PERMISSIONS) -> None:
        self.bot = FakeUser(new_snowflake(), bot_name, bot=True)
        self.application_id = self.bot.id  # as for most bots, the app id is the bot user's id
        self.bot_permissions = bot_permissions
        self.users: dict[int, FakeUser] = {self.bot.id: self.bot}
        self.guilds: dict[int, FakeGuild] = {}
        self.dms: dict[int, FakeChannel] = {}  # recipient user id -> DM channel

    # --- configuration ---------------------------------------------------------------------

    def add_user(
        self, username: str, *, global_name: str | None = None, bot: bool = False
    ) -> FakeUser:
        user = FakeUser(new_snowflake(), username, global_name, bot)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        owner: FakeUser | None = None,
        everyone_permissions: int = DEFAULT_EVERYONE_PERMISSIONS,
        guild_id: int | None = None,
    ) -> FakeGuild:
        """A guild with @everyone, its owner as a member, and the bot with its managed role."""
        owner = owner or self.add_user(f"{name.lower().replace(' ', '_')}_owner")
        guild = FakeGuild(guild_id or new_snowflake(), name, owner.id)
        guild.roles[guild.id] = FakeRole(guild.id, guild.id, "@everyone", everyone_permissions)
        guild.add_member(owner)
        bot_role = guild.add_role(self.bot.username, permissions=self.bot_permissions)
        bot_role.managed, bot_role.bot_id = True, self.bot.id
        guild.add_member(self.bot, roles=[bot_role])
        self.guilds[guild.id] = guild
        return guild

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The bot's DM channel with ``user`` (created on first use)."""
        if user.id not in self.dms:
            self.dms[user.id] = FakeChannel(new_snowflake(), "", DM, None, recipient=user)
        return self.dms[user.id]

    def may_dm(self, user: FakeUser) -> bool:
        """Whether Discord delivers the bot's DM to ``user``: only to someone who shares a server
        with it and has not closed their DMs; otherwise 403, 50007 "Cannot send messages to this
        user", whether they left, blocked the bot or turned DMs off (one code for all)."""
        shares = any(
            user.id in guild.members and self.bot.id in guild.members
            for guild in self.guilds.values()
        )
        return shares and not user.dms_closed

    # --- lookups ---------------------------------------------------------------------------

    def channel(self, channel_id: int) -> FakeChannel | None:
        for guild in self.guilds.values():
            if channel_id in guild.channels:
                return guild.channels[channel_id]
        for dm in self.dms.values():
            if dm.id == channel_id:
                return dm
        return None

    def guild_of(self, channel: FakeChannel) -> FakeGuild | None:
        return None if channel.guild_id is None else self.guilds[channel.guild_id]

    def member(self, guild: FakeGuild, user: FakeUser) -> FakeMember:
        try:
            return guild.members[user.id]
        except KeyError:
            raise ValueError(f"{user.username} is not a member of {guild.name}") from None
