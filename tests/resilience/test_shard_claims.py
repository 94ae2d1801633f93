"""Two `glossary-bot run` processes on one PostgreSQL configured with overlapping SHARD_IDS:
the second refuses to start (exit 2) with one line naming SHARD_IDS and the process that runs
the shard; one that died by kill -9 blocks no restart; a process running every shard
(SHARD_COUNT unset) and a shard's process refuse each other.

Needs a real PostgreSQL: TEST_DATABASE_URL."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.multiprocess.test_shards import TERMS, World, world

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
    """Start `process`, which must exit 2 without connecting; its one line to the operator."""
    await process.start(wait_ready=False)
    assert await process.exited(within=60.0) == 2, process.output
    errors = [line for line in process.lines if line.startswith("glossary-bot: ")]
    assert len(errors) == 1, process.output
    assert "Traceback" not in process.output, process.output
    return errors[0]


async def answers_on(w: World, shards: list[int]) -> None:
    for shard in shards:
        await w.card(shard, TERMS[0])


async def test_overlapping_shard_ids_are_refused_and_a_dead_process_blocks_no_restart(
    tmp_path: Path,
) -> None:
    async with world() as w:
        first = w.process([0, 1], tmp_path / "first")
        (tmp_path / "first").mkdir()
        async with running(first):
            assert first.process is not None
            first_pid = first.process.pid
            for ids in ([1, 2], [0, 1]):  # overlapping, and the very same
                folder = tmp_path / f"second-{ids[0]}"
                folder.mkdir()
                line = await refused(w.process(ids, folder))
                taken = min(set(ids) & {0, 1})
                assert line.startswith(
                    f"glossary-bot: SHARD_IDS {ids[0]},{ids[1]}: shard {taken} is already run "
                    "by another process on this database (glossary-bot shards 0,1 pid "
                    f"{first_pid} on "
                ), line
            await answers_on(w, [0, 1])  # the first process never noticed
            await first.stop(signal.SIGKILL)  # dies holding its claims

        # Its shards can be run again at once (the server ended its session).
        again = w.process([1, 2], tmp_path / "again")
        (tmp_path / "again").mkdir()
        async with running(again):
            await answers_on(w, [1, 2])


async def test_a_process_running_every_shard_and_a_shards_process_refuse_each_other(
    tmp_path: Path,
) -> None:
    async with world() as w:
        sharded = w.process([2, 3], tmp_path / "sharded")
        (tmp_path / "sharded").mkdir()
        async with running(sharded):
            whole = BotProcess(
                w.fake,
                tmp_path / "unused.db",
                cwd=tmp_path,
                DATABASE_URL=w.url,
                IDENTIFY_WINDOW="0.5",
            )
            line = await refused(whole)
            assert line.startswith(
                "glossary-bot: this process would run every shard (SHARD_COUNT is not set), but "
                "another process on this database runs shards (glossary-bot shards 2,3 pid "
            ), line
