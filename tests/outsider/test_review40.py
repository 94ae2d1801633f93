"""Review of the last session's changes (tests/outsider/PLAN.md, "Review of the last session's
changes (review40)").

Through the real bot (discord.py) against the fake Discord, on real SQLite files, and on the
test PostgreSQL where marked."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from bot.storage.postgres.claims import _COUNT_KEY, _KEY, WHOLE_BOT
from tests.conftest import TEST_DATABASE_URL
from tests.polling import eventually
from tests.storage.conftest import fresh_schema

from .conftest import Scene
from .test_left24 import _cli
from .test_review38 import claimed_with, help_for_each, rag_for_each
from .test_round20 import _database


async def test_a_pleasantry_after_the_bot_s_mention_is_no_question(
    scene: Scene, bot: GlossaryBot
) -> None:
    """W1: "@bob what's rag @Glossary thanks!" asks the bot about RAG; review38 read the words
    before the mention where only punctuation followed it, but a "thanks" there was taken as
    the question, and the member got the help line. Words after it that ask ("@bob see
    @Glossary rag") are still the question, and only a pleasantry in all is still the help."""
    fake = scene.fake
    me, bob = fake.bot.mention, scene.bob.mention
    await rag_for_each(
        scene,
        f"{bob} what's rag {me} thanks!",
        f"{bob} explain rag please {me} thx",
        f"{bob} what is rag? {me} ty :)",
        f"{bob} see {me} rag",
    )
    await help_for_each(scene, f"{bob} thanks {me} thanks!", f"{bob} {me} hi")


def _schema_damaged(path: Path) -> Path:
    """A bot's database whose stored CREATE statement of one index holds two bytes that are no
    UTF-8 (random damage lands there too: one such file in 400 single-page damages tried). SQLite
    refuses the schema, quoting those bytes; Python's sqlite3 cannot decode its message."""
    _database(path, lookups=3)
    with contextlib.closing(sqlite3.connect(path)) as conn:
        (name,) = conn.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL LIMIT 1"
        ).fetchone()
        conn.execute("PRAGMA writable_schema = ON")
        conn.execute(
            "UPDATE sqlite_schema SET sql = CAST(? AS TEXT) WHERE name = ?",
            (b"CREATE INDEX x ON \xf4\x9a(y)", name),
        )
        conn.commit()
    return path


@pytest.mark.parametrize(
    "command",
    [
        ("stats", "--db", "g.db"),
        ("check", "--db", "g.db"),
        ("backup", "--db", "g.db", "copy.db"),
        ("restore", "--db", "new.db", "g.db"),
        ("aliases", "export", "--db", "g.db"),
        ("prune", "--db", "g.db", "--older-than", "30", "--dry-run"),
        ("migrate-db", "--from", "g.db", "--to", "m.db"),
    ],
    ids=lambda c: " ".join(c[:2]),
)
def test_a_damaged_schema_is_named_in_one_line_by_every_command(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    """W10: a file whose stored schema holds bytes that are no UTF-8 ended every command in a
    UnicodeDecodeError traceback (Python's sqlite3 raises it in place of SQLite's error, whose
    message quotes them): left38's non-UTF-8 text is a stored row's, not SQLite's message. Now
    one line naming the file as damaged; nothing made or changed."""
    _schema_damaged(tmp_path / "g.db")
    before = sorted(p.name for p in tmp_path.iterdir())
    done = _cli(tmp_path, *command)
    assert done.returncode == 1, done
    said = (done.stdout + done.stderr).strip()
    assert "Traceback" not in said, said
    assert "UnicodeDecodeError" not in said, said
    lines = [line for line in said.splitlines() if "error: " in line]
    assert len(lines) == 1, said
    assert "g.db" in lines[0], said
    assert "damaged" in lines[0], said
    assert sorted(p.name for p in tmp_path.iterdir()) == before, said


@pytest.mark.postgres
async def test_a_count_waited_for_after_the_whole_bot_s_lock_is_refused_by_its_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """W5: a sharded process (SHARD_COUNT 2) that first waited for an unsharded one to stop
    kept that wait's `lock_timeout` for its count's shared lock, which waits behind a process of
    another count (4) waiting for count 2 to go: the timeout escaped as "the database cannot be
    used now: lock timeout", a StorageError after which `run` goes on with no shard claims at
    all. Now that wait is bounded by the claim's own and refused with the SHARD_COUNT line.
    The others' steps are played on sessions of their own, as `claims` runs them."""
    async with fresh_schema(TEST_DATABASE_URL) as url:
        store = await Store.open(url, flush_interval=None)
        sessions = [await asyncpg.connect(url) for _ in range(3)]
        whole, old, other = sessions
        try:
            await whole.execute(f"SELECT pg_advisory_lock({_KEY}, $1)", WHOLE_BOT)  # unsharded
            await old.execute(f"SELECT pg_advisory_lock_shared({_COUNT_KEY}, 2)")  # count 2 runs
            await other.execute(f"SELECT pg_advisory_lock_shared({_COUNT_KEY}, 4)")
            await other.execute("SET lock_timeout = 120000")
            waits = asyncio.create_task(  # count 4 waits for count 2 to go
                other.execute(f"SELECT pg_advisory_lock({_COUNT_KEY}, 2)")
            )
            pid = other.get_server_pid()

            async def other_waits() -> bool:
                return bool(
                    await old.fetchval(
                        "SELECT count(*) FROM pg_locks WHERE pid = $1 AND NOT granted", pid
                    )
                )

            await eventually(other_waits, "count 4 waiting for count 2")
            claiming = asyncio.create_task(claimed_with(store, 2, wait=3))
            await eventually(lambda: "shards run by another process" in caplog.text, "waiting")
            await whole.execute(f"SELECT pg_advisory_unlock({_KEY}, $1)", WHOLE_BOT)  # stopped
            assert await claiming == "SHARD_COUNT 4"
            waits.cancel()
        finally:
            for session in sessions:
                session.terminate()
            await store.close()
