"""Per-server aliases: add, no-op, conflict, cap, remove, audit, isolation, miss -> alias."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from bot.storage import (
    ALIAS_CAP,
    AddAliasStatus,
    AliasImport,
    AuditAction,
    Store,
)

from .conftest import START, FakeClock, OpenStore, query

ADDED = AddAliasStatus.ADDED
SAME = AddAliasStatus.ALREADY_EXISTS_SAME_ENTRY
CONFLICT = AddAliasStatus.CONFLICT


async def test_add_then_read_back(store: Store) -> None:
    result = await store.add_alias(1, "kvc", "KVC", "kv-cache", actor_id=42)
    assert result.status is ADDED
    assert result.alias is not None
    assert (result.alias.text, result.alias.added_by, result.alias.added_at) == ("KVC", 42, START)

    assert await store.aliases(1) == {"kvc": "kv-cache"}
    (record,) = await store.list_aliases(1)
    assert (record.key, record.text, record.entry_id) == ("kvc", "KVC", "kv-cache")


async def test_same_alias_same_entry_is_a_friendly_no_op(store: Store, db_path: Path) -> None:
    await store.add_alias(1, "kvc", "KVC", "kv-cache", actor_id=42)
    again = await store.add_alias(1, "kvc", "kvc", "kv-cache", actor_id=43)
    assert again.status is SAME
    assert again.alias is not None
    assert again.alias.added_by == 42  # the original stays
    assert query(db_path, "SELECT count(*) FROM audit_log") == [(1,)]


async def test_alias_naming_another_entry_is_a_conflict(store: Store) -> None:
    await store.add_alias(1, "kvc", "KVC", "kv-cache", actor_id=42)
    refused = await store.add_alias(1, "kvc", "kvc", "kv-compression", actor_id=43)
    assert refused.status is CONFLICT
    assert refused.conflicting_entry_id == "kv-cache"
    assert await store.aliases(1) == {"kvc": "kv-cache"}


async def test_two_concurrent_adds_exactly_one_wins(store: Store) -> None:
    results = await asyncio.gather(
        store.add_alias(1, "moe", "MoE", "mixture-of-experts", actor_id=1),
        store.add_alias(1, "moe", "MOE", "model-of-everything", actor_id=2),
    )
    assert sorted(r.status for r in results) == sorted([ADDED, CONFLICT])
    winner = next(r for r in results if r.status is ADDED)
    loser = next(r for r in results if r.status is CONFLICT)
    assert winner.alias is not None
    assert loser.conflicting_entry_id == winner.alias.entry_id
    assert await store.aliases(1) == {"moe": winner.alias.entry_id}


async def test_two_processes_racing_for_one_alias(open_store: OpenStore) -> None:
    # Two stores on one file have separate connections, as two processes would.
    first, second = await open_store(), await open_store()
    for round_ in range(10):
        key = f"race-{round_}"
        results = await asyncio.gather(
            first.add_alias(1, key, key, "a", actor_id=1),
            second.add_alias(1, key, key, "b", actor_id=2),
        )
        assert sorted(r.status for r in results) == sorted([ADDED, CONFLICT])
    assert len(await first.aliases(1)) == 10


async def test_cap_per_server(store: Store, db_path: Path) -> None:
    # Fill to one below the cap directly: a thousand transactions would only slow the test.
    await store.add_alias(1, "first", "first", "e", actor_id=1)
    conn = sqlite3.connect(db_path)
    conn.executemany(
        "INSERT INTO aliases VALUES (1, ?, ?, 'e', 1, 0)",
        [(f"a{i}", f"a{i}") for i in range(ALIAS_CAP - 2)],
    )
    conn.commit()
    conn.close()

    last = await store.add_alias(1, "last", "last", "e", actor_id=1)
    assert last.status is ADDED
    over = await store.add_alias(1, "one too many", "one too many", "e", actor_id=1)
    assert over.status is AddAliasStatus.CAP_REACHED
    assert over.alias is None
    # At the cap, re-adding an existing alias is still the friendly no-op ...
    assert (await store.add_alias(1, "last", "last", "e", actor_id=1)).status is SAME
    # ... another server has its own allowance ...
    assert (await store.add_alias(2, "one too many", "x", "e", actor_id=1)).status is ADDED
    # ... and removing one makes room again.
    await store.remove_alias(1, "first", actor_id=1)
    assert (await store.add_alias(1, "one too many", "x", "e", actor_id=1)).status is ADDED


async def test_remove(store: Store) -> None:
    await store.add_alias(1, "kvc", "KVC", "kv-cache", actor_id=42)
    removed = await store.remove_alias(1, "kvc", actor_id=43)
    assert removed is not None
    assert removed.entry_id == "kv-cache"
    assert await store.aliases(1) == {}
    assert await store.remove_alias(1, "kvc", actor_id=43) is None


async def test_audit_log_records_who_what_before_and_after(
    store: Store, clock: FakeClock, db_path: Path
) -> None:
    await store.add_alias(1, "kvc", "KVC", "kv-cache", actor_id=42)
    clock.advance(minutes=1)
    await store.add_alias(1, "kvc", "kvc", "other", actor_id=43)  # refused: not audited
    await store.remove_alias(1, "kvc", actor_id=44)
    await store.remove_alias(1, "kvc", actor_id=44)  # nothing to remove: not audited
    await store.import_aliases([AliasImport(1, "kv", "KV", "kv-cache")], actor_id=0)
    await store.add_alias(2, "elsewhere", "elsewhere", "x", actor_id=45)

    log = await store.audit_log(1)
    assert [(r.action, r.actor_id, r.alias_key, r.before, r.after) for r in log] == [
        (AuditAction.ALIAS_IMPORT, 0, "kv", None, "kv-cache"),
        (AuditAction.ALIAS_REMOVE, 44, "kvc", "kv-cache", None),
        (AuditAction.ALIAS_ADD, 42, "kvc", None, "kv-cache"),
    ]
    assert log[-1].at == START
    assert log[1].at == START + timedelta(minutes=1)
    assert [r.scope for r in await store.audit_log(2)] == [2]
    assert len(await store.audit_log(1, limit=1)) == 1

    conn = sqlite3.connect(db_path)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("UPDATE audit_log SET actor_id = 0")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("DELETE FROM audit_log")
    conn.close()


async def test_aliases_of_one_server_are_invisible_in_another(store: Store) -> None:
    await store.add_alias(111, "kvc", "KVC", "kv-cache", actor_id=1)
    await store.add_alias(0, "dm alias", "dm alias", "lora", actor_id=1)

    assert await store.aliases(222) == {}
    assert await store.list_aliases(222) == []
    assert await store.audit_log(222) == []
    assert await store.remove_alias(222, "kvc", actor_id=1) is None
    assert await store.aliases(111) == {"kvc": "kv-cache"}
    assert await store.aliases(0) == {"dm alias": "lora"}
    # The same key may name different entries in different servers.
    assert (await store.add_alias(222, "kvc", "KVC", "kv-compression", actor_id=2)).status is ADDED
    assert await store.aliases(111) == {"kvc": "kv-cache"}


async def test_list_aliases_of_one_entry(store: Store) -> None:
    await store.add_alias(1, "kvc", "KVC", "kv-cache", actor_id=1)
    await store.add_alias(1, "kv store", "KV store", "kv-cache", actor_id=1)
    await store.add_alias(1, "moe", "MoE", "mixture-of-experts", actor_id=1)
    assert [a.key for a in await store.list_aliases(1, "kv-cache")] == ["kv store", "kvc"]


async def test_adding_an_alias_clears_the_miss(store: Store) -> None:
    for _ in range(3):
        store.record_miss(1, "kvc")
        store.record_miss(2, "kvc")  # another server's miss stays
    store.record_miss(1, "other")
    assert await store.flush()
    store.record_miss(1, "kvc")  # one more, still buffered

    result = await store.add_alias(1, "kvc", "KVC", "kv-cache", actor_id=1)
    assert result.cleared_miss
    assert [m.query for m in await store.top_misses(1)] == ["other"]
    assert await store.flush()  # the buffered one must not bring it back
    assert [m.query for m in await store.top_misses(1)] == ["other"]
    assert [(m.query, m.count) for m in await store.top_misses(2)] == [("kvc", 3)]


async def test_turning_a_listed_miss_into_an_alias(store: Store, db_path: Path) -> None:
    store.record_miss(1, "k v cache thing")
    assert await store.flush()
    result = await store.add_alias(
        1, "kv cache thing", "kv cache thing", "kv-cache", actor_id=1, miss_query="k v cache thing"
    )
    assert result.cleared_miss
    assert await store.top_misses(1) == []
    assert query(db_path, "SELECT count(*) FROM miss_hours") == [(0,)]  # cascaded


async def test_alias_cache_sees_changes_from_another_process(open_store: OpenStore) -> None:
    bot, operator = await open_store(), await open_store()
    assert await bot.aliases(1) == {}
    await operator.import_aliases([AliasImport(1, "kvc", "KVC", "kv-cache")])
    assert await bot.aliases(1) == {"kvc": "kv-cache"}
    await operator.remove_alias(1, "kvc", actor_id=0)
    assert await bot.aliases(1) == {}


async def test_aliases_returns_a_copy(store: Store) -> None:
    await store.add_alias(1, "kvc", "KVC", "kv-cache", actor_id=1)
    mine = await store.aliases(1)
    mine["evil"] = "x"
    assert await store.aliases(1) == {"kvc": "kv-cache"}


async def test_empty_key_or_entry_is_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="non-empty"):
        await store.add_alias(1, "", "", "kv-cache", actor_id=1)
    with pytest.raises(ValueError, match="non-empty"):
        await store.add_alias(1, "kvc", "kvc", "", actor_id=1)


async def test_export_and_import_round_trip(open_store: OpenStore, tmp_path: Path) -> None:
    source = await open_store()
    await source.add_alias(1, "kvc", "KVC", "kv-cache", actor_id=7)
    await source.add_alias(2, "moe", "MoE", "mixture-of-experts", actor_id=8)
    exported = await source.export_aliases()
    assert exported[0] == {
        "guild_id": 1,
        "alias": "KVC",
        "key": "kvc",
        "entry_id": "kv-cache",
        "added_by": 7,
        "added_at": START.isoformat(),
    }
    assert [e["guild_id"] for e in await source.export_aliases(2)] == [2]

    target = await open_store(tmp_path / "other.db")
    items = [AliasImport(e["guild_id"], e["key"], e["alias"], e["entry_id"]) for e in exported]  # type: ignore[arg-type]
    results = await target.import_aliases(items)
    assert [r.status for r in results] == [ADDED, ADDED]
    assert await target.aliases(1) == {"kvc": "kv-cache"}


async def test_alias_version_moves_on_any_change_from_any_process(open_store: OpenStore) -> None:
    bot, operator = await open_store(), await open_store()
    start = await bot.alias_version()
    await operator.import_aliases([AliasImport(1, "kvc", "KVC", "kv-cache")])
    added = await bot.alias_version()
    assert added > start
    await operator.remove_alias(1, "kvc", actor_id=0)
    assert await bot.alias_version() > added
