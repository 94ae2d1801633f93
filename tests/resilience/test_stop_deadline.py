"""A stop ends within a container's grace (`docker stop`: SIGTERM, then SIGKILL 10 s later)
even while another process holds the database's write lock: `glossary-bot run` as a process,
the lock held by another process (SQLite) or another session (PostgreSQL). What could not be
written is said in one line, with how many counts; nothing is claimed written that was not.

The stop times are printed (run with -s to see them); the only timed assertion is the
container's own bound, which proves "bounded", not "fast"."""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import asyncpg
import pytest

from bot.storage import Migrate, Store
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.helpers import define
from tests.storage.conftest import fresh_schema

from .botproc import BotProcess
from .conftest import Scene
from .helpers import locked_by_another_process, stored_lookups
from .test_process_faults import wait_stored

CONTAINER_GRACE = 10.0  # seconds between docker's SIGTERM and its SIGKILL
FOUND = ["kv cache", "rag", "lora"]
NOT_FOUND = "zzqx nothing at all"
LOST = re.compile(r"closing with (\d+) lookups? and (\d+) missed quer(?:y|ies) that could not be")


async def ask_then_stop(
    scene: Scene, bot: BotProcess, flusher_met_the_lock: Callable[[], Awaitable[object]]
) -> tuple[int, float]:
    """Three cards and one "no entry" shown, then SIGTERM: (cards shown, seconds to exit).

    The signal comes once every answer is counted (a count is made once its answer is sent:
    the fake settled) and `flusher_met_the_lock` has seen the background flush meet the lock:
    the stop begins with a write already waiting, whatever the machine's load."""
    cards = 0
    for term in [*FOUND, NOT_FOUND]:
        _, message = await define(scene.fake, scene.alice, term, scene.channel)
        cards += bool(message.get("embeds"))
    await scene.fake.settle()
    await flusher_met_the_lock()
    assert bot.process is not None
    started = time.monotonic()
    exited_at: list[float] = []
    waiting = asyncio.create_task(bot.process.wait())
    waiting.add_done_callback(lambda _: exited_at.append(time.monotonic()))
    assert await bot.stop(within=60.0) == 0, bot.output
    await waiting
    return cards, exited_at[0] - started


def lost_counts(output: str) -> tuple[int, int]:
    found = [m for line in output.splitlines() if (m := LOST.search(line))]
    assert len(found) == 1, output
    return int(found[0].group(1)), int(found[0].group(2))


async def test_a_stop_with_the_sqlite_write_lock_held_ends_within_the_grace(
    scene: Scene, tmp_path: Path
) -> None:
    async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="100") as bot:
        # One count written first: the store has its own bookkeeping to tidy when it closes.
        await define(scene.fake, scene.alice, "moe", scene.channel)
        await wait_stored(scene.db_path, 1, bound=30.0)
        async with locked_by_another_process(scene.db_path):
            cards, seconds = await ask_then_stop(
                scene, bot, lambda: bot.wait_for_output(r"could not write lookup counts")
            )
    print(f"\nstop with the SQLite write lock held: {seconds:.2f} s")
    assert cards == len(FOUND)
    assert seconds < CONTAINER_GRACE, bot.output
    assert lost_counts(bot.output) == (cards, 1)  # one line, the counts it could not write
    assert stored_lookups(scene.db_path) == 1  # ... and indeed none of them was written
    assert "Traceback" not in bot.output


async def test_a_stop_writes_the_counts_once_the_lock_is_let_go(
    scene: Scene, tmp_path: Path
) -> None:
    """The lock let go during the stop: the counts are written and nothing is said lost."""
    async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="100") as bot:
        async with locked_by_another_process(scene.db_path):
            for term in FOUND:
                await define(scene.fake, scene.alice, term, scene.channel)
            # The flusher has met the lock: the counts wait in memory.
            await bot.wait_for_output(r"could not write lookup counts")
            bot.send_signal(signal.SIGTERM)
            await bot.wait_for_output(r"stopping: flushing counts")
        assert await bot.stop(sig=None, within=60.0) == 0, bot.output  # SIGTERM sent above
    assert stored_lookups(scene.db_path) == len(FOUND)
    assert not LOST.search(bot.output), bot.output


@contextlib.asynccontextmanager
async def tables_locked(url: str, *tables: str) -> AsyncIterator[None]:
    """Another session holds `tables` locked against writes (reads go on) until the block ends."""
    other = await asyncpg.connect(url)
    try:
        async with other.transaction():
            await other.execute(f"LOCK TABLE {', '.join(tables)} IN EXCLUSIVE MODE")
            yield
    finally:
        await other.close()


async def waits_for_a_lock(url: str) -> None:
    """Until one of the bot's sessions (named as `url` names them) waits for a table lock: its
    background flush has met the locked tables. PostgreSQL's wait says nothing in the bot's
    log, as SQLite's "could not write" does; the server's own view of its sessions tells."""
    watch = await asyncpg.connect(url)
    try:
        async with asyncio.timeout(30):  # bounds a hang; no speed to meet
            while not await watch.fetchval(  # noqa: ASYNC110  (the server's state: no event)
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                " AND application_name = current_setting('application_name')"
            ):
                await asyncio.sleep(0.05)  # the poll's pace, not a synchronisation
    finally:
        await watch.close()


@pytest.mark.postgres
async def test_a_stop_with_postgresql_tables_locked_ends_within_the_grace(
    scene: Scene, tmp_path: Path
) -> None:
    async with fresh_schema(TEST_DATABASE_URL) as url:
        settings = {"DATABASE_URL": url, "COOLDOWN_USES": "100"}
        bot = BotProcess(scene.fake, tmp_path / "unused.db", cwd=tmp_path, **settings)
        async with bot, tables_locked(url, "lookups", "misses", "flush_marks"):
            cards, seconds = await ask_then_stop(scene, bot, lambda: waits_for_a_lock(url))
        print(f"\nstop with PostgreSQL's count tables locked: {seconds:.2f} s")
        assert cards == len(FOUND)
        assert seconds < CONTAINER_GRACE, bot.output
        assert lost_counts(bot.output) == (cards, 1)
        store = await Store.open(url, flush_interval=None, migrate=Migrate.NEVER)
        try:
            assert (await store.stats(None)).total_lookups == 0
        finally:
            await store.close()
        assert "Traceback" not in bot.output
