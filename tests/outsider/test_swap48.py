"""The database swapped in place under the running bot (swap48), through the real program:
`glossary-bot run` against the fake Discord, the command line, real SQLite files.

Deleting the database's `-wal` under the running bot (or copying a backup over the file and
deleting it, ops47's case) went unnoticed: health stayed healthy, the flushes went into the
deleted log. Now: one ERROR naming DATABASE_PATH and what to do, `health` unhealthy, /define
answering, moderator changes refused with a short ephemeral answer, and what was written before
is in the file after the stop."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from tests.discord_app.helpers import define
from tests.resilience.botproc import CLI_ENV, BotProcess, glossary_bot

from .conftest import Scene


def remove_file(path: Path) -> None:
    path.unlink()


def query_db(path: Path, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


async def alias_added(scene: Scene) -> None:
    """A moderator's `/alias add zorblax rag`, answered "Added": a write the store holds."""
    added = await scene.fake.slash(
        scene.moderator, "alias add", {"alias": "zorblax", "term": "rag"}, channel=scene.channel
    )
    said = (await added.final_message())["content"]
    assert said.startswith("Added"), said


async def answers_but_refuses_writes(scene: Scene) -> None:
    """/define keeps answering; a moderator's change is refused in a private answer."""
    _, card = await define(scene.fake, scene.alice, "rag", scene.channel)
    assert card["embeds"], card
    refused = await scene.fake.slash(
        scene.moderator, "alias add", {"alias": "quuxwidget", "term": "rag"}, channel=scene.channel
    )
    answer = await refused.final_message()
    assert "nothing was changed" in answer["content"], answer
    assert answer["flags"] & 64, answer  # ephemeral


async def test_a_log_deleted_under_the_running_bot_is_said_refused_and_loses_nothing(
    scene: Scene, tmp_path: Path
) -> None:
    fake, db = scene.fake, scene.db_path
    heartbeat = tmp_path / "heartbeat"
    env = {**CLI_ENV, "HEARTBEAT_PATH": str(heartbeat)}
    backup = tmp_path / "backup.db"
    async with BotProcess(fake, db, cwd=tmp_path, HEARTBEAT_PATH=str(heartbeat)) as bot:
        await bot.wait_for_output(r"healthy: heartbeat in", within=30)
        await alias_added(scene)
        status, said = await glossary_bot(CLI_ENV, tmp_path, "backup", "--db", str(db), str(backup))
        assert status == 0, said
        shutil.copyfile(backup, db)  # a backup copied over the running bot's file, by hand
        remove_file(Path(f"{db}-wal"))

        await bot.wait_for_output("changed under the running bot", within=30)
        [line] = [x for x in bot.lines if "changed under the running bot:" in x]
        assert "ERROR" in line, line
        assert f"DATABASE_PATH={db}" in line, line
        assert "its -wal was deleted or replaced" in line, line
        assert "glossary-bot restore" in line, line
        await bot.wait_for_output(r"unhealthy: connected to Discord, but the database", within=30)
        status, told = await glossary_bot(env, tmp_path, "health")
        assert status == 1, told
        assert told.startswith("unhealthy"), told

        await answers_but_refuses_writes(scene)
        # Said once (health's line, since swap49, gives the reason too: "running bot (its").
        assert [x for x in bot.lines if "changed under the running bot:" in x] == [line]
    assert query_db(db, "SELECT key FROM aliases") == [("zorblax",)]
    assert query_db(db, "PRAGMA integrity_check") == [("ok",)]
