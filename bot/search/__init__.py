"""Finding the right entry for what people type. Imports neither discord nor the database."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.glossary.keys import compact, normalize
from bot.search.results import Choice, SearchResult, Strategy, Suggestion, TermMention

if TYPE_CHECKING:
    from bot.search.index import SearchIndex

__all__ = [
    "Choice",
    "SearchIndex",
    "SearchResult",
    "Strategy",
    "Suggestion",
    "TermMention",
    "compact",
    "normalize",
]


def __getattr__(name: str) -> Any:
    """`SearchIndex` is imported when first asked for: what only reads results (a card, the
    command line's `define`) need not load the engine."""
    if name == "SearchIndex":
        from bot.search.index import SearchIndex

        return SearchIndex
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
