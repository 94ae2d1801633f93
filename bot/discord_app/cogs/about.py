"""`/glossary about`: what this bot is, what it knows, and how to ask for a missing term."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import __version__, limits
from bot.cards.embed import BRAND_COLOUR
from bot.discord_app.errors import NO_MENTIONS
from bot.discord_app.state import BotState
from bot.glossary.letters import fit
from bot.sizes import said_count

if TYPE_CHECKING:
    from bot.discord_app.app import GlossaryBot

    Interaction = discord.Interaction[GlossaryBot]

# The field is named "Missing a term?": its text is what to do, for a member first.
REPORT_HINT = (
    "In a server, ask for it with `/suggest` (or **Suggest it** under a “No entry”): its "
    "moderators add terms with `/term add`, teach it their own words with `/alias add`, and see "
    "searches that found nothing in `/stats`. To add a term for everyone, open an issue or "
    "edit the glossary's `data/` files and run `glossary-bot check`."
)


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
@app_commands.allowed_installs(guilds=True, users=False)
class AboutCog(commands.GroupCog, group_name="glossary", group_description="About this glossary"):
    def __init__(self, state: BotState) -> None:
        self.state = state
        super().__init__()

    @app_commands.command(
        name="about", description="Version, entries per source, how to report a missing term"
    )
    async def about(self, interaction: Interaction) -> None:
        glossary = self.state.glossary
        embed = discord.Embed(
            title="Glossary Bot",
            description=(
                "Answers `/define <term>` with a card: the definition, what the term does **not** "
                "mean, and related terms to explore. Typos, plurals, acronyms and descriptions "
                "work."
            ),
            colour=BRAND_COLOUR,
        )
        per_source = "\n".join(
            f"{source.name}: {said_count(n, 'definition')}"
            for source, n in glossary.definitions_per_source()
        )
        entries = said_count(len(glossary), "entry", "entries")
        embed.add_field(
            name=f"{entries} from {said_count(len(glossary.sources), 'source')}",
            value=fit(per_source, limits.EMBED_FIELD_VALUE),
            inline=False,
        )
        embed.add_field(name="Missing a term?", value=REPORT_HINT, inline=False)
        embed.set_footer(text=f"glossary-bot {__version__}")
        await interaction.response.send_message(
            embed=embed, ephemeral=True, allowed_mentions=NO_MENTIONS
        )
