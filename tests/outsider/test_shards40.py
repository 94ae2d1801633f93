"""Scale-out leftovers: tests/outsider/PLAN.md, "Scale-out leftovers (shards40)".

Needs a real PostgreSQL: TEST_DATABASE_URL."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from tests.conftest import TEST_DATABASE_URL
from tests.multiprocess.test_shards import world
from tests.resilience.test_shard_claims import answers_on, process_of, refused, running
from tests.storage.conftest import fresh_schema

pytestmark = pytest.mark.postgres


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
            assert w.fake.sharding.identifies and all(
                r.shard_id in (0, 1) for r in w.fake.sharding.identifies
            ), w.fake.sharding.identifies  # it never reached the gateway
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
