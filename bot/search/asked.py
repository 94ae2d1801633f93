"""What a member asked, read as `/define`, a mention and `glossary-bot search` read it: one home,
so the terminal answers as the bot does."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from bot.glossary.links import only_links, without_links
from bot.search.ranking import MAX_SUGGESTIONS
from bot.search.results import Suggestion

if TYPE_CHECKING:
    from bot.search.index import Aliases, SearchIndex
    from bot.search.results import SearchResult


def search_asked(index: SearchIndex, text: str, aliases: Aliases = None) -> SearchResult:
    """`text` searched, or, where it finds no card, its words without their links where those
    open one: "rag https://discord.com/channels/…" (where the member met it) asks about rag,
    and a link names no term (Explain terms reads none in one). Otherwise the whole, as
    before: its miss or offers. A link alone opens no card, whatever its address holds."""
    whole = index.search(text, aliases)
    if only_links(text):
        return _address_offered(whole)
    if whole.entry is not None:
        return whole
    words = " ".join(without_links(text).split())
    if words == " ".join(text.split()) or not re.search(r"\w", words):
        return whole
    alone = index.search(words, aliases)
    return alone if alone.entry is not None else whole


def _address_offered(result: SearchResult) -> SearchResult:
    """A card that only a link's address opened ("https://github.com/vllm-project/vllm") as the
    first offer instead: a link names no term (README), and the reply says it is a link."""
    if result.entry is None or result.strategy is None:  # a card always says how it was found
        return result
    card = Suggestion(result.entry.id, result.entry.title, result.score, result.strategy)
    offers = (card, *result.suggestions)[:MAX_SUGGESTIONS]
    return replace(result, status="suggest", entry=None, suggestions=offers, other_side=None)
