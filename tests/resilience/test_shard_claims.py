"""Two `glossary-bot run` processes on one PostgreSQL configured with overlapping SHARD_IDS:
the second refuses to start (exit 2) with one line naming SHARD_IDS and the process that runs
the shard; a claim lost underneath is said loudly; one that died by kill -9 blocks no restart;
a process running every shard (SHARD_COUNT unset) is refused beside a shard's process.

Needs a real PostgreSQL: TEST_DATABASE_URL."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from bot.storage import Store
from tests.conftest import TEST_DATABASE_URL
from tests.multiprocess.test_shards import TERMS, World, world
from tests.polling import eventually
from tests.storage.conftest import fresh_schema

from .botproc import BotProcess

pytestmark = pytest.mark.postgres


@contextlib.asynccontextmanager
async def running(process: BotProcess) -> AsyncIterator[BotProcess]:
    try:
        async with process:
            yield process
    finally:
        print(process.output)


async def refused(process: BotProcess) -> str:
    """Start `process`, which must exit 2 without connecting; its one line to the operator.
    CLAIM_WAIT=0: refused at once, not after a restart's handover (review46 tests the wait)."""
    process.env = {**process.env, "CLAIM_WAIT": "0"}
    await process.start(wait_ready=False)
    assert await process.exited(within=60.0) == 2, process.output
    errors = [line for line in process.lines if line.startswith("glossary-bot: ")]
    assert len(errors) == 1, process.output
    assert "Traceback" not in process.output, process.output
    return errors[0]


async def end_sessions(url: str, named: str) -> int:
    """pg_terminate_backend on the sessions whose application_name is LIKE `named`."""
    admin = await asyncpg.connect(url)
    try:
        ended = await admin.fetch(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE $1",
            named,
        )
    finally:
        await admin.close()
    return len(ended)


def process_of(w: World, shards: list[int], tmp_path: Path) -> BotProcess:
    """A process running `shards`, in a folder of its own (its heartbeat file, its cwd)."""
    folder = tmp_path / "-".join(map(str, shards))
    folder.mkdir(exist_ok=True)
    return w.process(shards, folder)


async def answers_on(w: World, shards: list[int]) -> None:
    for shard in shards:
        await w.card(shard, TERMS[0])


@contextlib.asynccontextmanager
async def running_in_a_world(
    shards: list[int], tmp_path: Path
) -> AsyncIterator[tuple[World, BotProcess]]:
    """A fresh world (fake Discord, PostgreSQL schema) and a process running `shards` in it."""
    async with world() as w:
        process = process_of(w, shards, tmp_path)
        async with running(process):
            yield w, process


async def test_overlapping_shard_ids_are_refused_and_a_dead_process_blocks_no_restart(
    tmp_path: Path,
) -> None:
    async with running_in_a_world([0, 1], tmp_path) as (w, first):
        assert first.process is not None
        first_pid = first.process.pid
        for ids in ([1, 2], [0, 1]):  # overlapping, and the very same
            line = await refused(process_of(w, ids, tmp_path))
            taken = min(set(ids) & {0, 1})
            assert line.startswith(
                f"glossary-bot: SHARD_IDS {ids[0]},{ids[1]}: shard {taken} is already run "
                "by another process on this database (glossary-bot shards 0,1 pid "
                f"{first_pid} on "
            ), line
        await answers_on(w, [0, 1])  # the first process never noticed
        await first.stop(signal.SIGKILL)  # dies holding its claims

        # Its shards can be run again, with no expiry to wait for: its session ended with it.
        again = process_of(w, [1, 2], tmp_path)
        async with running(again):
            await answers_on(w, [1, 2])
            assert again.process is not None
            # Its claims' session ended underneath (as by a server restart): said loudly.
            named = f"glossary-bot shards 1,2 pid {again.process.pid} on %"
            assert await end_sessions(w.url, named) == 1
            await again.wait_for_output(r"ERROR .*shard claims has ended.*SHARD_IDS")


async def test_a_process_running_every_shard_is_refused_beside_a_shards_process(
    tmp_path: Path,
) -> None:
    async with running_in_a_world([2, 3], tmp_path) as (w, sharded):
        await refuses_the_whole_bot(w, tmp_path)
    assert "shard claims has ended" not in sharded.output  # not when it lets go itself


