"""Moderator commands: `/alias add|remove|list` and `/glossary stats`, with miss -> alias.

`/alias` is declared with default member permissions Manage Server: Discord hides and refuses it
for everyone else, and server admins can grant it to a moderator role in Server Settings >
Integrations, so the bot does not check again (that would undo such a grant). Discord sets
permissions per top-level command, and `/glossary about` is for everyone, so `/glossary stats`
checks Manage Server (or Administrator) itself.

Discord wants an answer within 3 s, and a database that is locked or slow can take longer: every
command here acknowledges ("thinking…", ephemeral) before it waits for the database, and answers
with a follow-up. Autocomplete cannot be deferred, so its reads give up after `READ_TIMEOUT`.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any, Literal

import discord
from discord import app_commands

from bot import limits
from bot.aliases import AliasRejected, check_alias
from bot.cards.fit import fit
from bot.discord_app.about import glossary_group
from bot.discord_app.answers import echo
from bot.discord_app.components import per_user_cooldown, scope_of, state_of
from bot.discord_app.define import term_autocomplete
from bot.discord_app.errors import NO_MENTIONS, guarded
from bot.discord_app.state import READ_TIMEOUT
from bot.glossary.keys import normalize
from bot.storage import AddAliasStatus, StorageError, period_start

MANAGE_SERVER = discord.Permissions(manage_guild=True)
STORAGE_DOWN = (
    "The database cannot be written right now, so nothing was changed. Please try again later."
)


def can_moderate(interaction: discord.Interaction[Any]) -> bool:
    perms = interaction.permissions
    return interaction.guild_id is not None and (perms.manage_guild or perms.administrator)


async def _moderator_check(interaction: discord.Interaction[Any]) -> bool:
    if not can_moderate(interaction):
        raise app_commands.CheckFailure("This command is for moderators (Manage Server).")
    return True


moderators_only = app_commands.check(_moderator_check)


alias_group = app_commands.Group(
    name="alias",
    description="This server's own names for glossary terms (moderators)",
    default_permissions=MANAGE_SERVER,
    allowed_contexts=app_commands.AppCommandContext(
        guild=True, dm_channel=False, private_channel=False
    ),
)


async def _reply(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    if interaction.response.is_done():  # deferred while the database worked
        await interaction.followup.send(
            text, ephemeral=True, allowed_mentions=NO_MENTIONS, **kwargs
        )
    else:
        await interaction.response.send_message(
            text, ephemeral=True, allowed_mentions=NO_MENTIONS, **kwargs
        )


async def _thinking(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge now: what follows waits for the database, which may take seconds."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


async def add_alias(interaction: discord.Interaction[Any], text: str, entry_id: str) -> None:
    """Validate and store an alias, answering the moderator in every case."""
    state = state_of(interaction)
    scope = scope_of(interaction)
    entry = state.glossary.get(entry_id)
    if entry is None:  # a typed term rather than an autocomplete pick
        found = state.index.search(entry_id)
        entry = found.entry if found.status == "match" else None
    if entry is None:
        await _reply(
            interaction, f"I could not find the term “{echo(entry_id)}”. Pick one from the list."
        )
        return
    try:
        key = check_alias(text, entry.id, state.glossary, state.owners)
    except AliasRejected as exc:
        await _reply(interaction, str(exc))
        return
    if state.store is None:
        await _reply(interaction, STORAGE_DOWN)
        return
    await _thinking(interaction)
    try:
        result = await state.store.add_alias(
            scope, key, text.strip(), entry.id, interaction.user.id
        )
    except StorageError:
        await _reply(interaction, STORAGE_DOWN)
        return
    state.forget_aliases(scope)
    shown = echo(key)
    if result.status is AddAliasStatus.ADDED:
        await _reply(
            interaction, f"Added: “{shown}” now opens **{entry.display_title}** in this server."
        )
    elif result.status is AddAliasStatus.ALREADY_EXISTS_SAME_ENTRY:
        await _reply(
            interaction, f"“{shown}” already opens **{entry.display_title}**: nothing to change."
        )
    elif result.status is AddAliasStatus.CONFLICT:
        other = result.alias.entry_id if result.alias else "another entry"
        other_entry = state.glossary.get(other)
        name = other_entry.display_title if other_entry else other
        await _reply(
            interaction,
            f"“{shown}” is already this server's alias for **{name}**. Remove it first to change it.",
        )
    else:
        await _reply(
            interaction,
            "This server has reached its limit of aliases. Remove some with `/alias remove` first.",
        )


async def miss_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The alias box suggests this server's missed searches: a miss becomes an alias in one step."""
    state = state_of(interaction)
    if state.store is None or not interaction.guild_id:
        return []
    try:
        misses = await asyncio.wait_for(
            state.store.top_misses(interaction.guild_id, None, limits.AUTOCOMPLETE_CHOICES),
            READ_TIMEOUT,
        )
    except (StorageError, TimeoutError):
        return []
    wanted = current.strip().casefold()
    return [
        app_commands.Choice(
            name=fit(f"{m.query} (missed {m.count}×)", limits.AUTOCOMPLETE_NAME),
            value=m.query[:100],
        )
        for m in misses
        if wanted in m.query
    ][: limits.AUTOCOMPLETE_CHOICES]


