"""Errors become a short ephemeral message with an id; the traceback goes to the log."""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import re
import uuid
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.discord_app import metrics as observe

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()
T = TypeVar("T")


# A command Discord still shows as it was before an update (global command lists take a while
# to reach every client): not a bug, and nothing the user did wrong.
STALE_COMMAND = (
    "This command has changed since Discord loaded it for you. Please try again in a minute "
    "(restarting Discord helps if it keeps happening)."
)
STALE_ERRORS = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)
# Unknown interaction (404), Unknown Webhook (404), Invalid Webhook Token (401): the answer came
# too late for Discord.
EXPIRED_CODES = (10062, 10015, 50027)


# `interaction.extras` key: a first response taken as shown though its answer never came back
# (`respond_in_time`), which discord.py therefore never marked done.
_TAKEN = "gb:first_response_taken"


def responded(interaction: discord.Interaction[Any]) -> bool:
    """Has the interaction's first response been given? What follows goes as a followup then:
    a second first response is refused (40060 "already acknowledged")."""
    return interaction.response.is_done() or interaction.extras.get(_TAKEN, False)


def taken_as_shown(interaction: discord.Interaction[Any]) -> None:
    """The interaction's first response went out and is taken as shown with no answer back."""
    interaction.extras[_TAKEN] = True


class AnswerLost(Exception):
    """A first response not sent within Discord's 3 s, its line logged (`replies.lost`): the
    command ends there, with nothing more to say to anyone."""


def error_reply(error_id: str) -> str:
    return f"Something went wrong on my side (error id `{error_id}`). Please try again."


async def report_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Log the traceback under a short id and give the user that id, never the traceback."""
    if isinstance(getattr(error, "original", error), AnswerLost):
        return  # its line is logged and its outcome (`late`) set (`replies.lost`)
    observe.outcome(
        "refused"
    )  # unless it is an error (below): a cooldown, a check, a stale command
    if isinstance(error, app_commands.CommandOnCooldown):
        # Rounded up: "try again in 0 s" would be a puzzle.
        message = f"You're going a bit fast: try again in {max(1, math.ceil(error.retry_after))} s."
    elif isinstance(error, app_commands.CheckFailure) and str(error):
        message = str(error)  # a check that explains itself (cooldowns, permissions)
    elif (late := _no_longer_taken(error, interaction)) is not None:
        # Nothing a user can be told (Discord takes no answer now): an operator's one line.
        observe.outcome("error")
        log.warning(
            "%s: Discord no longer takes an answer to it (%s, error code %s): %s",
            described(interaction),
            late.text,
            late.code,
            "it came too late" if late.code in EXPIRED_CODES else "what it answers is gone",
        )
        return
    elif isinstance(down := getattr(error, "original", error), discord.DiscordServerError):
        observe.outcome("error")
        log_servers_failing(f"cannot answer {described(interaction)}", down)
        return
    elif isinstance(error, STALE_ERRORS):
        log.warning(
            "%s does not match the commands this bot has: %s", described(interaction), error
        )
        message = STALE_COMMAND
    else:
        error_id = uuid.uuid4().hex[:8]
        observe.failed(error_id)
        log.error("error %s in %s", error_id, described(interaction), exc_info=error)
        message = error_reply(error_id)
    if interaction.type is discord.InteractionType.autocomplete:
        # No message fits here; an empty list beats Discord's "Loading options failed".
        if not responded(interaction):
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.autocomplete([])
        return
    try:
        if responded(interaction):
            await interaction.followup.send(message, ephemeral=True, allowed_mentions=NO_MENTIONS)
        else:
            await interaction.response.send_message(
                message, ephemeral=True, allowed_mentions=NO_MENTIONS
            )
    except discord.HTTPException:
        log.warning("could not tell the user about error in %s", described(interaction))


def log_servers_failing(lost: str, error: discord.DiscordServerError) -> None:
    """What could not be sent (`lost`) because Discord's servers are failing (a 5xx after
    discord.py's own tries): an operator's one line, and nothing more is sent (an error note
    would fail too)."""
    log.warning(
        "%s: Discord answered %s %s: its servers are failing",
        lost,
        error.status,
        error.response.reason,
    )


def _no_longer_taken(
    error: BaseException, interaction: discord.Interaction[Any]
) -> discord.HTTPException | None:
    """Discord's refusal of an answer that came too late: past the 3 s of the first response
    (10062 Unknown interaction) or the 15 minutes of follow-ups (10015 Unknown Webhook, or as
    Discord mostly says it, 401 with 50027 Invalid Webhook Token); or any other 404 to the
    interaction's own answers (their routes carry its token): what it answers is gone, as
    10008 Unknown Message to an edit of an ephemeral message its member dismissed."""
    cause = getattr(error, "original", error)
    if not isinstance(cause, discord.HTTPException):
        return None
    if cause.code in EXPIRED_CODES:
        return cause
    url = str(getattr(cause.response, "url", ""))
    if isinstance(cause, discord.NotFound) and interaction.token and interaction.token in url:
        return cause
    return None


def described(interaction: discord.Interaction[Any]) -> str:
    """The interaction as a log line names it: its id, command (or data), member."""
    name = interaction.command.qualified_name if interaction.command else interaction.data
    return f"interaction {interaction.id} ({name}) by {interaction.user.id}"


def guarded(
    callback: Callable[[T, discord.Interaction[Any]], Coroutine[Any, Any, None]],
) -> Callable[[T, discord.Interaction[Any]], Coroutine[Any, Any, None]]:
    """Button and select callbacks answer errors like commands do, never "interaction failed";
    and, like commands, they are work a stopping bot lets finish (and takes no more of)."""

    @functools.wraps(callback)
    async def wrapper(self: T, interaction: discord.Interaction[Any]) -> None:
        await _admitted(interaction, lambda: callback(self, interaction))

    return wrapper


async def handle_form(
    interaction: discord.Interaction[Any],
    form_id: re.Pattern[str],
    handle: Callable[[re.Match[str], dict[str, Any]], Awaitable[None]],
) -> None:
    """For an `on_interaction` listener: a modal submit whose custom id matches `form_id` goes to
    `handle` (with the match and the submitted data), guarded like a button; anything else is
    left alone."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return
    data: dict[str, Any] = dict(interaction.data or {})
    match = form_id.fullmatch(str(data.get("custom_id", "")))
    if match is not None:
        await _admitted(interaction, lambda: handle(match, data))


async def _admitted(
    interaction: discord.Interaction[Any], work: Callable[[], Awaitable[None]]
) -> None:
    """Run `work` unless the bot is stopping (it takes no new work); its errors get the user an
    error id."""
    admit = getattr(interaction.client, "admit", None)
    if admit is not None and not admit(interaction):
        return
    try:
        await work()
    except Exception as exc:
        await report_error(interaction, exc)
