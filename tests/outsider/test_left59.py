"""left59 (PLAN.md, "Leftovers (left59)"): answers naming many titles or aliases, without
Discord."""

from __future__ import annotations

from bot import limits
from bot.discord_app.cogs.terms import aliases_named, still_pointed_at
from bot.glossary.server_terms import ServerTerm


def _term(n: int) -> ServerTerm:
    title = f"Zorb {n} " + "long words " * 30  # past what an answer repeats of a title (100)
    return ServerTerm(id=f"zorb-{n}", title=title, definition="Ours.", category="Fundamentals")


def test_an_answer_naming_twenty_long_names_fits_a_message() -> None:
    """`/term remove`'s refusal named each related term's title at up to 100 characters (20,
    then "and 4 more"): 2,270 characters, past a message's 2,000, which Discord refuses; and
    its prompt named each alias going with the term as much (2,097 for 25 of 100 characters),
    so such a term could not be removed. Now the names share the room: all 20 shown, each
    apart, the answer within a message."""
    refusal = still_pointed_at(_term(0), [_term(n) for n in range(1, 25)])
    assert len(refusal) <= limits.MESSAGE_CONTENT - 200, len(refusal)
    assert refusal.endswith("so no card points at nothing."), refusal[-80:]
    assert "and 4 more" in refusal
    named = refusal.split("“")[1:]
    assert len(set(named)) == len(named) == 21, named
    aliases = aliases_named([f"alias {n} " + "x" * 92 for n in range(25)])
    assert len(aliases) <= limits.MESSAGE_CONTENT - 400, len(aliases)
    assert "and 5 more" in aliases
    assert len(set(aliases.split("“")[1:])) == 20, aliases
