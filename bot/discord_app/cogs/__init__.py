"""The bot's commands, one cog per family, each given the bot's state. `add_cogs` is the one
place they are registered; a new command family is a new module here and a line below."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord_app.cogs.about import AboutCog
from bot.discord_app.cogs.aliases import AliasCog, AliasFileButton
from bot.discord_app.cogs.define import DefineCog
from bot.discord_app.cogs.explain import ExplainCog
from bot.discord_app.cogs.stats import MissToAliasSelect, StatsCog
from bot.discord_app.cogs.suggestions import FORM_ID as SUGGESTION_FORM
from bot.discord_app.cogs.suggestions import SuggestAgainButton, SuggestButton, SuggestCog
from bot.discord_app.cogs.term_log import LogPageButton
from bot.discord_app.cogs.terms import FORM_ID as TERM_FORM
from bot.discord_app.cogs.terms import (
    CategoryPick,
    DecideButton,
    EditAgainButton,
    RemoveButton,
    TermCog,
)
from bot.discord_app.replies import CARD_ITEMS

if TYPE_CHECKING:
    from bot.discord_app.app import GlossaryBot

# Every button and menu the bot sends, rebuilt from its custom id when clicked.
DYNAMIC_ITEMS = (
    *CARD_ITEMS,
    MissToAliasSelect,
    EditAgainButton,
    CategoryPick,
    RemoveButton,
    DecideButton,
    LogPageButton,
    AliasFileButton,
    SuggestButton,
    SuggestAgainButton,
)
# Every form the bot opens, by its custom id: its submit is handled by the cog that opened it.
FORM_IDS = (TERM_FORM, SUGGESTION_FORM)


async def add_cogs(bot: GlossaryBot) -> None:
    state = bot.state
    for cog in (
        DefineCog(bot, state),
        ExplainCog(bot, state),
        AboutCog(state),
        AliasCog(state),
        StatsCog(state),
        TermCog(bot, state),
        SuggestCog(bot, state),
    ):
        await bot.add_cog(cog)
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
