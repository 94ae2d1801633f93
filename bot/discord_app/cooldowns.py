"""Per-user limits. /define, mentions and "Explain terms" draw on one limit per user (a user
who may not /define may not get the same card by mentioning the bot either); each moderator
command keeps a limit of its own, for what it writes or exports: a use that did neither (a
refused alias, file or term, the database away) is given back and counted against the
command's refusals, which have a limit of their own (`REFUSALS_PER_USE`), before the refusal
is answered (`give_back_use`): an answer Discord fails, or a moderator retrying the moment they
read it, finds the use back. A first response Discord failed gives its use back and is no
refusal: the moderator did nothing wrong. A use counts when it
reached the bot, on this machine's monotonic clock, not at the time its id says (discord.py's
cooldowns read that): one id stamped an hour ahead began its member's window an hour from now,
holding them for the hour."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import discord
from discord import app_commands

if TYPE_CHECKING:
    from bot.discord_app.app import GlossaryBot

T = TypeVar("T")
MAX_USERS = 10_000  # users tracked before those with nothing left to wait for are forgotten
# A moderator command's refusals a window, per use of its limit: a typo or a look-alike costs no
# write, but each is still a check against the server's aliases, so a flood of them waits too.
REFUSALS_PER_USE = 2
# `interaction.extras` key: the CommandLimit the interaction was checked against, and whether it
# took a use of it, until the refusal (if any) is settled.
_HELD = "gb:command_limit"


class UserLimit:
    def __init__(self, uses: int, seconds: float) -> None:
        self.uses, self.seconds = uses, seconds
        self._users: dict[int, app_commands.Cooldown] = {}
        # The size (past MAX_USERS) at which idle users are next looked for: twice what the last look
        # left, so that more users busy at once than MAX_USERS cost one look per doubling, not
        # a look at every one of them for each newcomer (52 ms each past 10,000).
        self._sweep_at = 0

    def take(self, user_id: int, at: float) -> app_commands.Cooldown | None:
        """Count one use made at `at` (when it reached the bot, in time.monotonic() seconds:
        `Arrivals.arrived`); the user's cooldown if that is one too many (None: go ahead)."""
        cooldown = self._users.get(user_id)
        if cooldown is None:
            if len(self._users) >= max(self._sweep_at, MAX_USERS):
                self._forget_idle(at)
                self._sweep_at = 2 * len(self._users)
            cooldown = self._users[user_id] = app_commands.Cooldown(self.uses, self.seconds)
        return cooldown if cooldown.update_rate_limit(at) is not None else None

    def give_back(self, user_id: int, at: float) -> None:
        """Undo a use `take` counted at `at`, within its window: a window since ended has
        given every use back already, and one begun after `at` (by a later use) holds none of
        it, so a use given back there would be one past its limit."""
        cooldown = self._users.get(user_id)
        # `_window`: when discord.py's Cooldown began its current window (no public reading).
        if (
            cooldown is not None
            and cooldown._window <= at
            and cooldown.get_tokens(at) < cooldown.rate
        ):
            cooldown.update_rate_limit(at, tokens=-1)

    def spent(self, user_id: int, at: float) -> app_commands.Cooldown | None:
        """The user's cooldown if none of its uses is left at `at` (None: one is), unchanged."""
        cooldown = self._users.get(user_id)
        return cooldown if cooldown is not None and cooldown.get_tokens(at) == 0 else None

    def _forget_idle(self, now: float) -> None:
        for user_id, cooldown in list(self._users.items()):
            if cooldown.get_tokens(now) >= cooldown.rate:
                del self._users[user_id]


def _within(limit: UserLimit, interaction: discord.Interaction[GlossaryBot]) -> bool:
    at = interaction.client.arrivals.arrived(interaction)
    cooldown = limit.take(interaction.user.id, at)
    if cooldown is not None:
        raise app_commands.CommandOnCooldown(cooldown, cooldown.get_retry_after(at))
    return True


