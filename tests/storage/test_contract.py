"""What every backend must do the same (SQLite always; PostgreSQL when TEST_DATABASE_URL is set).

The other storage tests that take `store` without looking at the SQLite file run on both too;
these add what needs more than one store, a restart, a hostile value, or several processes.
What is stored is read through a second store on the same database: the public interface only.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import sys
from collections import Counter
from datetime import timedelta
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

from bot.storage import (
    ALIAS_CAP,
    AddAliasStatus,
    AliasImport,
    AuditAction,
    Migrate,
    NotAGlossaryDatabase,
    SchemaTooNew,
    StorageError,
    StorageUnavailable,
    Store,
    TargetNotEmpty,
)
from bot.storage.migrations import latest_version

from .conftest import Databases, FakeClock, OpenStore

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("process_scenario.py")
BIG_SNOWFLAKE = 2**63 - 1  # the largest id a 64-bit column holds; Discord's fit well below


async def stored_total(open_any: OpenStore, scope: int | None = None) -> int:
    """Lookups in the database, read by a store with nothing buffered of its own."""
    reader = await open_any()
    return (await reader.stats(scope)).total_lookups


async def test_counts_misses_and_aliases_survive_a_restart(open_any: OpenStore) -> None:
    first = await open_any()
    for i in range(30):
        first.record_lookup(i % 2, f"entry-{i % 3}")
    first.record_miss(1, "zorblax")
    await first.add_alias(1, "kvc", "KVC", "kv-cache", actor_id=5)
    await first.close()  # writes what is buffered

    again = await open_any()
    assert await again.total_lookups(0) == 15
    assert await again.top_terms(1) == [("entry-0", 5), ("entry-1", 5), ("entry-2", 5)]
    assert [(m.query, m.count) for m in await again.top_misses(1)] == [("zorblax", 1)]
    assert await again.aliases(1) == {"kvc": "kv-cache"}
    assert [r.action for r in await again.audit_log(1)] == [AuditAction.ALIAS_ADD]


async def test_two_stores_on_one_database_count_their_own_buffers_once(
    open_any: OpenStore,
) -> None:
    a, b = await open_any(), await open_any()
    for _ in range(5):
        a.record_lookup(1, "rag")
    assert await a.flush()
    for _ in range(100):  # b's batches are far ahead of a's in number: marks are per writer
        b.record_lookup(1, "rag")
        assert await b.flush()
    a.record_lookup(1, "rag")
    a.record_lookup(1, "rag")
    # Stored 105, plus a's 2 buffered; b sees only what is stored.
    assert await a.total_lookups(1) == 107
    assert await a.lookup_count(1, "rag") == 107
    assert await b.total_lookups(1) == 105
    assert await a.flush()
    assert await stored_total(open_any, 1) == 107


async def test_alias_changes_from_another_store_are_seen(open_any: OpenStore) -> None:
    bot, operator = await open_any(), await open_any()
    assert await bot.aliases(1) == {}  # cached now
    await operator.import_aliases([AliasImport(1, "kvc", "KVC", "kv-cache")])
    assert await bot.aliases(1) == {"kvc": "kv-cache"}
    await operator.remove_alias(1, "kvc", actor_id=9)
    assert await bot.aliases(1) == {}


async def test_the_alias_cap_audit_log_and_export_round_trip(
    open_any: OpenStore, databases: Databases
) -> None:
    store = await open_any()
    items = [AliasImport(7, f"alias {i:04}", f"Alias {i:04}", "rag") for i in range(ALIAS_CAP)]
    results = await store.import_aliases(items)
    assert {r.status for r in results} == {AddAliasStatus.ADDED}
    over = await store.add_alias(7, "one more", "one more", "rag", actor_id=3)
    assert over.status is AddAliasStatus.CAP_REACHED
    assert await store.add_alias(8, "one more", "one more", "rag", actor_id=3)  # other server
    await store.remove_alias(7, "alias 0000", actor_id=4)
    log = await store.audit_log(7, limit=2)
    assert [(r.action, r.alias_key, r.before, r.after, r.actor_id) for r in log] == [
        (AuditAction.ALIAS_REMOVE, "alias 0000", "rag", None, 4),
        (AuditAction.ALIAS_IMPORT, f"alias {ALIAS_CAP - 1:04}", None, "rag", 0),
    ]
    exported = await store.export_aliases()
    assert len(exported) == ALIAS_CAP  # 999 in server 7, 1 in server 8

    elsewhere = await open_any(await databases.new())
    back = [
        AliasImport(int(e["guild_id"]), str(e["key"]), str(e["alias"]), str(e["entry_id"]))
        for e in exported
    ]
    await elsewhere.import_aliases(back)
    assert [
        {k: v for k, v in e.items() if k not in ("added_at", "added_by")}
        for e in await elsewhere.export_aliases()
    ] == [{k: v for k, v in e.items() if k not in ("added_at", "added_by")} for e in exported]


async def test_hostile_and_extreme_values_are_only_data(open_any: OpenStore) -> None:
    store = await open_any()
    nasty = ["'; DROP TABLE lookups; --", "?", "$1", "ümlaut ✓ 漢字", "a" * 200, "\\", '"x"']
    for text in nasty:
        store.record_lookup(BIG_SNOWFLAKE, text)
        store.record_miss(BIG_SNOWFLAKE, text)
        result = await store.add_alias(BIG_SNOWFLAKE, text, text, text, actor_id=BIG_SNOWFLAKE)
        assert result.status is AddAliasStatus.ADDED
    assert await store.flush()
    again = await open_any()
    assert await again.total_lookups(BIG_SNOWFLAKE) == len(nasty)
    # Ties break bytewise on every backend, as Python sorts.
    assert [t for t, _ in await again.top_terms(BIG_SNOWFLAKE, limit=20)] == sorted(nasty)
    assert await again.aliases(BIG_SNOWFLAKE) == {t: t for t in nasty}
    # Each alias cleared the miss of its own text when it was added.
    assert await again.top_misses(BIG_SNOWFLAKE) == []


async def test_a_newer_schema_is_refused(
    open_any: OpenStore, databases: Databases, location: str
) -> None:
    await (await open_any()).close()
    newer = latest_version(databases.backend) + 1
    if databases.backend == "sqlite":
        await databases.execute(location, f"PRAGMA user_version = {newer}")
    else:
        await databases.execute(location, f"UPDATE glossary_bot_schema SET version = {newer}")
    with pytest.raises(SchemaTooNew, match=f"schema version {newer}"):
        await Store.open(location, flush_interval=None)


async def test_someone_elses_tables_are_refused(databases: Databases, location: str) -> None:
    await databases.execute(location, "CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    with pytest.raises(NotAGlossaryDatabase):
        await Store.open(location, flush_interval=None)


async def test_read_only_tools_do_not_create_a_schema(databases: Databases, location: str) -> None:
    with pytest.raises(StorageError, match="holds no Glossary Bot data"):
        await Store.open(location, flush_interval=None, migrate=Migrate.NEVER)


async def test_stores_opening_at_once_migrate_once(open_any: OpenStore) -> None:
    stores = await asyncio.gather(*(open_any() for _ in range(4)))
    for i, store in enumerate(stores):
        store.record_lookup(1, f"entry-{i}")
        assert await store.flush()
    assert await stored_total(open_any, 1) == 4


async def test_backup_copies_or_says_how(
    open_any: OpenStore, databases: Databases, location: str, tmp_path: Path
) -> None:
    store = await open_any()
    store.record_lookup(1, "rag")
    dest = tmp_path / "copy.db"
    if databases.backend == "sqlite":
        await store.backup(dest)
        copy = await open_any(str(dest))
        assert await copy.total_lookups(1) == 1
    else:
        with pytest.raises(
            StorageError, match=r"pg_dump --format=custom --file=\S*copy\.db"
        ) as told:
            await store.backup(dest)
        command = re.search(r"`(pg_dump [^`]+)`", str(told.value))
        assert command is not None
        if shutil.which("pg_dump"):  # the command as given works (libpq reads PGPASSWORD)
            password = urlsplit(location).password or ""
            dumped = await asyncio.create_subprocess_shell(
                command.group(1),
                env={**os.environ, "PGPASSWORD": password},
                stderr=asyncio.subprocess.PIPE,
            )
            _, err = await dumped.communicate()
            assert dumped.returncode == 0, err.decode()
            assert dest.stat().st_size > 0
        assert "glossary:glossary@" not in str(store.location)  # no password in messages
        assert await stored_total(open_any, 1) == 1  # flushed first all the same


async def test_three_processes_writing_at_once_add_up_exactly(
    databases: Databases, location: str, clock: FakeClock
) -> None:
    """Each process opens the fresh database at the same moment (so migrations race too) and
    records lookups while flushing every 50 ms; the stored counts are their exact sum."""
    per_process = 20_000
    processes = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            str(SCRIPT),
            "count",
            location,
            str(per_process),
            str(seed),
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for seed in range(3)
    ]
    outputs = await asyncio.gather(*(p.communicate() for p in processes))
    for process, (out, err) in zip(processes, outputs, strict=True):
        assert process.returncode == 0, err.decode()
        assert out.decode().split() == ["counted", str(per_process)]

    expected: Counter[tuple[int, str]] = Counter()
    for seed in range(3):
        for i in range(per_process):
            expected[(i % 5, f"entry-{(i * (seed + 1)) % 13}")] += 1
    reader = await Store.open(location, flush_interval=None, clock=clock)
    try:
        assert (await reader.stats(None)).total_lookups == 3 * per_process
        for scope in range(5):
            top = dict(await reader.top_terms(scope, limit=20))
            assert top == {e: n for (s, e), n in expected.items() if s == scope}
    finally:
        await reader.close()


async def test_a_sqlite_database_copies_into_either_backend_exactly(
    open_any: OpenStore, clock: FakeClock, tmp_path: Path
) -> None:
    source = await open_any(str(tmp_path / "source.db"))
    for hours_ago in (0, 30, 24 * 20):
        clock.advance(hours=-hours_ago)
        for i in range(7):
            source.record_lookup(i % 2, f"entry-{i % 3}")
        source.record_miss(1, "zorblax")
        source.record_miss(1, f"asked {hours_ago} hours ago")
        clock.advance(hours=hours_ago)
    await source.import_aliases([AliasImport(1, "kvc", "KVC", "kv-cache")])
    await source.add_alias(1, "gone", "gone", "rag", actor_id=4)
    await source.remove_alias(1, "gone", actor_id=4)
    assert await source.flush()

    target = await open_any()
    report = await source.copy_into(target)
    assert report.target_after == report.source
    for period in (None, clock() - timedelta(days=1), clock() - timedelta(days=7)):
        for scope in (0, 1):
            assert await target.stats(scope, period) == await source.stats(scope, period)
    assert await target.aliases(1) == {"kvc": "kv-cache"}
    assert await target.audit_log(1) == await source.audit_log(1)

    with pytest.raises(TargetNotEmpty, match="--force"):
        await source.copy_into(target)
    forced = await source.copy_into(target, force=True)
    assert forced.target_after["lookup_total"] == 2 * report.source["lookup_total"]
    assert await target.total_lookups(1) == 2 * await source.total_lookups(1)
    assert await target.aliases(1) == {"kvc": "kv-cache"}


async def test_postgres_connections_ended_by_the_server_are_replaced(
    open_any: OpenStore, databases: Databases, location: str, postgres_only: None
) -> None:
    """A PostgreSQL restart or an admin ending sessions: a failed write says so and keeps its
    counts; the pool connects again and nothing is lost or claimed twice."""
    store = await open_any()
    store.record_lookup(1, "rag")
    assert await store.flush()
    assert await store.aliases(1) == {}
    schema = dict(parse_qsl(urlsplit(location).query))["application_name"]
    ended = await databases.execute_admin(
        "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity"
        f" WHERE application_name = '{schema}'"
    )
    assert ended >= 1  # the store's own connections, and no one else's
    store.record_lookup(1, "rag")
    flushed = [await store.flush() for _ in range(3)]
    assert flushed[-1], flushed  # at worst the first attempt met a dead connection
    try:
        added = await store.add_alias(1, "kvc", "KVC", "kv-cache", actor_id=5)
    except StorageUnavailable:
        added = await store.add_alias(1, "kvc", "KVC", "kv-cache", actor_id=5)
    assert added.status is AddAliasStatus.ADDED
    assert await stored_total(open_any, 1) == 2
    assert await store.aliases(1) == {"kvc": "kv-cache"}
    assert await store.can_write()