@alias_group.command(
    name="add", description="Make a word or phrase open a glossary term in this server"
)
@app_commands.describe(
    alias="What people type (missed searches are suggested)",
    term="The glossary term it should open",
)
@app_commands.autocomplete(alias=miss_autocomplete, term=term_autocomplete)
@per_user_cooldown()
async def alias_add(
    interaction: discord.Interaction[Any], alias: app_commands.Range[str, 1, 200], term: str
) -> None:
    await add_alias(interaction, alias, term)


async def server_alias_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    state = state_of(interaction)
    if state.store is None or not interaction.guild_id:
        return []
    try:
        records = await asyncio.wait_for(
            state.store.list_aliases(interaction.guild_id), READ_TIMEOUT
        )
    except (StorageError, TimeoutError):
        return []
    wanted = current.strip().casefold()
    choices = []
    for record in records:
        if wanted in record.key:
            entry = state.glossary.get(record.entry_id)
            label = f"{record.text} → {entry.title if entry else record.entry_id}"
            choices.append(
                app_commands.Choice(
                    name=fit(label, limits.AUTOCOMPLETE_NAME), value=record.key[:100]
                )
            )
    return choices[: limits.AUTOCOMPLETE_CHOICES]


@alias_group.command(name="remove", description="Remove one of this server's aliases")
@app_commands.describe(alias="The alias to remove")
@app_commands.autocomplete(alias=server_alias_autocomplete)
@per_user_cooldown()
async def alias_remove(interaction: discord.Interaction[Any], alias: str) -> None:
    state = state_of(interaction)
    scope = scope_of(interaction)
    key = normalize(alias)
    if state.store is None:
        await _reply(interaction, STORAGE_DOWN)
        return
    await _thinking(interaction)
    try:
        removed = await state.store.remove_alias(scope, key, interaction.user.id)
    except StorageError:
        await _reply(interaction, STORAGE_DOWN)
        return
    state.forget_aliases(scope)
    if removed is None:
        await _reply(interaction, f"This server has no alias “{echo(alias)}”.")
    else:
        await _reply(interaction, f"Removed “{echo(removed.text)}”.")