async def _within_lookup_limit(interaction: discord.Interaction[GlossaryBot]) -> bool:
    return _within(interaction.client.state.lookups, interaction)


lookup_limit = app_commands.check(_within_lookup_limit)


class CommandLimit:
    """A moderator command's per-user limits: its uses (`COOLDOWN_USES` per `COOLDOWN_SECONDS`,
    as the lookups') and its refusals (`REFUSALS_PER_USE` times as many, the same window), past
    which it waits as for uses. The object names the command's limit (one per command, shared
    by its doors); the counts are the bot's that took them (`BotState.command_limits`): kept
    here, every bot of a process (tests, an embedding program) shared its users' uses."""

    def _of(self, interaction: discord.Interaction[GlossaryBot]) -> tuple[UserLimit, UserLimit]:
        state = interaction.client.state
        limits = state.command_limits.get(self)
        if limits is None:
            uses, seconds = state.cooldown
            refusals = UserLimit(uses * REFUSALS_PER_USE, seconds)
            limits = state.command_limits[self] = (UserLimit(uses, seconds), refusals)
        return limits

    def check(self, *, taken: bool = True) -> Callable[[T], T]:
        """The command's check: a use taken, or (`taken=False`, a command whose write a button
        confirms and takes the use) refused as `take` refuses, taking nothing."""

        async def within_own_limit(interaction: discord.Interaction[GlossaryBot]) -> bool:
            if taken:
                return self.take(interaction)
            self.left(interaction)
            interaction.extras[_HELD] = (self, False)  # a refusal is still counted
            return True

        return app_commands.check(within_own_limit)

    def left(self, interaction: discord.Interaction[GlossaryBot]) -> bool:
        """True if `interaction` could take a use now, or raise CommandOnCooldown as `take`
        does; nothing counted."""
        at = interaction.client.arrivals.arrived(interaction)
        for limit in reversed(self._of(interaction)):  # refusals first, as `take`
            spent = limit.spent(interaction.user.id, at)
            if spent is not None:
                raise app_commands.CommandOnCooldown(spent, spent.get_retry_after(at))
        return True

    def take(self, interaction: discord.Interaction[GlossaryBot]) -> bool:
        """Count `interaction` as a use of the command (True), or raise CommandOnCooldown
        ("going a bit fast", as `check` and `guarded` answer it): for a button or menu that
        writes what the command writes, another door to the same limit."""
        uses, refusals = self._of(interaction)
        at = interaction.client.arrivals.arrived(interaction)
        spent = refusals.spent(interaction.user.id, at)
        if spent is not None:
            raise app_commands.CommandOnCooldown(spent, spent.get_retry_after(at))
        _within(uses, interaction)
        interaction.extras[_HELD] = (self, True)
        return True

    def settle(
        self, interaction: discord.Interaction[GlossaryBot], taken: bool, *, refused: bool
    ) -> None:
        """Give `interaction`'s use back where it took one (`taken`), and count its refusal
        (`refused`)."""
        uses, refusals = self._of(interaction)
        at = interaction.client.arrivals.arrived(interaction)
        if taken:
            uses.give_back(interaction.user.id, at)
        if refused:
            refusals.take(interaction.user.id, at)


def give_back_use(interaction: discord.Interaction[GlossaryBot], *, refused: bool = True) -> None:
    """`interaction` was refused (`refused`), or its first response lost (not refused: Discord
    failed, not the moderator, so nothing counts against them), nothing written or exported:
    the use it took of its command's limit (if it took one: a command whose button takes it
    took none) given back, and a refusal counted. Once: nothing when it holds no limit (a
    command without one) or was settled already. Called before the refusal is answered
    (`moderators.refuse`), and where a first response is given up (`moderators.in_time`)."""
    held = interaction.extras.pop(_HELD, None)
    if held is not None:
        limit, taken = held
        limit.settle(interaction, taken, refused=refused)
