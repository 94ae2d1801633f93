"""`/glossary about`: what this bot is, what it knows, and how to ask for a missing term."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot import __version__, limits
from bot.cards.fit import fit
from bot.discord_app.components import state_of
from bot.discord_app.errors import NO_MENTIONS

REPORT_HINT = (
    "Missing a term? A moderator can teach this server its own words with `/alias add`, and "
    "searches that found nothing show up in `/glossary stats`. To add a term for everyone, "
    "open an issue or edit the glossary's `data/` files and run `glossary-bot check`."
)

glossary_group = app_commands.Group(
    name="glossary",
    description="About this glossary, and its lookup statistics",
    allowed_contexts=app_commands.AppCommandContext(
        guild=True, dm_channel=True, private_channel=True
    ),
    allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
)


@glossary_group.command(
    name="about", description="Version, entries per source, how to report a missing term"
)
async def about(interaction: discord.Interaction[Any]) -> None:
    glossary = state_of(interaction).glossary
    embed = discord.Embed(
        title="Glossary Bot",
        description=(
            "Answers `/define <term>` with a card: the definition, what the term does **not** "
            "mean, and related terms to explore. Typos, plurals, acronyms and descriptions work."
        ),
        colour=0x5865F2,
    )
    per_source = "\n".join(
        f"{source.name}: {n} definitions" for source, n in glossary.definitions_per_source()
    )
    embed.add_field(
        name=f"{len(glossary)} entries from {len(glossary.sources)} sources",
        value=fit(per_source, limits.EMBED_FIELD_VALUE),
        inline=False,
    )
    embed.add_field(name="Missing a term?", value=REPORT_HINT, inline=False)
    embed.set_footer(text=f"glossary-bot {__version__}")
    await interaction.response.send_message(
        embed=embed, ephemeral=True, allowed_mentions=NO_MENTIONS
    )
