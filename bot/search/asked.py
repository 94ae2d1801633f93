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


def search_asked(
    index: SearchIndex, text: str, aliases: Aliases = None, *, start_only: bool = False
) -> SearchResult:
    """`text` searched as a member asked it. Beside a link, the member's own words decide: a
    card they open without the link is the answer ("rag https://discord.com/channels/…",
    "https://…/wiki/Retrieval-augmented_generation what is a vector database?": the address
    names the page, not what is asked; Explain terms reads no term in one). Where they open
    none, the whole, address and all ("https://github.com/vllm-project/vllm anyone tried
    this?"). A link alone opens no card, whatever its address holds. `start_only`: as
    `SearchIndex.search` takes it."""
    if only_links(text):
        return _address_offered(index.search(text, aliases, start_only=start_only))
    words = " ".join(without_links(text).split())
    if words != " ".join(text.split()) and re.search(r"\w", words):
        alone = index.search(words, aliases, start_only=start_only)
        if alone.entry is not None:
            return alone
    return index.search(text, aliases, start_only=start_only)


def _address_offered(result: SearchResult) -> SearchResult:
    """A card that only a link's address opened ("https://github.com/vllm-project/vllm") as the
    first offer instead: a link names no term (README), and the reply says it is a link."""
    if result.entry is None or result.strategy is None:  # a card always says how it was found
        return result
    card = Suggestion(result.entry.id, result.entry.title, result.score, result.strategy)
    offers = (card, *result.suggestions)[:MAX_SUGGESTIONS]
    return replace(result, status="suggest", entry=None, suggestions=offers, other_side=None)
