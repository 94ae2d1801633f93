"""What an outsider found running the scale-out as README.md says (PostgreSQL, shard
processes): tests/outsider/PLAN.md, "Outsider: the scale-out (shards37)".

Needs a real PostgreSQL: TEST_DATABASE_URL."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import asyncpg
import pytest

from bot.storage import ShardsTaken, StorageError, Store
from tests.conftest import TEST_DATABASE_URL
from tests.multiprocess.test_shards import world
from tests.ops.test_metrics import metrics_port, scrape
from tests.polling import eventually
from tests.resilience.botproc import CLI_ENV, BotProcess, glossary_bot
from tests.resilience.test_shard_claims import answers_on, process_of, refused, running
from tests.storage.conftest import fresh_schema

from .conftest import Scene

pytestmark = pytest.mark.postgres


async def test_a_process_with_another_shard_count_is_refused(tmp_path: Path) -> None:
    """Plan line S4: processes of one bot with different SHARD_COUNTs (one `.env` edited for a
    resharding, the other not). A guild's shard is `(id >> 22) % SHARD_COUNT`, so with counts
    4 and 8 some guilds are served by both processes and others by none; Discord takes any
    count, so only the bot can tell. It started (only the fake's 4010 stopped it); now it is
    refused in one line naming SHARD_COUNT and the other process, and the first never notices."""
    async with world() as w:
        first = process_of(w, [0, 1], tmp_path)
        async with running(first):
            assert first.process is not None
            other = process_of(w, [2, 3], tmp_path)
            other.env = {**other.env, "SHARD_COUNT": "8"}
            line = await refused(other)
            assert line.startswith(
                "glossary-bot: SHARD_COUNT 8: another process on this database runs SHARD_COUNT "
                f"4 (glossary-bot shards 0,1 pid {first.process.pid} on "
            ), line
            assert "give every process the same SHARD_COUNT" in line, line
            counts = {record.shard_count for record in w.fake.sharding.identifies}
            assert counts == {4}, w.fake.sharding.identifies  # it never reached the gateway
            await answers_on(w, [0, 1])
            # With the count they share, the same shards start beside it.
            same = process_of(w, [2, 3], tmp_path)
            async with running(same):
                await answers_on(w, [0, 1, 2, 3])


async def test_a_connection_ended_by_the_server_is_a_storage_error(tmp_path: Path) -> None:
    """Plan line S10: PostgreSQL restarted (`pg_ctl restart -m fast`) under two shard processes.
    Both answered throughout and took their claims again, but one logged "Ignoring exception in
    on_ready" with a traceback: reading the servers' last lookups on a pooled connection the
    server had just ended raised asyncpg's `InternalClientError` ("cannot switch to state 15;
    another operation (2) is in progress"), which the backend did not translate, so it passed
    every `except StorageError` (the health check's write test among them). The same thing on
    demand: the pool's sessions ended by the server (as a restart ends them) just before each
    read. Every read now answers or fails as a StorageError."""
    async with fresh_schema(TEST_DATABASE_URL) as url:
        store = await Store.open(url, flush_interval=None)
        admin = await asyncpg.connect(TEST_DATABASE_URL)
        name = url.split("application_name=")[1]  # only this store's sessions
        outcomes: Counter[str] = Counter()
        try:
            for _ in range(40):
                await admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = $1",
                    name,
                )
                try:
                    await store.last_lookup_hours()
                    await store.can_write()
                    outcomes["answered"] += 1
                except StorageError:
                    outcomes["StorageError"] += 1
                except Exception as exc:  # what escaped is the finding
                    outcomes[f"{type(exc).__name__}: {exc}"] += 1
        finally:
            await admin.close()
            await store.close()
        assert set(outcomes) <= {"answered", "StorageError"}, outcomes
        assert outcomes["StorageError"], outcomes  # the sessions' ends were felt


async def test_a_resharding_restart_waits_for_the_old_count_to_stop(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Plan line S4, the other half: changing SHARD_COUNT means stopping every process and
    starting them with the new count; one started while an old one is still stopping waits for
    it (as for a held shard), saying so once, and goes on once it has let go. Two processes
    with the same count, and the whole bot alone, are unaffected."""
    async with fresh_schema(TEST_DATABASE_URL) as url:
        old = await Store.open(url, flush_interval=None)
        new = await Store.open(url, flush_interval=None)
        try:
            async with old.claim_shards([0, 1], holder="old 0,1", wait=0, shard_count=4):
                async with old.claim_shards([2, 3], holder="old 2,3", wait=0, shard_count=4):
                    pass  # the same count beside it: taken
                with pytest.raises(ShardsTaken) as taken:
                    async with new.claim_shards([0], holder="new 0", wait=0, shard_count=8):
                        pass
                assert taken.value.count == 4
                assert taken.value.holders[0].startswith("old 0,1 [server pid "), taken.value

                waiting = asyncio.create_task(claimed(new))
                await eventually(
                    lambda: "runs SHARD_COUNT 4 (old 0,1" in caplog.text, "the wait said"
                )
                assert not waiting.done()
            assert await waiting  # the old one let go: the new count runs
        finally:
            await old.close()
            await new.close()


async def claimed(store: Store) -> bool:
    async with store.claim_shards([0, 5], holder="new 0,5", wait=60, shard_count=8):
        return True


async def test_a_search_path_naming_no_schema_says_which(scene: Scene, tmp_path: Path) -> None:
    """Plan line S8: `?search_path=glossary` in DATABASE_URL before `CREATE SCHEMA glossary`.
    `run` answered without its database, as it should, but its line named the URL twice and
    not the schema: "cannot open the database DATABASE_URL=postgresql://…?search_path=…:
    postgresql://…?search_path=…: no schema to use (check the search_path)". Now the URL once,
    the search_path the server has, and what to do."""
    url = f"{TEST_DATABASE_URL}?search_path=glossary_s37_never_made"
    env = {**CLI_ENV, "DATABASE_URL": url}
    status, said = await glossary_bot(env, tmp_path, "stats")
    assert status == 1, said
    [line] = said.strip().splitlines()
    assert line.count("postgresql://") == 1, line
    assert "has no schema to use: none of its search_path (glossary_s37_never_made)" in line
    assert "CREATE SCHEMA" in line, line
    assert "glossary:glossary@" not in line, line  # no password

    async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path, DATABASE_URL=url) as bot:
        line = await bot.wait_for_output(r"cannot open the database")
        assert line.count("postgresql://") == 1, line
        assert "it has no schema to use: none of its search_path (glossary_s37_never_made)" in line
        assert await bot.stop() == 0


async def test_each_process_s_metrics_name_its_own_shards(tmp_path: Path) -> None:
    """Plan line S12: two processes' `/metrics` on one host (METRICS_PORT 0: ports apart). The
    process of shards 2,3 reported `glossary_gateway_latency_seconds{shard="0"}` (the average
    of its shards under shard 0, which it does not run), and both reported
    `glossary_gateway_reconnects_total{shard="0"} 1` right after start, with no reconnect at
    all: each shard's first connection was counted against shard 0, the second as a
    reconnect. Now the latency is one series per shard the process runs, and a shard's first
    connection counts nothing, and a reconnect counts under its shard."""
    async with world(heartbeat_interval_ms=500) as w:
        first, second = process_of(w, [0, 1], tmp_path), process_of(w, [2, 3], tmp_path)
        for process in (first, second):
            process.env = {**process.env, "METRICS_PORT": "0"}
        async with running(first), running(second):
            await answers_on(w, [0, 1, 2, 3])
            for process, shards in ((first, {"0", "1"}), (second, {"2", "3"})):
                port = await metrics_port(process)

                async def every_shard_reported(port: int = port, shards: set[str] = shards) -> bool:
                    # Once each shard has had a heartbeat ACK: then no more series may come.
                    return shards <= set(await labelled(port, "glossary_gateway_latency_seconds"))

                await eventually(every_shard_reported, "a heartbeat on each shard")
                latency = await labelled(port, "glossary_gateway_latency_seconds")
                assert set(latency) == shards, latency
                reconnects = await labelled(port, "glossary_gateway_reconnects_total")
                assert not any(reconnects.values()), reconnects

            # A real reconnect is counted, under the shard that made it.
            port = await metrics_port(second)
            await w.fake.drop_gateway(shard_id=3)

            async def counted() -> bool:
                reconnects = await labelled(port, "glossary_gateway_reconnects_total")
                return reconnects.get("3") == 1

            await eventually(counted, "shard 3's reconnect counted")
            reconnects = await labelled(port, "glossary_gateway_reconnects_total")
            assert {shard: n for shard, n in reconnects.items() if n} == {"3": 1}, reconnects


async def labelled(port: int, metric: str) -> dict[str, float]:
    """`metric`'s values by their `shard` label, as the process at `port` reports them now."""
    values = await asyncio.to_thread(scrape, port)
    return {dict(labels)["shard"]: n for (name, labels), n in values.items() if name == metric}
