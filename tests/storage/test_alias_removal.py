"""`Store.alias_removal` on each backend: why a server has no alias of a name (left45 item 2:
`/alias remove` of an alias removed with its term said only "This server has no alias")."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import timedelta
from pathlib import Path

from bot.glossary.server_terms import ServerTerm
from bot.term_storage import TermChange, change_terms

from .conftest import Databases, FakeClock, OpenStore
from .test_terms_store import schema_at


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


def _put(term: ServerTerm) -> Callable[..., tuple[TermChange, None]]:
    return lambda *_: (TermChange(put=(term,)), None)


def _remove_term(term_id: str) -> Callable[[object, Mapping[str, str]], tuple[TermChange, None]]:
    """The term's removal, taking its aliases with it (as `/term remove` plans it)."""

    def plan(_: object, aliases: Mapping[str, str]) -> tuple[TermChange, None]:
        gone = tuple(key for key, entry_id in aliases.items() if entry_id == term_id)
        return TermChange(remove=(term_id,), drop_aliases=gone), None

    return plan


ZORBLAX = ServerTerm(
    id="t1", title="Zorblax", definition="Ours, for tests.", category="Fundamentals"
)


async def test_an_alias_removed_alone_in_its_terms_second_is_alone(open_any: OpenStore) -> None:
    """left47 item 1 (left45's limit, review46's attack 6): the removal was matched to its term's
    by actor and second, so an alias removed alone by the moderator who removes its term in that
    same second read "removed with its term"; and one removed alone in the second its term had
    been removed earlier (term and alias added again since) too. The clock does not move here:
    every write is in one second, by one moderator."""
    store = await open_any()
    await change_terms(store, 1, _put(ZORBLAX), 7)
    for key in ("blorp", "frob"):
        await store.add_alias(1, key, key, "t1", 7)
    await store.remove_alias(1, "frob", 7)  # alone
    await change_terms(store, 1, _remove_term("t1"), 7)  # takes blorp with it
    frob = await store.alias_removal(1, "frob")
    assert frob is not None
    assert frob.term is None
    blorp = await store.alias_removal(1, "blorp")
    assert blorp is not None
    assert blorp.term is not None
    assert (blorp.term.term_id, blorp.term.action) == ("t1", "term_remove")
    await change_terms(store, 1, _put(ZORBLAX), 7)  # back, its alias too: then the alias alone
    await store.add_alias(1, "blorp", "blorp", "t1", 7)
    await store.remove_alias(1, "blorp", 7)
    again = await store.alias_removal(1, "blorp")
    assert again is not None
    assert again.term is None


async def test_a_copy_keeps_which_aliases_went_with_their_term(
    open_any: OpenStore, tmp_path: Path
) -> None:
    """`migrate-db` gives the logs' rows new ids after the target's own: what links an alias's
    removal to its term's must survive that."""
    source = await open_any(str(tmp_path / "source.db"))
    await change_terms(source, 1, _put(ZORBLAX), 7)
    for key in ("blorp", "frob"):
        await source.add_alias(1, key, key, "t1", 7)
    await source.remove_alias(1, "frob", 7)
    await change_terms(source, 1, _remove_term("t1"), 7)
    target = await open_any()
    other = ServerTerm(
        id="t1", title="Other", definition="The target's own.", category="Fundamentals"
    )
    await change_terms(target, 1, _put(other), 9)  # the target's own rows come first
    await target.add_alias(1, "zz", "zz", "t1", 9)
    await change_terms(target, 1, _remove_term("t1"), 9)
    await source.copy_into(target, force=True)  # onto the target's own, as --force
    for store in (source, target):
        blorp, frob = await store.alias_removal(1, "blorp"), await store.alias_removal(1, "frob")
        assert blorp is not None
        assert blorp.term is not None
        assert (blorp.term.actor_id, blorp.term.term_id) == (7, "t1")
        assert frob is not None
        assert frob.term is None
    zz = await target.alias_removal(1, "zz")
    assert zz is not None
    assert zz.term is not None
    assert zz.term.actor_id == 9


async def test_a_removal_logged_before_the_link_keeps_the_old_match(
    databases: Databases, location: str, open_any: OpenStore
) -> None:
    """Rows written by a bot before the link was kept (schema 6) carry none: their alias
    removal is still matched by actor and second, as then."""
    await schema_at(databases, location, 6)
    for sql in (
        "INSERT INTO term_audit_log (at, scope, actor_id, action, term_id, before, after)"
        " VALUES (1700000000, 1, 7, 'term_remove', 't1', '{}', NULL)",
        "INSERT INTO audit_log (at, scope, actor_id, action, alias_key, before, after)"
        " VALUES (1700000000, 1, 7, 'alias_remove', 'blorp', 't1', NULL)",
        "INSERT INTO audit_log (at, scope, actor_id, action, alias_key, before, after)"
        " VALUES (1700000000, 1, 8, 'alias_remove', 'frob', 't1', NULL)",
    ):
        await databases.execute(location, sql)
    store = await open_any()  # migrates to the latest schema
    blorp = await store.alias_removal(1, "blorp")
    assert blorp is not None
    assert blorp.term is not None
    assert blorp.term.term_id == "t1"
    frob = await store.alias_removal(1, "frob")
    assert frob is not None
    assert frob.term is None
