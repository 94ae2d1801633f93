"""`glossary-bot run` with its database folder deleted underneath it (issue 10, item 3): the
error is logged naming the path, health turns red, moderators are told their change was not
made, /define keeps answering, and once the folder is back the counts made meanwhile arrive."""

from __future__ import annotations

import asyncio
import shutil
import sys
import time
from pathlib import Path

from bot.discord_app.cogs.moderators import STORAGE_DOWN
from tests.discord_app.helpers import define, embed_of
from tests.polling import eventually

from .botproc import ROOT, BotProcess, bot_env
from .conftest import Scene
from .helpers import moderator_says, stored_aliases, stored_lookups

NO_COOLDOWN = {"COOLDOWN_USES": "100000", "COOLDOWN_SECONDS": "1"}


async def health(env: dict[str, str], cwd: Path) -> int:
    """Exit status of `glossary-bot health`, as the container's HEALTHCHECK runs it."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "health",
        "--max-age",
        "12",  # just over the heartbeat interval (10 s), so the test need not wait 45 s
        env=env,
        cwd=cwd,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    return await process.wait()


async def lookups(scene: Scene, n: int) -> None:
    for i in range(n):
        _, message = await define(scene.fake, scene.alice, ("rag", "lora")[i % 2], scene.channel)
        assert embed_of(message)["title"], message


async def test_deleted_database_folder_is_noticed_and_writing_resumes(
    scene: Scene, tmp_path: Path
) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "glossary.sqlite3"
    heartbeat = tmp_path / "heartbeat"
    settings = {"HEARTBEAT_PATH": str(heartbeat), **NO_COOLDOWN}
    env = bot_env(scene.fake, db, PYTHONPATH=str(ROOT), **settings)
    guild = scene.guild.id

    async with BotProcess(scene.fake, db, cwd=tmp_path, **settings) as bot:
        await eventually(heartbeat.exists, "the first heartbeat")
        assert await health(env, tmp_path) == 0
        await lookups(scene, 10)
        _, added = await moderator_says(scene, "alias add", {"alias": "x", "term": "rag"})
        assert added["content"].startswith("Added"), added
        await eventually(lambda: db.exists() and stored_lookups(db) == 10, "10 lookups stored")

        shutil.rmtree(folder)
        await lookups(scene, 10)  # /define does not depend on the database
        _, refused = await moderator_says(scene, "alias add", {"alias": "y", "term": "lora-qlora"})
        assert refused["content"] == STORAGE_DOWN
        line = await bot.wait_for_output(r"ERROR.*gone or was replaced")
        assert str(db) in line
        await eventually(
            lambda: health(env, tmp_path), "`glossary-bot health` failing"
        )  # a coroutine: awaited by eventually, truthy when the exit status is non-zero
        assert not folder.exists()  # the bot did not recreate it behind the operator's back

        folder.mkdir()  # the operator puts the volume back, empty
        await bot.wait_for_output(r"writing to the database at .* again")
        await eventually(lambda: db.exists() and stored_lookups(db) == 10, "the 10 made meanwhile")
        _, added = await moderator_says(scene, "alias add", {"alias": "y", "term": "lora-qlora"})
        assert added["content"].startswith("Added"), added
        await eventually(
            lambda: heartbeat.exists() and time.time() - heartbeat.stat().st_mtime < 5,
            "a fresh heartbeat",
        )
        assert await health(env, tmp_path) == 0
        assert await bot.stop() == 0

    assert stored_lookups(db) == 10
    assert stored_aliases(db) == [(guild, "y", "lora-qlora")]
    errors = [line for line in bot.lines if "gone or was replaced" in line]
    assert len(errors) == 1, errors
    assert "Traceback" not in bot.output
