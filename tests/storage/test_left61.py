"""left61 (tests/outsider/PLAN.md, "Leftovers (left61)"): an aliases import (`glossary-bot
aliases import`, `Store.import_aliases`) is one transaction whose statements do not grow with
its aliases; each alias added is still its own audited change, in the file's order."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import pytest

from bot.storage import AddAliasStatus, AliasImport, AuditAction, ShardsTaken, Store
from bot.storage.postgres.backend import PostgresTx
from bot.storage.sqlite.backend import SqliteTx

from .conftest import OpenStore

STATEMENTS = ("fetch", "fetchrow", "execute", "executemany")


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every statement a transaction runs, on either backend, as it runs it."""
    ran: list[str] = []
    for tx in (SqliteTx, PostgresTx):
        for name in STATEMENTS:
            method = getattr(tx, name)

            async def counted(self: object, sql: str, *args: object, _m: object = method) -> object:
                ran.append(sql)
                return await _m(self, sql, *args)  # type: ignore[operator]

            monkeypatch.setattr(tx, name, counted)
    return ran


def items(scope: int, count: int) -> list[AliasImport]:
    return [AliasImport(scope, f"zorb {n}", f"Zorb {n}", "rag") for n in range(count)]


def refuse_sevens(item: AliasImport, stored: Mapping[str, str]) -> str | None:
    return "ends in 7" if item.key.endswith("7") else None


async def test_an_import_runs_as_many_statements_for_300_aliases_as_for_30(
    store: Store, statements: list[str]
) -> None:
    """An import of 1,000 aliases took 5 s on SQLite (~5 ms an alias: five statements each,
    each a round trip to the database's thread or server). Now the aliases are checked in
    memory against the server's read once and written a few hundred to a statement."""
    counts = []
    for scope, count in ((1, 30), (2, 300)):
        statements.clear()
        results = await store.import_aliases(items(scope, count), check=refuse_sevens)
        assert sum(r.status is AddAliasStatus.ADDED for r in results) == count - count // 10
        counts.append(len(statements))
    assert counts[1] <= counts[0] + 6, counts  # a chunk of inserts a few hundred aliases


async def test_an_import_decides_each_alias_in_order_and_audits_each_added(store: Store) -> None:
    """What the file says, line by line, as before: a key taken (same term, another term), one
    the check refuses, the misses an alias answers cleared, the cap, and one audit row an alias
    added, in the file's order."""
    scope = 5
    first = await store.import_aliases([AliasImport(scope, "zorb a", "Zorb A", "rag")])
    assert [r.status for r in first] == [AddAliasStatus.ADDED]
    store.record_miss(scope, "zorb b")
    store.record_miss(scope, "zorb q")
    await store.flush()
    wanted = [
        AliasImport(scope, "zorb a", "zorb a", "rag"),  # there, same term
        AliasImport(scope, "zorb b", "Zorb B", "lora"),  # added, a miss cleared
        AliasImport(scope, "zorb a", "zorb a", "lora"),  # there, another term
        AliasImport(scope, "zorb 7", "Zorb 7", "rag"),  # refused by the check
        AliasImport(scope, "zorb b", "zorb b", "lora"),  # added just above: same term
        AliasImport(scope, "zorb c", "Zorb C", "rag"),  # added
    ]
    results = await store.import_aliases(wanted, check=refuse_sevens)
    assert [r.status for r in results] == [
        AddAliasStatus.ALREADY_EXISTS_SAME_ENTRY,
        AddAliasStatus.ADDED,
        AddAliasStatus.CONFLICT,
        AddAliasStatus.REFUSED,
        AddAliasStatus.ALREADY_EXISTS_SAME_ENTRY,
        AddAliasStatus.ADDED,
    ]
    assert results[1].cleared_miss
    assert not results[5].cleared_miss
    assert results[3].reason == "ends in 7"
    assert [m.query for m in await store.top_misses(scope)] == ["zorb q"]
    log = await store.audit_log(scope)
    assert [(a.action, a.alias_key, a.after) for a in reversed(log)] == [
        (AuditAction.ALIAS_IMPORT, "zorb a", "rag"),
        (AuditAction.ALIAS_IMPORT, "zorb b", "lora"),
        (AuditAction.ALIAS_IMPORT, "zorb c", "rag"),
    ]
    assert await store.aliases(scope) == {"zorb a": "rag", "zorb b": "lora", "zorb c": "rag"}


@pytest.mark.parametrize(
    ("theirs", "mine"),
    [
        ({}, {}),  # the whole bot twice
        ({"shard_ids": [0], "shard_count": 2}, {"shard_ids": [0], "shard_count": 2}),
        ({"shard_ids": [0], "shard_count": 2}, {"shard_ids": [1], "shard_count": 3}),
        ({"application_id": 7}, {"application_id": 7}),
    ],
)
async def test_claim_wait_0_refuses_without_saying_it_waits(
    open_any: OpenStore,
    caplog: pytest.LogCaptureFixture,
    theirs: dict[str, Any],
    mine: dict[str, Any],
) -> None:
    """With CLAIM_WAIT=0 a second bot on PostgreSQL logged "waiting up to 0 s for it to let
    go (a restart) before refusing", then refused at once; SQLite said nothing but the
    refusal. Both now refuse without a line about a wait that is not made."""
    running, starting = await open_any(), await open_any()
    async with running.claim_shards(holder="running", wait=0, **_shards(theirs)):
        with pytest.raises(ShardsTaken):
            async with starting.claim_shards(holder="starting", wait=0, **_shards(mine)):
                pass
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert not [line for line in said if "waiting" in line], said


def _shards(options: dict[str, Any]) -> dict[str, Any]:
    return {"shard_ids": None, **options}
