"""What the moderator commands (/alias, /stats, /term) share: they work only in a server, answer
ephemerally, acknowledge before they wait for the database, and ask again at a button or form
whether the moderator still may.

Discord wants an answer within 3 s, and a database that is locked or slow can take longer: every
moderator command acknowledges ("thinking…", ephemeral) before it waits for the database, and
answers with a follow-up. Autocomplete cannot be deferred, so its reads give up after the
state's `read_timeout`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands

from bot.discord_app.choices import fitted_choices
from bot.discord_app.cooldowns import give_back_use
from bot.discord_app.errors import NO_MENTIONS, AnswerLost, responded, taken_as_shown
from bot.discord_app.replies import answering, lost, respond_in_time
from bot.storage import NotInTime, StorageError, Store

if TYPE_CHECKING:
    from bot.discord_app.app import GlossaryBot
    from bot.discord_app.state import BotState

    Interaction = discord.Interaction[GlossaryBot]

T = TypeVar("T")
SERVER_ONLY = "This command works only in a server."
# No form opens outside a server: one submitted there was forged, whoever's id it carries.
FORM_SERVER_ONLY = "Forms work only in a server, so nothing was saved."
STORAGE_DOWN = (
    "The database cannot be written right now, so nothing was changed. Please try again later."
)
NO_DATABASE = "The database is not available right now."
# A change cut off at WRITE_WAIT (`NotInTime`): before its COMMIT, nothing was written.
NOT_IN_TIME = (
    "The database did not answer in time, so nothing was changed. Please try again in a minute."
)
# After it: the database may have committed it without answering.


def in_doubt(change: str = "this change", check: str = "`/define`, `/term log`") -> str:
    """What a change cut off at WRITE_WAIT after its COMMIT was sent says (`NotInTime` with
    `written` None): saved or not is not known. The one wording of it, for every change."""
    return (
        f"The database did not confirm {change} in time: it may or may not have been saved. "
        f"Check it ({check}) in a minute before trying again."
    )


IN_DOUBT = in_doubt()
# A read a moderator waits for (a list, a cap, the next suggestion) cut off at WRITE_WAIT.
READ_NOT_IN_TIME = "The database did not answer in time. Please try again in a minute."
# While the bot answers from its glossary and waits for its database (a PostgreSQL not up yet at
# start, `DATABASE_WAIT`): a moment's wait, not a fault.
NOT_YET = "The database is not reachable yet (the bot has just started)"
NOT_YET_WRITE = f"{NOT_YET}, so nothing was changed. Please try again in a minute."
NOT_YET_READ = f"{NOT_YET}. Please try again in a minute."
KEPT = "\nYour text is kept: press **Edit again**."
NOT_CHECKED = (
    "This server's glossary could not be checked (its terms and aliases could not be indexed), "
    "so nothing was changed. The bot's log says why."
)

# A form or button acts later than the `/term` that showed it, and Discord checks a command's
# permissions only when it runs: a moderator whose role went meanwhile must not still write, nor
# read on. So these ask again what Discord would ask of `/term` (its Integrations overrides,
# else Manage Server), after acknowledging: that may take a request.
# Not "any more": a forged form or a replayed button comes from a member who never could.
NO_LONGER_ALLOWED = (
    "You can't change this server's terms: that takes the right to use `/term` in "
    "this channel. Nothing was changed."
)


class ServerOnly:
    """Mixed into a cog (before its Cog base) whose commands work only in a server: one that
    arrives from anywhere else is refused (Discord would not send one; a forged one must not
    store a thing)."""

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        if interaction.guild_id is None:
            raise app_commands.CheckFailure(SERVER_ONLY)
        return True


async def reply(interaction: Interaction, text: str, **kwargs: Any) -> None:
    if responded(interaction):  # deferred while the database worked
        await interaction.followup.send(
            text, ephemeral=True, allowed_mentions=NO_MENTIONS, **kwargs
        )
    else:
        send = interaction.response.send_message
        await in_time(
            interaction,
            lambda: send(text, ephemeral=True, allowed_mentions=NO_MENTIONS, **kwargs),
        )


async def in_time(
    interaction: Interaction,
    respond: Callable[[], Awaitable[object]],
    what: str = "private answer",
) -> None:
    """Send a first response (`respond`: an answer, "thinking…", a form, a confirm's edit) by
    Discord's 3 s, as /define does (`respond_in_time`). One that cannot be (Discord failing,
    rate limited, the bot held up) is given up then, its line saying why and that its `what`
    is lost (`lost`), the use it took of its command's limit given back, no refusal counted
    (the moderator saw nothing, and nothing was written), and the command ends there
    (`AnswerLost`): tried on past the 3 s by discord.py, a 503'd one was refused as too late,
    and its line said that alone.
    One taken as shown with its answer never back is marked given (`responded`), so what
    follows goes as a followup, not a refused second one."""
    why = await respond_in_time(interaction.client.arrivals.sent_at(interaction), respond)
    if why is not None:
        lost(interaction, why, what)
        give_back_use(interaction, refused=False)  # Discord's failure, not the moderator's
        raise AnswerLost(why)
    if not interaction.response.is_done():  # out, its answer never back: taken as shown
        taken_as_shown(interaction)


async def refuse(interaction: Interaction, text: str, **kwargs: Any) -> None:
    """Answer a refusal (nothing written or exported), the use it took of its command's limit
    given back first: an answer Discord fails keeps none, and a moderator retrying the moment
    they read it is not "going a bit fast"."""
    give_back_use(interaction)
    await reply(interaction, text, **kwargs)


def storage_down(state: BotState) -> str:
    """What a change refused for want of a database says: "not reachable yet" while the bot
    waits for it, else `STORAGE_DOWN`."""
    return NOT_YET_WRITE if state.database_wait is not None else STORAGE_DOWN


def no_database(state: BotState) -> str:
    """`storage_down`'s for a read."""
    return NOT_YET_READ if state.database_wait is not None else NO_DATABASE


