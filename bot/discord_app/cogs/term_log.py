"""`/term log`'s pages: a server's recent term changes (fields before and after) and decisions on
members' suggestions, newest first, one embed per page. "Older" and "Newest" carry the page's
place in their custom ids (the id of the last entry shown), so paging works after a restart."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot import limits
from bot.cards.embed import BRAND_COLOUR
from bot.discord_app.cogs.moderators import (
    no_database,
    read_failed,
    read_or_say,
    reply,
    still_allowed,
)
from bot.discord_app.errors import NO_MENTIONS, guarded
from bot.discord_app.items import OWNER, Restorable
from bot.discord_app.replies import echo, echo_quoted
from bot.glossary.letters import fit
from bot.storage import OPERATOR_ACTOR, StorageError, Store
from bot.term_log import LogEntry, log_entry

if TYPE_CHECKING:
    from bot.discord_app.app import GlossaryBot

    Interaction = discord.Interaction[GlossaryBot]

PAGE_ENTRIES = 10  # at most, per page; fewer when their text fills the embed
PAGE_TEXT = limits.EMBED_DESCRIPTION - 96
NO_LONGER_SHOWN = (
    "You can't read this server's term changes: that takes the right to use `/term` "
    "in this channel."
)


def entry_text(entry: LogEntry) -> str:
    """One entry in Discord markdown, every piece of stored text escaped."""
    actor = (
        "the bot"
        if entry.by_bot
        else "an operator (command line)"
        if entry.actor_id == OPERATOR_ACTOR
        else f"<@{entry.actor_id}>"
    )
    title = echo_quoted(entry.title, name=True)
    head = f"<t:{int(entry.at.timestamp())}:f> {actor} {entry.verb} {title}"
    if entry.member_id is not None:
        head += f" from <@{entry.member_id}>"
    lines = [head]
    for change in entry.changes:
        # after "> **Field**: " and "~~": a leading "#", "-" or "1." opens nothing there
        before = f"~~{echo(change.before, mid_line=True)}~~ → " if change.before else ""
        after = echo(change.after, mid_line=True) if change.after else "*(none)*"
        lines.append(f"> **{change.label}**: {before}{after}")
    return "\n".join(lines)


async def log_page(
    store: Store, scope: int, owner: int, older_than: int | None
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The page of entries before entry `older_than` (None: the newest), and its buttons."""
    records = await store.term_audit_log(scope, PAGE_ENTRIES + 1, older_than=older_than)
    blocks: list[str] = []
    last_id = None
    for record in records[:PAGE_ENTRIES]:
        block = fit(entry_text(log_entry(record)), PAGE_TEXT)
        if blocks and sum(len(b) + 2 for b in blocks) + len(block) > PAGE_TEXT:
            break
        blocks.append(block)
        last_id = record.id
    embed = discord.Embed(
        title="Term changes in this server" + (" (older)" if older_than else ""),
        description="\n\n".join(blocks)
        or ("No older changes." if older_than else "Nothing has changed yet."),
        colour=BRAND_COLOUR,
    )
    more = len(blocks) < len(records)
    view = discord.ui.View(timeout=None)
    if older_than is not None:
        view.add_item(LogPageButton(owner, None))
    if more and last_id is not None:
        view.add_item(LogPageButton(owner, last_id))
    return embed, view if view.children else None


async def send_log(interaction: Interaction) -> None:
    """`/term log`: the newest page, privately."""
    page = await read_or_say(
        interaction,
        lambda store: log_page(
            store, interaction.guild_id or 0, interaction.user.id, older_than=None
        ),
    )
    if page is None:
        return
    embed, view = page
    kwargs: dict[str, Any] = {"view": view} if view else {}
    await interaction.followup.send(
        embed=embed, ephemeral=True, allowed_mentions=NO_MENTIONS, **kwargs
    )


class LogPageButton(
    Restorable[discord.ui.Button[Any]],
    template=rf"gb:term-log:{OWNER}:(?P<older_than>[0-9]{{1,18}})",
):
    """Turns a `/term log` page: to the entries before `older_than`, or (None) the newest."""

    def __init__(self, owner_id: int, older_than: int | None) -> None:
        super().__init__(
            discord.ui.Button(
                label="Older" if older_than else "Newest",
                style=discord.ButtonStyle.secondary,
                custom_id=f"gb:term-log:{owner_id}:{older_than or 0}",
            )
        )
        self.owner_id, self.older_than = owner_id, older_than

    @classmethod
    def restore(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> LogPageButton:
        return cls(int(match["owner"]), int(match["older_than"]) or None)

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        store = interaction.client.state.store
        if interaction.user.id != self.owner_id or interaction.guild_id is None:
            await reply(interaction, "Run `/term log` to see this server's term changes.")
            return
        if store is None:
            await reply(interaction, no_database(interaction.client.state))
            return
        await interaction.response.defer()
        if not await still_allowed(interaction, NO_LONGER_SHOWN):
            return
        try:
            embed, view = await log_page(
                store, interaction.guild_id, self.owner_id, older_than=self.older_than
            )
        except StorageError:
            said = await read_failed(interaction.client.state)
            await interaction.followup.send(said, ephemeral=True)
            return
        await interaction.edit_original_response(embed=embed, view=view)