async def refuses_the_whole_bot(w: World, tmp_path: Path) -> None:
    """A process without SHARD_COUNT (every shard) beside one that runs some: refused."""
    whole = BotProcess(
        w.fake, tmp_path / "unused.db", cwd=tmp_path, DATABASE_URL=w.url, IDENTIFY_WINDOW="0.5"
    )
    line = await refused(whole)
    assert line.startswith(
        "glossary-bot: this process would run every shard (SHARD_COUNT is not set), but "
        "another process on this database runs shards (glossary-bot shards 2,3 pid "
    ), line


async def test_a_process_without_shard_count_claims_the_shards_discord_recommends(
    tmp_path: Path,
) -> None:
    """SHARD_COUNT unset, Discord recommending 4 shards: the process runs all 4 and claims
    them, with their count, on the database once it knows it. A second process is refused
    with one line naming the first: one whose SHARD_IDS overlap, one with another
    SHARD_COUNT, and another without SHARD_COUNT (it would run the same shards again)."""
    async with world() as w:
        folder = tmp_path / "whole"
        folder.mkdir()
        whole = BotProcess(
            w.fake,
            folder / "unused.db",
            cwd=folder,
            shards=[0, 1, 2, 3],
            DATABASE_URL=w.url,
            IDENTIFY_WINDOW="0.5",
            COOLDOWN_USES="1000",  # alice asks 24 times in seconds: no cooldown in the way
        )
        async with running(whole):
            assert whole.process is not None
            first = f"(glossary-bot shards 0,1,2,3 pid {whole.process.pid} on "
            await answers_on(w, [0, 1, 2, 3])
            line = await refused(process_of(w, [2, 3], tmp_path))
            assert line.startswith(
                "glossary-bot: SHARD_IDS 2,3: shard 2 is already run by another process on this "
                f"database {first}"
            ), line
            other_count = process_of(w, [0], tmp_path)
            other_count.env = {**other_count.env, "SHARD_COUNT": "8"}
            line = await refused(other_count)
            assert line.startswith(
                "glossary-bot: SHARD_COUNT 8: another process on this database runs SHARD_COUNT 4 "
                f"{first}"
            ), line
            again = BotProcess(w.fake, tmp_path / "unused.db", cwd=tmp_path, DATABASE_URL=w.url)
            line = await refused(again)
            assert line.startswith(
                "glossary-bot: this process would run every shard (SHARD_COUNT is not set), but "
                f"another process on this database runs shards {first}"
            ), line
            await answers_on(w, [0, 1, 2, 3])  # the first never noticed
            assert await whole.stop() == 0, whole.output
        assert "Discord recommends 4 shards (SHARD_COUNT is not set)" in whole.output


async def test_health_says_the_claims_are_not_held_until_they_are_taken_again() -> None:
    """outsider72 (B5): back from an outage, `health` turned healthy a second before the shard
    claims were taken again, though a process with overlapping SHARD_IDS was not refused
    meanwhile. The claims' session ended while the database answers: `claims_lost` (which
    `health` says) names it until they are claimed again, and the heartbeat is told at each
    turn (failed before polish72: there was no such state)."""
    async with fresh_schema(TEST_DATABASE_URL) as url:
        store = await Store.open(url, flush_interval=None)
        turns = 0

        def turned() -> None:
            nonlocal turns
            turns += 1

        store.on_writable_turned = turned
        try:
            async with store.claim_shards([0, 1], holder="polish72 claims", wait=0, shard_count=2):
                assert store.claims_lost() is None
                assert await end_sessions(url, "polish72 claims") == 1
                await eventually(lambda: store.claims_lost() is not None, "the claims said lost")
                assert await store.why_not_writable() is None  # only the claims are amiss
                assert "overlapping SHARD_IDS is not refused" in (store.claims_lost() or "")
                await eventually(
                    lambda: store.claims_lost() is None, "the claims taken again", within=30
                )
                assert turns == 2
            assert store.claims_lost() is None
        finally:
            await store.close()