# The database put back to a backup from before the bot's last upgrade, under the running bot:
# no wait mends it (its reads fail until a start upgrades it again), so "later" would be untrue.
BEHIND = (
    "The database was put back to a backup older than this bot, so {what}. It works again "
    "once the bot is restarted (its operator's log says so)."
)
SCHEMA_BEHIND = BEHIND.format(what="nothing was changed")
SCHEMA_BEHIND_READ = BEHIND.format(what="this cannot be read")


async def _gone_back(state: BotState) -> bool:
    """Did the database go back to an older schema under the running bot? (asked only on a
    failure)"""
    store = state.store
    return store is not None and await state.servers.gone_back(store) is not None


async def write_failed(state: BotState, error: StorageError | None = None) -> str:
    """What a change the database refused says: `STORAGE_DOWN`, or `SCHEMA_BEHIND` where it
    went back to an older schema under the running bot; one cut off at WRITE_WAIT (`error`),
    `NOT_IN_TIME`, or `IN_DOUBT` where its COMMIT was sent and not answered."""
    if isinstance(error, NotInTime):
        return NOT_IN_TIME if error.written is False else IN_DOUBT
    return SCHEMA_BEHIND if await _gone_back(state) else STORAGE_DOWN


async def read_failed(state: BotState, error: StorageError | None = None) -> str:
    """`write_failed`'s for a read: `NO_DATABASE` or `SCHEMA_BEHIND_READ`; `READ_NOT_IN_TIME`
    for one cut off at WRITE_WAIT (`error`)."""
    if isinstance(error, NotInTime):
        return READ_NOT_IN_TIME
    return SCHEMA_BEHIND_READ if await _gone_back(state) else NO_DATABASE


async def thinking(interaction: Interaction) -> None:
    """Acknowledge now: what follows waits for the database, which may take seconds."""
    if not responded(interaction):
        await in_time(
            interaction, lambda: interaction.response.defer(ephemeral=True, thinking=True)
        )


async def read_or_say(interaction: Interaction, read: Callable[[Store], Awaitable[T]]) -> T | None:
    """Acknowledge, then read from the store; None, with the moderator told, when there is no
    database or it does not answer."""
    store = interaction.client.state.store
    if store is None:
        await refuse(interaction, no_database(interaction.client.state))
        return None
    await thinking(interaction)
    try:
        with answering(interaction.client):  # a database that hangs: said within WRITE_WAIT
            return await read(store)
    except StorageError as exc:
        await refuse(interaction, await read_failed(interaction.client.state, exc))
        return None


async def stored_choices(
    interaction: Interaction,
    read: Callable[[Store, int], Awaitable[Iterable[T]]],
    choice: Callable[[T], tuple[str, str] | None],
    held: Callable[[], Iterable[tuple[str, str]]] = tuple,
) -> list[app_commands.Choice[str]]:
    """Autocomplete from what the database holds for this server (`read` from the store, given
    the server's id): `choice` makes (label, value) of a record, or None to leave it out.
    If the database does not answer in time: `held`'s (label, value) pairs, what the bot holds
    in memory (nothing by default)."""
    state = interaction.client.state
    if state.store is None or not interaction.guild_id:
        return []
    try:
        records = await asyncio.wait_for(
            read(state.store, interaction.guild_id), state.read_timeout
        )
    except (StorageError, TimeoutError):
        return fitted_choices(held())
    return fitted_choices(made for record in records if (made := choice(record)) is not None)


# A button that opens a form must answer with the form itself, within Discord's 3 s, so it
# cannot acknowledge first: it waits this long for the server's overrides, then opens the form
# (the defaults alone would refuse a role the overrides allow; the save asks again with them).
FORM_WAIT = 1.0


async def still_allowed(
    interaction: Interaction, refusal: str = NO_LONGER_ALLOWED, *, opening_form: bool = False
) -> bool:
    """May the member still use `/term` here? Told `refusal` when not (the interaction
    acknowledged, or about to open a form: then the wait is bounded by `FORM_WAIT`)."""
    within = FORM_WAIT if opening_form else None
    if await interaction.client.command_access.may_use(interaction, "term", within=within):
        return True
    await refuse(interaction, refusal)
    return False
