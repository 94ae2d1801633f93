"""Buttons and selects that open cards. Their custom ids carry what they open (discord.py's
DynamicItem), so they keep working days later and after a restart: no view state in memory.

Whoever ran the command navigates in place; anyone else who clicks gets the card for themselves,
ephemerally, and the original message stays as it was.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands

from bot import limits
from bot.cards.embed import card_layout, render_card, render_sources
from bot.cards.fit import fit
from bot.discord_app.errors import NO_MENTIONS, guarded
from bot.glossary import Entry
from bot.search.results import Suggestion

if TYPE_CHECKING:
    from bot.discord_app.state import BotState

T = TypeVar("T")
ENTRY = r"(?P<entry>[a-z0-9][a-z0-9-]{0,70})"
OWNER = r"(?P<owner>[0-9]{1,20})"


def state_of(interaction: discord.Interaction[Any]) -> BotState:
    state: BotState = interaction.client.state
    return state


def scope_of(interaction: discord.Interaction[Any]) -> int:
    return interaction.guild_id or 0


def user_cooldown(interaction: discord.Interaction[Any]) -> app_commands.Cooldown:
    uses, seconds = state_of(interaction).cooldown
    return app_commands.Cooldown(uses, seconds)


def per_user_cooldown() -> Callable[[T], T]:
    """A per-user cooldown check of its own for each command it decorates."""
    return app_commands.checks.dynamic_cooldown(user_cooldown, key=lambda i: i.user.id)


class OpenButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"gb:open:{ENTRY}:{OWNER}"
):
    def __init__(self, entry_id: str, owner_id: int, label: str, *, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=fit(label, limits.BUTTON_LABEL),
                style=discord.ButtonStyle.secondary,
                custom_id=f"gb:open:{entry_id}:{owner_id}",
            ),
            row=row,
        )
        self.entry_id, self.owner_id = entry_id, owner_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> OpenButton:
        label = getattr(item, "label", None) or match["entry"]
        return cls(match["entry"], int(match["owner"]), label)

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await open_card(interaction, self.entry_id, self.owner_id)


class PlainButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"gb:plain:{ENTRY}:{OWNER}:(?P<show>[01])",
):
    """Toggles between the plain-words version and the full definition."""

    def __init__(self, entry_id: str, owner_id: int, show_plain: bool) -> None:
        super().__init__(
            discord.ui.Button(
                label="Plain words" if show_plain else "Full definition",
                emoji="💬" if show_plain else "📖",
                style=discord.ButtonStyle.primary,
                custom_id=f"gb:plain:{entry_id}:{owner_id}:{int(show_plain)}",
            ),
            row=3,
        )
        self.entry_id, self.owner_id, self.show_plain = entry_id, owner_id, show_plain

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> PlainButton:
        return cls(match["entry"], int(match["owner"]), match["show"] == "1")

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await open_card(
            interaction, self.entry_id, self.owner_id, plain=self.show_plain, count=False
        )


class SourcesButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"gb:src:{ENTRY}"):
    """Every source's own wording, for entries whose other wordings are too long for the card."""

    def __init__(self, entry_id: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Other sources",
                emoji="📚",
                style=discord.ButtonStyle.secondary,
                custom_id=f"gb:src:{entry_id}",
            ),
            row=3,
        )
        self.entry_id = entry_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> SourcesButton:
        return cls(match["entry"])

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        state = state_of(interaction)
        entry = state.glossary.get(self.entry_id)
        if entry is None:
            await _gone(interaction)
            return
        await interaction.response.send_message(
            embed=render_sources(entry, state.glossary),
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )


class PickSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"gb:pick:{OWNER}"):
    """A menu of entries (related terms beyond the buttons, or the terms found in a message)."""

    def __init__(
        self, owner_id: int, options: list[discord.SelectOption], *, placeholder: str, row: int
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"gb:pick:{owner_id}",
                placeholder=fit(placeholder, 150),
                options=options[: limits.SELECT_OPTIONS] or [discord.SelectOption(label="-")],
            ),
            row=row,
        )
        self.owner_id = owner_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> PickSelect:
        options = list(getattr(item, "options", []))
        return cls(int(match["owner"]), options, placeholder="", row=0)

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        if not values:
            await interaction.response.defer()
            return
        await open_card(interaction, values[0], self.owner_id)


def entry_option(entry: Entry) -> discord.SelectOption:
    description = entry.summary or entry.definition
    return discord.SelectOption(
        label=fit(entry.display_title, limits.SELECT_OPTION_TEXT),
        value=entry.id,
        description=fit(description, limits.SELECT_OPTION_TEXT),
    )


def card_view(
    state: BotState, entry: Entry, owner_id: int, *, plain: bool = False
) -> discord.ui.View:
    layout = card_layout(entry, state.glossary)
    view = discord.ui.View(timeout=None)  # every item is dynamic: nothing is kept in memory
    for n, related in enumerate(layout.related_buttons):
        view.add_item(
            OpenButton(related.id, owner_id, related.title, row=n // limits.BUTTONS_PER_ROW)
        )
    if layout.related_select:
        options = [entry_option(e) for e in layout.related_select]
        view.add_item(PickSelect(owner_id, options, placeholder="More related terms…", row=2))
    if layout.has_plain:
        view.add_item(PlainButton(entry.id, owner_id, show_plain=not plain))
    if layout.sources_button:
        view.add_item(SourcesButton(entry.id))
    return view


def suggestions_view(suggestions: tuple[Suggestion, ...], owner_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for suggestion in suggestions[: limits.BUTTONS_PER_ROW]:
        view.add_item(OpenButton(suggestion.id, owner_id, suggestion.title, row=0))
    return view


async def card_message(
    state: BotState,
    entry: Entry,
    owner_id: int,
    scope: int,
    *,
    matched: str | None = None,
    plain: bool = False,
) -> tuple[discord.Embed, discord.ui.View]:
    lookups = await state.lookup_count(scope, entry.id)
    embed = render_card(entry, state.glossary, matched=matched, lookups=lookups, plain=plain)
    return embed, card_view(state, entry, owner_id, plain=plain)


async def open_card(
    interaction: discord.Interaction[Any],
    entry_id: str,
    owner_id: int,
    *,
    plain: bool = False,
    count: bool = True,
) -> None:
    state = state_of(interaction)
    entry = state.glossary.get(entry_id)
    if entry is None:
        await _gone(interaction)
        return
    scope = scope_of(interaction)
    if count:
        state.record_lookup(scope, entry.id)
    if interaction.user.id == owner_id:
        embed, view = await card_message(state, entry, owner_id, scope, plain=plain)
        await interaction.response.edit_message(content=None, embed=embed, view=view)
    else:
        embed, view = await card_message(state, entry, interaction.user.id, scope, plain=plain)
        await interaction.response.send_message(
            embed=embed, view=view, ephemeral=True, allowed_mentions=NO_MENTIONS
        )


async def _gone(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message(
        "That entry is no longer in the glossary.", ephemeral=True, allowed_mentions=NO_MENTIONS
    )


DYNAMIC_ITEMS = (OpenButton, PlainButton, SourcesButton, PickSelect)
