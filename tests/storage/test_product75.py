"""product75 (tests/outsider/PLAN.md, "product75"): whether an id was ever a server's term, as
its term log remembers (what a button to a card gone says), on either backend."""

from __future__ import annotations

from bot.glossary.server_terms import ServerTerm
from bot.term_storage import TermChange, change_terms

from .conftest import OpenStore

ZORB = ServerTerm(id="zorb", title="Zorb", definition="A made-up zorb.", category="Fundamentals")


async def test_a_term_removed_is_still_one_the_server_had(open_any: OpenStore) -> None:
    """A term added then removed stays in its server's log (never pruned), and only there;
    an id never written, or written as a pattern or a quote, is no term of it."""
    store = await open_any()
    assert not await store.ever_a_term(5, "zorb")
    await change_terms(store, 5, lambda *_: (TermChange(put=(ZORB,)), None), 1)
    await change_terms(store, 5, lambda *_: (TermChange(remove=("zorb",)), None), 1)
    assert await store.terms(5) == []
    assert await store.ever_a_term(5, "zorb")
    assert not await store.ever_a_term(6, "zorb")  # another server's
    for hostile in ("zor%", "zorb' OR '1'='1", "", "z" * 10_000, "zörb"):
        assert not await store.ever_a_term(5, hostile), hostile
