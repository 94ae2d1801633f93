"""Finding the right entry for what people type. Imports neither discord nor the database."""

from bot.glossary.keys import compact, normalize
from bot.search.index import SearchIndex
from bot.search.results import Choice, SearchResult, Strategy, Suggestion, TermMention

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
