"""Scale-out leftovers: tests/outsider/PLAN.md, "Scale-out leftovers (shards40)".

Needs a real PostgreSQL: TEST_DATABASE_URL."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from bot.discord_app import health
from bot.heartbeat import MAX_AGE, check_heartbeat, shards_lost
from bot.storage import Store
from tests.clients import ConnectedClient
from tests.conftest import TEST_DATABASE_URL
from tests.multiprocess.test_shards import world
from tests.outsider.test_review35 import STUCK
from tests.outsider.test_small_faults import SHORT_BEATS, _next_beat
from tests.polling import eventually
from tests.resilience.botproc import ROOT, glossary_bot
from tests.resilience.test_shard_claims import answers_on, process_of, refused, running
from tests.storage.conftest import fresh_schema


@pytest.mark.postgres
async def test_the_same_bot_on_another_schema_of_the_database_is_refused(tmp_path: Path) -> None:
    """Item 1: one bot token in two schemas of one database (an `.env` without its
    `?search_path=`): the shard claims are per schema, so neither was refused, and each
    process knocked the other's gateway sessions off. Now the second is refused in one line
    naming DATABASE_URL and the other process; several processes of the bot on ONE schema
    still start, and a process killed -9 blocks no start in the other schema."""
    async with world() as w, fresh_schema(TEST_DATABASE_URL, "elsewhere") as elsewhere:
        first = process_of(w, [0, 1], tmp_path)
        async with running(first):
            assert first.process is not None
            other = process_of(w, [2, 3], tmp_path)
            other.env = {**other.env, "DATABASE_URL": elsewhere}
            line = await refused(other)
            assert line.startswith(
                f"glossary-bot: DATABASE_URL: this bot (application {w.fake.application_id}) "
                "already runs on this database in another schema (glossary-bot shards 0,1 pid "
                f"{first.process.pid} on "
            ), line
            assert "the same DATABASE_URL" in line, line
            assert "glossary:glossary@" not in line, line  # the URL's password is not said
            shards = {record.shard_id for record in w.fake.sharding.identifies}
            assert shards == {0, 1}, w.fake.sharding.identifies  # it never reached the gateway
            # The bot's other shards on the same schema start beside it.
            same = process_of(w, [2, 3], tmp_path)
            async with running(same):
                await answers_on(w, [0, 1, 2, 3])
            await first.stop(signal.SIGKILL)  # dies holding its application's lock
        # Moved to the other schema after a kill -9: its session ended, nothing blocks it.
        moved = process_of(w, [0, 1], tmp_path)
        moved.env = {**moved.env, "DATABASE_URL": elsewhere}
        async with running(moved):
            await answers_on(w, [0, 1])


@pytest.mark.postgres
async def test_health_names_a_shard_down_in_a_process_of_several(tmp_path: Path) -> None:
    """Item 2: a process of shards 0,1 with shard 1 unable to reconnect while shard 0 serves.
    Its shards were judged together (their average latency): the process read as "not
    connected to Discord", naming no shard. Now each shard is judged by itself: a shard down
    a moment is a reconnect (healthy, named), one down past the grace (MAX_AGE, as a lone
    shard's reconnect) is unhealthy in one line naming it; its heartbeat goes on (the other
    shard serves), and it is healthy again once the shard is back."""
    async with world() as w:
        process = process_of(w, [0, 1], tmp_path)
        process.env = {**process.env, **SHORT_BEATS}
        heartbeat = Path(process.env["HEARTBEAT_PATH"])
        env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HEARTBEAT_PATH": str(heartbeat)}
        async with running(process):
            await process.wait_for_output(r"healthy: heartbeat in", within=30)
            w.fake.gateway.hello_gate.clear()  # no new connection is answered from now on
            try:
                await w.fake.drop_gateway(shard_id=1)
                await process.wait_for_output(r"shard 1 not connected to Discord", within=30)
                said = await _next_beat(heartbeat, "")
                while 1 not in shards_lost(said):
                    said = await _next_beat(heartbeat, said)
                status, told = await glossary_bot(env, tmp_path, "health")
                assert status == 0, told  # a reconnect, within the grace
                assert told.startswith("healthy: last heartbeat "), told
                assert "shard 1 not connected to Discord for " in told, told
                await answers_on(w, [0])  # the other shard serves meanwhile
                since = shards_lost(said)[1]
                said = await _next_beat(heartbeat, said)  # the beats go on
                # One at least 2 s past `since` (a second's time): fresh at since + MAX_AGE + 1.
                while (await asyncio.to_thread(heartbeat.stat)).st_mtime < since + 2:
                    said = await _next_beat(heartbeat, said)
                assert shards_lost(said) == {1: since}, said
                healthy, why = check_heartbeat(heartbeat, now=since + MAX_AGE + 1)
                assert not healthy, why
                assert why.startswith("shard 1 not connected to Discord for 46 s"), why
                assert "while the process's other shards are" in why, why
            finally:
                w.fake.gateway.hello_gate.set()
            while shards_lost(said):
                said = await _next_beat(heartbeat, said)
            status, told = await glossary_bot(env, tmp_path, "health")
            assert status == 0, told
            assert "shard" not in told, told
            await answers_on(w, [0, 1])


def test_a_scrape_under_way_at_a_stop_is_answered() -> None:
    """Item 4: the metrics server's stop ended its accept loop and returned at once; a scrape
    under way in its (daemon) thread was cut by the process's exit right after (`run_to_exit`:
    os._exit), and Prometheus saw the connection reset. Now the stop waits for the scrapes
    under way (within a bound). A process of its own serves, and stops and exits as soon as the
    scrape is under way; the scrape's database state takes half a second, from once the stop
    has begun (a slow answer stands in for a database's: no timing is asserted)."""
    server = subprocess.Popen(
        [sys.executable, "-c", _STOPPING_SERVER],
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline())
        url = f"http://127.0.0.1:{port}/metrics"
        with urllib.request.urlopen(url, timeout=60) as response:
            body = response.read()
        assert b"glossary_database_writable 1.0" in body, body
        assert server.wait(60) == 0
    finally:
        server.kill()
        server.wait()


_STOPPING_SERVER = """
import os, threading, time
from bot import metrics

inside = threading.Event()
servers = []

def writable():
    inside.set()
    servers[0]._thread.join()  # the stop has begun: its accept loop has ended
    time.sleep(0.5)  # the database's answer takes a while (the bot waits up to 2 s for it)
    return True

server = metrics.serve("127.0.0.1", 0, metrics.LiveValues(lambda: [], writable, dict, entries=lambda: 0))
servers.append(server)
print(server.port, flush=True)
inside.wait()
server.stop()
os._exit(0)
"""


async def test_a_hung_heartbeat_file_holds_no_other_bot_s_beats(tmp_path: Path) -> None:
    """Item 4, review36 V9: the heartbeat's file work ran on one thread for the process, under
    one lock, so a file whose disk hangs held every other heartbeat of the process (bots run one
    after another in a process: an embedding program, a test harness). Now each piece of file
    work has a thread of its own (a daemon: a hung one holds no exit) and each file its own
    lock. A FIFO nobody writes stands for the hung disk: opening it to read waits."""
    hung = tmp_path / "hung-heartbeat"
    os.mkfifo(hung)
    beat = tmp_path / "heartbeat"
    store = await Store.open(tmp_path / "bot.db")
    stops = [asyncio.Event(), asyncio.Event()]
    client = ConnectedClient()
    first = asyncio.create_task(health.keep_heartbeat(client, store, hung, stop=stops[0]))  # type: ignore[arg-type]
    second = asyncio.create_task(health.keep_heartbeat(client, store, beat, stop=stops[1]))  # type: ignore[arg-type]
    try:
        # STUCK bounds a hang only: before, the second waited for good.
        await eventually(lambda: beat.exists(), "the second bot's heartbeat", within=STUCK)
        said = await _next_beat(beat, "", within=STUCK)
        assert said.split("\n")[0].isdigit(), said  # a healthy beat
        assert not first.done()  # still held by its file
    finally:
        for stop in stops:
            stop.set()
        first.cancel()
        second.cancel()  # before the fix, still waiting for the hung file's thread
        await asyncio.wait({first, second})
        # The hung open ends once the FIFO's other end is opened (then nothing more is asked
        # of the file): a read's open waits for a writer, a write's (the first beat) for a
        # reader; ours, the reader opened first, lets the writer's end open without waiting.
        reader = os.open(hung, os.O_RDONLY | os.O_NONBLOCK)
        os.close(os.open(hung, os.O_WRONLY | os.O_NONBLOCK))
        os.close(reader)
        await store.close()
