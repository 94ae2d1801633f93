"""`/stats`: most looked-up terms and missed searches, with a menu that turns a miss into an
alias. A top-level command of its own so that it carries its own default permission (Manage
Server): Discord enforces it, and server admins can grant it in Integrations like `/alias`."""

from __future__ import annotations

import asyncio
import hashlib
import io
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import limits
from bot.aliases import AliasRejected, check_alias, miss_answered
from bot.cards.embed import BRAND_COLOUR, shown_name
from bot.cards.fit import fit_lines
from bot.discord_app.cogs.aliases import ADD_LIMIT as ALIAS_ADD_LIMIT
from bot.discord_app.cogs.aliases import add_alias
from bot.discord_app.cogs.moderators import (
    ServerOnly,
    no_database,
    read_failed,
    refuse,
    reply,
    thinking,
)
from bot.discord_app.errors import NO_MENTIONS, guarded
from bot.discord_app.items import Restorable, options_of
from bot.discord_app.replies import answering, echo_quoted
from bot.discord_app.state import BotState
from bot.glossary.letters import MARKER, fit
from bot.search import SearchResult
from bot.search.local import LocalGlossary
from bot.sizes import said_count
from bot.storage import DM_SCOPE, PERIODS, Miss, Period, StorageError, period_start
from bot.storage.periods import PERIOD_LABELS

if TYPE_CHECKING:
    from bot.discord_app.app import GlossaryBot

    Interaction = discord.Interaction[GlossaryBot]

TOP = 10
NOTHING_PICKED = "Pick a missed search from the menu to add it as an alias."
NOT_ALLOWED = "You can't add aliases here: that takes the right to use `/alias` in this channel."
CHART_FILE = "lookups.png"
# An option's value holds 100 characters, a miss up to 100 and its entry's id too. One that
# does not fit whole is sent as "~<digest> <entry id> <the miss's first words>": picked, the
# stored misses holding those words are read and the one with that digest is added. Entry ids
# are slugs: none starts with "~", so "<entry id> <miss>" (the rest, and menus sent before) reads
# as ever.
LONG_MISS = "~"
DIGEST = 12  # hex digits of the miss's SHA-256
# An entry id that would leave fewer characters of the miss than this (an operator's glossary
# may hold ids of any length; server terms' are at most 60) is sent as "#<its id's digest>",
# found among the server's entries when picked. Slugs start with a letter or digit.
LONG_ID = "#"
MIN_HEAD = 24
GONE_MISS = (
    "That missed search is no longer stored (added as an alias, or pruned, since `/stats` listed "
    "it), so nothing was added. Run `/stats` again for a fresh list."
)


def _digest(query: str) -> str:
    return hashlib.sha256(query.encode()).hexdigest()[:DIGEST]


def miss_value(entry_id: str, query: str) -> str:
    """The option value for `query` missed, meaning `entry_id`."""
    whole = f"{entry_id} {query}"
    if len(whole) <= limits.SELECT_OPTION_TEXT:
        return whole
    named = f"{LONG_MISS}{_digest(query)} {entry_id} "
    if len(named) > limits.SELECT_OPTION_TEXT - MIN_HEAD:
        named = f"{LONG_MISS}{_digest(query)} {LONG_ID}{_digest(entry_id)} "
    return f"{named}{query}"[: limits.SELECT_OPTION_TEXT]


def miss_label(query: str, title: str) -> str:
    """An option's label: the miss and its term; a long miss is cut, not the term."""
    room = limits.SELECT_OPTION_TEXT - len(f"“” → {title}")
    if room < MIN_HEAD:  # a title that long: both cut
        return fit(f"“{query}” → {title}", limits.SELECT_OPTION_TEXT)
    return f"“{fit(query, room)}” → {title}"


def miss_description(query: str, title: str, count: int) -> str:
    """An option's description: how often it was missed, and what its label has no room for,
    the end of a long miss (two misses sharing the label's words differ there) or the term."""
    shown = miss_label(query, title)
    if shown.startswith(f"“{query}”") or not shown.endswith(title):
        return fit(f"missed {count:,}×; add as an alias of {title}", limits.SELECT_OPTION_TEXT)
    kept = shown[1 : -len(f"{MARKER}” → {title}")]
    said = f"missed {count:,}×: …"
    return said + query[len(kept) :].strip()[-(limits.SELECT_OPTION_TEXT - len(said)) :]


