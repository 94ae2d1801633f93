"""What a member asked, read as `/define`, a mention and `glossary-bot search` read it: one home,
so the terminal answers as the bot does."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.glossary.links import only_links, without_links

if TYPE_CHECKING:
    from bot.search.index import Aliases, SearchIndex
    from bot.search.results import SearchResult


def search_asked(index: SearchIndex, text: str, aliases: Aliases = None) -> SearchResult:
    """`text` searched, or, where it finds no card, its words without their links where those
    open one: "rag https://discord.com/channels/…" (where the member met it) asks about rag,
    and a link names no term (Explain terms reads none in one). Otherwise the whole, as
    before: its miss or offers, a link alone's answer."""
    whole = index.search(text, aliases)
    if whole.entry is not None or only_links(text):
        return whole
    words = " ".join(without_links(text).split())
    if words == " ".join(text.split()) or not re.search(r"\w", words):
        return whole
    alone = index.search(words, aliases)
    return alone if alone.entry is not None else whole
