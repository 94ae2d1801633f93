"""`Store.alias_removal` on each backend: why a server has no alias of a name (left45 item 2:
`/alias remove` of an alias removed with its term said only "This server has no alias")."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta

from bot.glossary.server_terms import ServerTerm
from bot.term_storage import TermChange, change_terms

from .conftest import FakeClock, OpenStore


async def test_an_alias_removed_with_its_term_alone_or_never(
    open_any: OpenStore, clock: FakeClock
) -> None:
    store = await open_any()
    term = ServerTerm(
        id="t1", title="Zorblax", definition="Ours, for tests.", category="Fundamentals"
    )
    await change_terms(store, 1, lambda *_: (TermChange(put=(term,)), None), 7)
    for key, entry_id in (("blorp", "t1"), ("frob", "t1"), ("quux", "rag")):
        await store.add_alias(1, key, key, entry_id, 7)
    assert await store.alias_removal(1, "blorp") is None  # there
    assert await store.alias_removal(1, "never") is None
    await store.remove_alias(1, "frob", 7)  # alone, by the one who later removes the term
    clock.advance(seconds=5)
    await store.remove_alias(1, "quux", 8)

    def remove(_: object, aliases: Mapping[str, str]) -> tuple[TermChange, None]:
        gone = tuple(key for key, entry_id in aliases.items() if entry_id == "t1")
        return TermChange(remove=("t1",), drop_aliases=gone), None

    clock.advance(seconds=5)
    await change_terms(store, 1, remove, 7)
    with_term = await store.alias_removal(1, "blorp")
    assert with_term is not None
    assert with_term.term is not None
    assert (with_term.term.term_id, with_term.term.action) == ("t1", "term_remove")
    assert with_term.at == clock()
    alone = await store.alias_removal(1, "frob")
    assert alone is not None
    assert alone.term is None
    assert alone.at == clock() - timedelta(seconds=10)
    quux = await store.alias_removal(1, "quux")
    assert quux is not None
    assert quux.term is None
    assert await store.alias_removal(2, "blorp") is None  # another server's
    await store.add_alias(1, "blorp", "blorp", "rag", 7)  # back: no longer removed
    assert await store.alias_removal(1, "blorp") is None