@alias_group.command(name="list", description="This server's aliases, optionally for one term")
@app_commands.describe(term="Only the aliases of this term")
@app_commands.autocomplete(term=term_autocomplete)
async def alias_list(interaction: discord.Interaction[Any], term: str | None = None) -> None:
    state = state_of(interaction)
    if state.store is None:
        await _reply(interaction, "The database is not available right now.")
        return
    entry_id = None
    if term:
        entry = state.glossary.get(term) or state.index.search(term).entry
        entry_id = entry.id if entry else term
    await _thinking(interaction)
    try:
        records = await state.store.list_aliases(scope_of(interaction), entry_id)
    except StorageError:
        await _reply(interaction, "The database is not available right now.")
        return
    if not records:
        await _reply(interaction, "No aliases yet. Add one with `/alias add`.")
        return
    lines = []
    for r in records:
        entry = state.glossary.get(r.entry_id)
        lines.append(
            f"“{echo(r.text)}” → {entry.display_title if entry else r.entry_id} (by <@{r.added_by}>)"
        )
    embed = discord.Embed(
        title=f"{len(records)} alias{'es' if len(records) != 1 else ''} in this server",
        description=fit("\n".join(lines), limits.EMBED_DESCRIPTION),
        colour=0x5865F2,
    )
    await interaction.followup.send(embed=embed, ephemeral=True, allowed_mentions=NO_MENTIONS)


Period = Literal["day", "week", "month", "all"]
TOP = 10


class MissToAliasSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"gb:miss2alias"):
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
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> MissToAliasSelect:
        return cls(list(getattr(item, "options", [])))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if not can_moderate(interaction):
            await _reply(interaction, "Only moderators (Manage Server) can add aliases.")
            return
        entry_id, _, miss = self.item.values[0].partition(" ")
        await add_alias(interaction, miss, entry_id)


@glossary_group.command(
    name="stats", description="Most looked-up terms and missed searches (moderators)"
)
@app_commands.describe(period="How far back to count (default: this week)")
@moderators_only
async def stats(interaction: discord.Interaction[Any], period: Period = "week") -> None:
    state = state_of(interaction)
    scope = scope_of(interaction)
    if state.store is None:
        await _reply(interaction, "The database is not available right now.")
        return
    since = period_start(period, discord.utils.utcnow())
    await _thinking(interaction)
    try:
        total = await state.store.total_lookups(scope, since)
        top = await state.store.top_terms(scope, since, TOP)
        misses = await state.store.top_misses(scope, since, limits.SELECT_OPTIONS)
    except StorageError:
        await _reply(interaction, "The database is not available right now.")
        return
    label = {"day": "today", "week": "this week", "month": "this month", "all": "all time"}[period]
    embed = discord.Embed(
        title=f"Glossary lookups, {label}", description=f"**{total}** lookups", colour=0x5865F2
    )
    glossary = state.glossary
    top_lines = [
        f"{n}. {glossary[e].display_title if e in glossary else e}: {c}"
        for n, (e, c) in enumerate(top, 1)
    ]
    embed.add_field(
        name="Most looked up", value=fit("\n".join(top_lines) or "Nothing yet.", 1024), inline=False
    )
    miss_lines = [f"“{echo(m.query)}”: {m.count}×" for m in misses[:TOP]]
    embed.add_field(
        name="Searches that found nothing",
        value=fit("\n".join(miss_lines) or "None. 🎉", 1024),
        inline=False,
    )

    options = []
    for miss in misses:
        guess = state.index.search(miss.query)
        target = guess.entry or (
            glossary.get(guess.suggestions[0].id) if guess.suggestions else None
        )
        value = f"{target.id} {miss.query}" if target else ""
        if target and len(value) <= limits.SELECT_OPTION_TEXT:
            options.append(
                discord.SelectOption(
                    label=fit(f"“{miss.query}” → {target.title}", limits.SELECT_OPTION_TEXT),
                    value=value,
                    description=fit(
                        f"missed {miss.count}×; add as an alias of {target.title}",
                        limits.SELECT_OPTION_TEXT,
                    ),
                )
            )
    view = None
    if options:
        view = discord.ui.View(timeout=None)
        view.add_item(MissToAliasSelect(options))
        embed.set_footer(
            text="Pick a miss below to add it as an alias, or use /alias add for another term."
        )
    kwargs: dict[str, Any] = {"view": view} if view else {}
    await interaction.followup.send(
        embed=embed, ephemeral=True, allowed_mentions=NO_MENTIONS, **kwargs
    )
