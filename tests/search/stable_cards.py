"""Glossaries that differ from the bundled one only where a card should not care (issue #12,
"calibrated confidence"; task layer47): one unrelated entry made longer, one unrelated entry given
a phrasing of its own, a server's 200 terms added. Shared by `test_layer47.py` and
`bench/card_stability.py`.

The server's terms were made up for this (a board-game and crafts community), before reading how
search weighs words; they share everyday words with chat ("night", "team", "table", "run") as a
real server's do, and no name with the glossary.
"""

from __future__ import annotations

from itertools import product

from bot.glossary import Glossary
from bot.glossary.server_terms import ServerTerm
from bot.search import SearchIndex
from bot.search.local import compile_local

# An entry far from every probe: its text lengthened or added to must move no other card.
UNRELATED = "small-modular-reactor"
# A phrasing in a question's voice, of the everyday words content tasks add (asked46's kind).
PHRASING = "what's the power plant small enough to build in a factory and ship by truck"

_WHEN = ("Friday", "Sunday", "monthly", "weekly", "late-night", "holiday", "morning", "summer")
_WHAT = (
    "Meeple Market",
    "Dice Drop",
    "Glue Guild",
    "Yarn Swap",
    "Card Cellar",
    "Paint Table",
    "Token Tithe",
    "Bead Bazaar",
    "Felt Fair",
    "Rules Court",
    "Sleeve Stack",
    "Map Room",
    "Scrap Club",
    "Spinner Spot",
    "Loot Ledger",
    "Quest Board",
    "Stitch Circle",
    "Mini Muster",
    "Box Bench",
    "Tile Trade",
    "Pawn Patrol",
    "Wool Watch",
    "Brush Bank",
    "Clay Corner",
    "Deck Dock",
)
_DOES = (
    "where members swap spare pieces and unfinished projects",
    "where the newest games are taught table by table",
    "where the team keeps score of who hosted and who brought snacks",
    "where anyone can ask the moderators to settle a rules argument",
    "where finished crafts are shown and voted on by the whole server",
    "where a volunteer runs a beginner-friendly session in voice chat",
    "where lost and borrowed items are listed until they go home",
    "where the shop's discount codes are shared once a month",
)


def guild_terms(count: int = 200) -> tuple[ServerTerm, ...]:
    """`count` (up to 200) terms of one made-up community, each its own title and wording."""
    terms = []
    for number, (when, what) in enumerate(product(_WHEN, _WHAT)):
        if number == count:
            break
        does = _DOES[number % len(_DOES)]
        terms.append(
            ServerTerm(
                id=f"guild-{number}",
                title=f"{when.title()} {what}",
                definition=f"The server's {when} {what.lower()} channel, {does}.",
                category="Fundamentals",
            )
        )
    return tuple(terms)


def lengthened(glossary: Glossary, entry_id: str = UNRELATED) -> Glossary:
    """The glossary with one entry's definition written out three times: that entry's text is
    longer, no word is in more or fewer entries."""
    return _changed(glossary, entry_id, lambda e: {"definition": " ".join([e.definition] * 3)})


def with_phrasing(
    glossary: Glossary, entry_id: str = UNRELATED, phrasing: str = PHRASING
) -> Glossary:
    """The glossary with one more asked-as phrasing on one entry (a content task's change)."""
    return _changed(glossary, entry_id, lambda e: {"asked_as": (*e.asked_as, phrasing)})


def variants(bundled: Glossary, base: SearchIndex) -> dict[str, SearchIndex]:
    """The indexes of the three glossaries (`base` is `bundled`'s): the first two as a glossary
    reload builds them, the server's as the bot compiles a server's terms; the meaning stage is
    `base`'s throughout (what moves is the words' statistics)."""
    semantic = base.semantic or False
    return {
        "lengthened": SearchIndex.build(lengthened(bundled), semantic=semantic),
        "phrasing": SearchIndex.build(with_phrasing(bundled), semantic=semantic),
        "server 200": compile_local(bundled, base, guild_terms(), {}).index,
    }


def _changed(glossary: Glossary, entry_id: str, update) -> Glossary:  # type: ignore[no-untyped-def]
    entries = tuple(e.model_copy(update=update(e)) if e.id == entry_id else e for e in glossary)
    return Glossary(entries, glossary.sources)