async def _picked_miss(interaction: Interaction, value: str) -> tuple[str, str | None]:
    """(entry id, the miss) a picked option's value names; the miss None where it is no longer
    stored (a StorageError is the caller's)."""
    if not value.startswith(LONG_MISS):
        entry_id, _, miss = value.partition(" ")
        return entry_id, miss
    parts = value[len(LONG_MISS) :].split(" ", 2)
    if len(parts) < 3:  # not a value this menu sent (a hand-made interaction)
        return "", None
    digest, entry_id, head = parts
    store = interaction.client.state.store
    if store is None or interaction.guild_id is None:
        return entry_id, None
    if entry_id.startswith(LONG_ID):  # not found: add_alias says the term is gone
        local = await interaction.client.state.servers.local(interaction.guild_id)
        named = (e.id for e in local.glossary if f"{LONG_ID}{_digest(e.id)}" == entry_id)
        entry_id = next(named, entry_id)
    # The head may be as short as ~25 characters (beside a long id) and shared by many misses
    # ("what is the difference between …") searched more often than this one: read on, ten
    # times as many each round, until it is found or no more hold the head.
    limit = 100
    while True:
        held = await store.top_misses(interaction.guild_id, None, limit, containing=head)
        found = next((m.query for m in held if _digest(m.query) == digest), None)
        if found is not None or len(held) < limit:
            return entry_id, found
        limit *= 10


def _listed(lines: list[str], empty: str) -> str:
    """A field of whole lines: ten misses of 100 characters overflow its 1,024, and one cut
    mid-line lost its count and hid that the rest exist."""
    more = "\n…and {} more (too long to list here)"
    text, shown = fit_lines(lines, limits.EMBED_FIELD_VALUE - len(more.format(TOP)))
    if not shown:  # no line fits whole (none is that long): the first, cut
        return fit(lines[0], limits.EMBED_FIELD_VALUE) if lines else empty
    return text + (more.format(len(lines) - shown) if shown < len(lines) else "")


def _lookups_chart(*args: Any, **kwargs: Any) -> bytes:
    """`bot.cards.chart.lookups_chart`, imported at the first chart drawn (in the drawing
    thread): pygal and the chart module were ~0.1 s of CPU of every bot process's start."""
    from bot.cards.chart import lookups_chart

    return lookups_chart(*args, **kwargs)


def _misses_listed(
    local: LocalGlossary, misses: Sequence[Miss]
) -> list[tuple[Miss, discord.SelectOption | None]]:
    """Each miss as search reads it now, and the alias the menu may offer for it. One that
    opens a card now by a name of its own is no gap left (`miss_answered`, as `glossary-bot
    stats` reads it): off the list. One search places otherwise stays."""
    listed = []
    for miss in misses:
        guess = local.index.search(miss.query, local.aliases)
        if not miss_answered(miss.query, local, guess):
            listed.append((miss, _miss_option(local, miss, guess)))
    return listed


def _miss_option(
    local: LocalGlossary, miss: Miss, guess: SearchResult
) -> discord.SelectOption | None:
    """A missed search and the term it probably meant (`guess`: its search now), as a menu
    option (None: no guess, or an alias `/alias add` would refuse: a name since the miss)."""
    glossary = local.glossary
    target = guess.entry or (glossary.get(guess.suggestions[0].id) if guess.suggestions else None)
    if target is None:
        return None
    try:
        check_alias(miss.query, target.id, local.index, local.aliases)
    except AliasRejected:
        return None
    return discord.SelectOption(
        label=miss_label(miss.query, target.title),
        value=miss_value(target.id, miss.query),
        description=miss_description(miss.query, target.title, miss.count),
    )


