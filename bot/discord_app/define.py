"""`/define term:<autocomplete> [private]`: the card for a term."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot import limits
from bot.cards.fit import fit
from bot.discord_app.answers import answer_for
from bot.discord_app.components import per_user_cooldown, scope_of, state_of


@app_commands.command(
    name="define", description="Look up a term: definition, what it is not, related terms"
)
@app_commands.describe(
    term="The term, an acronym, or a short description",
    private="Only you see the answer (default: everyone in the channel)",
)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
@app_commands.allowed_installs(guilds=True, users=False)
@per_user_cooldown()
async def define(interaction: discord.Interaction[Any], term: str, private: bool = False) -> None:
    state = state_of(interaction)
    scope = scope_of(interaction)
    overlay = state.cached_overlay(scope)
    deferred = False
    if overlay is None and scope:
        # This server's aliases are not cached yet: reading them may be slow, so acknowledge first.
        await interaction.response.defer(ephemeral=private, thinking=True)
        deferred = True
        overlay = await state.overlay(scope)
    result = state.index.search(term, overlay)
    answer = await answer_for(state, result, interaction.user.id, scope)
    ephemeral = private or answer.private
    kwargs = answer.message_parts()
    if not deferred:
        await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
    elif ephemeral and not private:
        # Deferred in public, but a miss is only for the asker: swap for an ephemeral follow-up.
        await interaction.delete_original_response()
        await interaction.followup.send(ephemeral=True, **kwargs)
    else:
        await interaction.followup.send(ephemeral=private, **kwargs)


@define.autocomplete("term")
async def term_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    state = state_of(interaction)
    scope = scope_of(interaction)
    overlay = await state.overlay(scope)
    popular = await state.popular(scope) if not current.strip() else []
    choices = state.index.autocomplete(current, overlay, popular=popular)
    return [
        app_commands.Choice(name=fit(c.name, limits.AUTOCOMPLETE_NAME), value=c.value)
        for c in choices[: limits.AUTOCOMPLETE_CHOICES]
    ]
