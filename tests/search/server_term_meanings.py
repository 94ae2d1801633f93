"""Server terms of made-up communities and how a member would describe each without its name.

Written before looking at how server terms are matched (issue 12: a server term is found by
meaning like a bundled entry). Shared by the search-level and the Discord-level tests.
"""

from __future__ import annotations

from bot.glossary.server_terms import ServerTerm

STANDUP_BINGO = ServerTerm(
    id="standup-bingo",
    title="Standup Bingo",
    definition=(
        "A game played during the daily team meeting: each square of the card holds a phrase "
        "people keep repeating, like 'blocked on review' or 'quick sync', and the first to "
        "complete a row wins the coffee run."
    ),
    category="Fundamentals",
)
GLORP = ServerTerm(
    id="glorp",
    title="Glorp",
    definition=(
        "The on-call engineer's handover note, written at the end of each shift: open "
        "incidents, alerts that fired, and anything the next person should keep an eye on."
    ),
    category="Fundamentals",
)
RAID_TAX = ServerTerm(
    id="raid-tax",
    title="Raid Tax",
    definition=(
        "The share of loot each member gives to the guild bank after a dungeon run, spent on "
        "repairs and potions for everyone."
    ),
    category="Fundamentals",
)

TERMS = (STANDUP_BINGO, GLORP, RAID_TAX)

# (a member's description, the term it means)
DESCRIBED = (
    ("the game where we tick off phrases everyone says in the morning meeting", STANDUP_BINGO),
    ("document you leave for the next person on call when your shift ends", GLORP),
    ("portion of the treasure players hand over to the clan's shared stash", RAID_TAX),
)