class MissToAliasSelect(Restorable[discord.ui.Select[Any]], template=r"gb:miss2alias"):
    """Each option is a missed search and the term it probably meant: picking one adds the alias."""

    def __init__(self, options: list[discord.SelectOption]) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id="gb:miss2alias",
                placeholder="Turn a missed search into an alias…",
                options=options[: limits.SELECT_OPTIONS] or [discord.SelectOption(label="-")],
            )
        )

    @classmethod
    def restore(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> MissToAliasSelect:
        return cls(options_of(item))

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        # A menu carries no command permissions: it asks what Discord would ask of `/alias`
        # here (its overrides in Integrations, else Manage Server). That may take a request.
        await thinking(interaction)
        if not await interaction.client.command_access.may_use(interaction, "alias"):
            await reply(interaction, NOT_ALLOWED)
            return
        # `/alias add`'s write by another door: its limit, a refusal giving the use back.
        ALIAS_ADD_LIMIT.take(interaction)
        if not self.item.values:  # Discord sends one; a hand-made interaction may send none
            await refuse(interaction, NOTHING_PICKED)
            return
        try:
            entry_id, miss = await _picked_miss(interaction, self.item.values[0])
        except StorageError:
            await refuse(interaction, await read_failed(interaction.client.state))
            return
        if miss is None:
            await refuse(interaction, GONE_MISS)
            return
        scope = interaction.guild_id or DM_SCOPE
        gone = (
            f"The term this menu offered for {echo_quoted(miss)} is no longer in "
            f"{await interaction.client.state.gone_from(scope, entry_id)}, so nothing was added. Run "
            "`/stats` again for a fresh list."
        )
        await add_alias(interaction, miss, entry_id, gone=gone)


class StatsCog(ServerOnly, commands.Cog):
    def __init__(self, state: BotState) -> None:
        self.state = state

    @app_commands.command(
        name="stats", description="Most looked-up terms and missed searches (moderators)"
    )
    @app_commands.describe(period="How far back to count (default: week, the last 7 days)")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    @app_commands.allowed_installs(guilds=True, users=False)
    async def stats(self, interaction: Interaction, period: Period = "week") -> None:
        state = self.state
        scope = interaction.guild_id or 0
        if period not in PERIODS:  # a client sent a value the option does not offer
            await reply(
                interaction,
                f"There is no period {echo_quoted(str(period))}: pick "
                f"{', '.join(PERIODS[:-1])} or {PERIODS[-1]} (the default is week).",
            )
            return
        if state.store is None:
            await reply(interaction, no_database(state))
            return
        now = discord.utils.utcnow()
        since = period_start(period, now)
        await thinking(interaction)
        try:
            # Five reads, one WRITE_WAIT in all: a database that hangs held each a minute.
            with answering(interaction.client):
                total = await state.store.total_lookups(scope, since)
                top = await state.store.top_terms(scope, since, TOP)
                misses = await state.store.top_misses(scope, since, limits.SELECT_OPTIONS)
                waiting = await state.store.open_suggestions(scope, limits.SELECT_OPTIONS)
                hours = await state.store.lookups_by_hour(scope, since)
        except StorageError as exc:
            await reply(interaction, await read_failed(state, exc))
            return
        # Deferred: it can wait for a server being read again, whose terms are not removed.
        local = await state.servers.local(scope, patient=True)
        known = state.servers.knows(scope)
        removed = " (removed)" if known else ""
        embed = discord.Embed(
            title=f"Glossary lookups, {PERIOD_LABELS[period]}",
            description=f"**{total:,}** lookup{'' if total == 1 else 's'}",
            colour=BRAND_COLOUR,
        )
        glossary = local.glossary
        # Lookups of a term since removed (a server's own, or one a reload dropped) stay counted.
        named = [
            (glossary[e].display_title if e in glossary else f"{e}{removed}", c) for e, c in top
        ]
        top_lines = [
            f"{n}. {shown_name(name, mid_line=True)}: {c:,}" for n, (name, c) in enumerate(named, 1)
        ]
        # Drawn in a thread: a few tens of milliseconds that other answers need not wait for.
        png = await asyncio.to_thread(
            _lookups_chart, hours, named, since=since, now=now, title=f"{embed.title}: {total:,}"
        )
        embed.set_image(url=f"attachment://{CHART_FILE}")
        # A search each (a long question's ~0.1 s, up to 25): in a thread, as /alias add's box.
        listed = await asyncio.to_thread(_misses_listed, local, misses)
        miss_lines = [f"{echo_quoted(m.query)}: {m.count:,}×" for m, _ in listed[:TOP]]
        for name, lines, empty in (
            ("Most looked up", top_lines, "Nothing yet."),
            ("Searches that found nothing", miss_lines, "None. 🎉"),
        ):
            embed.add_field(name=name, value=_listed(lines, empty), inline=False)
        terms = len(local.terms)
        own = said_count(terms, "own term") if known else "own terms not read yet"
        if waiting:
            more = "+" if len(waiting) >= limits.SELECT_OPTIONS else ""
            own += (
                f"; {len(waiting):,}{more} suggestion{'s' if len(waiting) != 1 else ''} to review"
            )
            own += " (`/term review`)"
        embed.add_field(name="This server's glossary", value=own, inline=False)
        options = [option for _, option in listed if option is not None]
        view = None
        if options:
            view = discord.ui.View(timeout=None)
            view.add_item(MissToAliasSelect(options))
            embed.set_footer(
                text="Pick a miss below to add it as an alias, or use /alias add for another term."
            )
        kwargs: dict[str, Any] = {"view": view} if view else {}
        await interaction.followup.send(
            embed=embed,
            file=discord.File(io.BytesIO(png), CHART_FILE),
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
            **kwargs,
        )
