"""The "Explain terms" message command: every glossary term in a message, one line each."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot import limits
from bot.cards.fit import fit
from bot.discord_app.components import PickSelect, entry_option, scope_of, state_of
from bot.discord_app.errors import NO_MENTIONS

MAX_LISTED = limits.SELECT_OPTIONS


@app_commands.context_menu(name="Explain terms")
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
@app_commands.allowed_installs(guilds=True, users=False)
async def explain_terms(interaction: discord.Interaction[Any], message: discord.Message) -> None:
    state = state_of(interaction)
    overlay = await state.overlay(scope_of(interaction))
    found = state.index.find_terms(message.content or "", overlay)
    entries = list(dict.fromkeys(m.entry.id for m in found))[:MAX_LISTED]
    if not entries:
        await interaction.response.send_message(
            "I found no glossary terms in that message.",
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )
        return
    glossary = state.glossary
    lines = []
    for entry_id in entries:
        entry = glossary[entry_id]
        summary = entry.summary or entry.definition
        lines.append(f"**{entry.display_title}**: {fit(summary, 140)}")
    embed = discord.Embed(
        title=f"{len(entries)} glossary term{'s' if len(entries) != 1 else ''} in this message",
        description=fit("\n".join(lines), limits.EMBED_DESCRIPTION),
        colour=0x5865F2,
    )
    embed.set_footer(text="Pick one to open its card.")
    view = discord.ui.View(timeout=None)
    options = [entry_option(glossary[e]) for e in entries]
    view.add_item(PickSelect(interaction.user.id, options, placeholder="Open a card…", row=0))
    await interaction.response.send_message(
        embed=embed, view=view, ephemeral=True, allowed_mentions=NO_MENTIONS
    )
