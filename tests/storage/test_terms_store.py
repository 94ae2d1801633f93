"""Server terms and suggestions in the store, on each backend: checked writes in one
transaction, serialised, audited before and after; the version other processes watch; copies."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path

from bot.glossary.server_terms import ServerTerm
from bot.storage import SuggestStatus
from bot.term_storage import Plan, TermChange, change_terms, read_terms

from .conftest import FakeClock, OpenStore


def term(n: int, definition: str = "One of our own local terms, for tests.") -> ServerTerm:
    return ServerTerm(id=f"t{n}", title=f"Term {n}", definition=definition, category="Fundamentals")


async def test_concurrent_writes_each_see_the_last_so_a_cap_holds(open_any: OpenStore) -> None:
    store, other = await open_any(), await open_any()
    cap = 5

    def add(new: ServerTerm) -> Plan[bool]:
        def plan(current: list[ServerTerm], _: object) -> tuple[TermChange | None, bool]:
            if len(current) >= cap:
                return None, False
            return TermChange(put=(new,)), True

        return plan

    results = await asyncio.gather(
        *(change_terms(s, 1, add(term(n)), 9) for n, s in enumerate([store, other] * 6))
    )
    assert sum(results) == cap
    assert len(await read_terms(store, 1)) == cap
    assert await read_terms(store, 2) == []


async def test_changes_are_audited_and_bump_the_version(open_any: OpenStore) -> None:
    store = await open_any()
    start = await store.term_version()
    await change_terms(store, 1, lambda *_: (TermChange(put=(term(1),)), None), 7)
    edited = term(1, "A better definition of our term.")
    await change_terms(store, 1, lambda *_: (TermChange(put=(edited,)), None), 8)
    await change_terms(store, 1, lambda *_: (TermChange(remove=("t1",)), None), 9)
    assert await store.term_version() > start
    audit = await store.term_audit_log(1)
    assert [(a.action, a.actor_id) for a in audit] == [
        ("term_remove", 9),
        ("term_edit", 8),
        ("term_add", 7),
    ]
    assert audit[1].before is not None
    assert ServerTerm.model_validate_json(audit[1].before) == term(1)
    assert audit[1].after is not None
    assert ServerTerm.model_validate_json(audit[1].after) == edited
    assert await store.term_audit_log(2) == []


async def test_suggestions_and_terms_copy_into_another_database(
    open_any: OpenStore, clock: FakeClock, tmp_path: Path
) -> None:
    source = await open_any(str(tmp_path / "source.db"))
    await change_terms(source, 1, lambda *_: (TermChange(put=(term(1), term(2))), None), 7)
    assert await source.add_suggestion(1, 5, "zorblax", "Our nightly job.") is SuggestStatus.ADDED
    assert await source.add_suggestion(1, 5, "again", "Too soon.") is SuggestStatus.COOLDOWN
    clock.advance(hours=1)
    assert await source.add_suggestion(1, 5, "later", "Fine now.") is SuggestStatus.ADDED
    [first, _] = await source.open_suggestions(1)
    assert await source.decide_suggestion(1, first.id, accepted=False, actor_id=3) is not None
    assert await source.decide_suggestion(1, first.id, accepted=True, actor_id=3) is None
    target = await open_any()
    report = await source.copy_into(target)
    assert report.target_after == report.source
    assert await read_terms(target, 1) == await read_terms(source, 1)
    assert [s.title for s in await target.open_suggestions(1)] == ["later"]
    assert len(await target.term_audit_log(1)) == 2


async def test_a_backup_holds_terms_and_suggestions(open_store: OpenStore, tmp_path: Path) -> None:
    store = await open_store()
    await change_terms(store, 1, lambda *_: (TermChange(put=(term(1),)), None), 7)
    await store.add_suggestion(1, 5, "zorblax", "Our nightly job.")
    await store.backup(tmp_path / "copy.db")
    copy = await open_store(str(tmp_path / "copy.db"))
    assert await read_terms(copy, 1) == [term(1)]
    assert [s.title for s in await copy.open_suggestions(1)] == ["zorblax"]
    assert len(await copy.term_audit_log(1)) == 1


async def test_a_term_write_sees_aliases_and_removes_those_it_orphans(
    open_any: OpenStore,
) -> None:
    """The plan gets the server's aliases as another process left them, inside the write; the
    aliases it drops go in the same transaction, each audited as an alias removal."""
    store, other = await open_any(), await open_any()
    await change_terms(store, 1, lambda *_: (TermChange(put=(term(1), term(2))), None), 7)
    for key, entry_id in (("blorp", "t1"), ("frob", "t2"), ("quux", "t1")):
        await other.add_alias(1, key, key, entry_id, 7)
    await other.add_alias(2, "blorp", "blorp", "t1", 7)
    seen: list[dict[str, str]] = []

    def remove_t1(_: list[ServerTerm], aliases: Mapping[str, str]) -> tuple[TermChange, None]:
        seen.append(dict(aliases))
        return TermChange(remove=("t1",), drop_aliases=("blorp", "quux")), None

    await change_terms(store, 1, remove_t1, 9)
    assert seen == [{"blorp": "t1", "frob": "t2", "quux": "t1"}]
    assert await other.aliases(1) == {"frob": "t2"}
    assert await other.aliases(2) == {"blorp": "t1"}  # another server's alias is its own
    audit = await store.audit_log(1)
    assert sorted((a.action.value, a.alias_key, a.actor_id) for a in audit[:2]) == [
        ("alias_remove", "blorp", 9),
        ("alias_remove", "quux", 9),
    ]
