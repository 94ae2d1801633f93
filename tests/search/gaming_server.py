"""A raiding guild's own terms (review47, written before trying them): common English titles,
texts far from the bundled field, and its aliases. Shared by tests/outsider/test_review47.py
(through the bot) and tests/search/test_alias48.py (search alone)."""

from __future__ import annotations

from bot.glossary.server_terms import ServerTerm


def _gaming(term_id: str, title: str, definition: str) -> ServerTerm:
    return ServerTerm(id=term_id, title=title, definition=definition, category="Fundamentals")


GAMING = (
    _gaming("raid", "Raid", "A scheduled group fight against a hard boss for the best loot."),
    _gaming("tank", "Tank", "The player who takes the enemies' hits and keeps their attention."),
    _gaming("aggro", "Aggro", "Which player an enemy attacks; a tank holds it with taunts."),
    _gaming("kiting", "Kiting", "Leading an enemy around while hitting it from range."),
)
# "mt": main tank
GAMING_ALIASES = {"mt": "tank", "threat": "aggro"}
