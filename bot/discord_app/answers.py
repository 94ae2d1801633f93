"""Turning a search result into what Discord shows, for /define and for mentions alike."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.cards.fit import fit
from bot.cards.text import how_matched
from bot.discord_app.components import card_message, suggestions_view
from bot.discord_app.errors import NO_MENTIONS
from bot.discord_app.state import BotState
from bot.search.results import SearchResult

ECHO_LIMIT = 100  # how much of the user's own text we repeat back


@dataclass
class Answer:
    content: str | None
    embed: discord.Embed | None
    view: discord.ui.View | None
    private: bool  # "no entry" answers only concern the person who asked

    def message_parts(self) -> dict[str, Any]:
        """What to send, as keyword arguments for any of discord.py's send or reply calls."""
        parts: dict[str, Any] = {"allowed_mentions": NO_MENTIONS}
        if self.content is not None:
            parts["content"] = self.content
        if self.embed is not None:
            parts["embed"] = self.embed
        if self.view is not None:
            parts["view"] = self.view
        return parts


def echo(text: str) -> str:
    """User text safe to repeat: no pings, no markdown, no line breaks, bounded length."""
    flat = " ".join(text.split())
    return discord.utils.escape_markdown(discord.utils.escape_mentions(fit(flat, ECHO_LIMIT)))


async def answer_for(state: BotState, result: SearchResult, owner_id: int, scope: int) -> Answer:
    """Build the answer and count it: a card is a lookup, an honest "no entry" a miss."""
    if result.status == "match" and result.entry is not None:
        state.record_lookup(scope, result.entry.id)
        embed, card_view = await card_message(
            state, result.entry, owner_id, scope, matched=how_matched(result)
        )
        return Answer(None, embed, card_view, private=False)
    view = suggestions_view(result.suggestions, owner_id) if result.suggestions else None
    if result.status == "suggest" and result.suggestions:
        return Answer(f"Did you mean one of these for “{echo(result.query)}”?", None, view, False)
    state.record_miss(scope, result.normalized_query)
    text = f"No entry for “{echo(result.query)}”."
    if result.suggestions:
        text += " The closest terms are below."
    else:
        text += " Try another spelling, or ask a moderator to add it as an alias."
    return Answer(text, None, view, private=True)
