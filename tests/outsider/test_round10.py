"""What a tenth round of outside testing found through `glossary-bot run`, the command line
and the real client against the fake Discord (tests/outsider/PLAN.md, round 10)."""

from __future__ import annotations

import re
from pathlib import Path

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.moderators import STORAGE_DOWN
from tests.discord_app.helpers import define, embed_of
from tests.resilience.botproc import BotProcess
from tests.resilience.helpers import add_alias, moderator_says
from tests.resilience.test_lost_database import eventually

from .conftest import Scene

NO_COOLDOWN = {"COOLDOWN_USES": "100000", "COOLDOWN_SECONDS": "1"}


def said_of(lines: list[str], path: Path) -> list[str]:
    """The log lines above INFO that name the database file."""
    return [line for line in lines if str(path) in line and re.search(r"WARNING|ERROR", line)]


async def test_a_database_replaced_by_garbage_is_one_line_naming_database_path(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line R1 (round 8's D3): the database file replaced by bytes that are no SQLite
    database while the bot runs. The operator was told twice, an ERROR "gone or was replaced
    (its folder deleted, or the file moved)", which it was not, and a WARNING that the file
    "is damaged or not a SQLite database": now one line, naming DATABASE_PATH and why."""
    db = tmp_path / "glossary.sqlite3"
    async with BotProcess(scene.fake, db, cwd=tmp_path, **NO_COOLDOWN) as bot:
        _, message = await define(scene.fake, scene.alice, "rag", scene.channel)
        assert embed_of(message)["title"]
        await eventually(lambda: db.exists() and db.stat().st_size > 0, "the database made")
        garbage = tmp_path / "garbage"
        garbage.write_bytes(b"\x00not a database\xff" * 4096)
        garbage.replace(db)
        _, message = await define(scene.fake, scene.alice, "lora", scene.channel)
        assert embed_of(message)["title"], message  # /define does not depend on the database
        _, refused = await moderator_says(scene, "alias add", {"alias": "x", "term": "rag"})
        assert refused["content"] == STORAGE_DOWN
        line = await bot.wait_for_output(r"ERROR.*DATABASE_PATH")
        # The counts flushed each second and at the stop meet the same file, and say nothing.
        for _ in range(3):
            await define(scene.fake, scene.alice, "rag", scene.channel)
        assert await bot.stop() == 0
    told = said_of(bot.lines, db)
    closing = [line for line in told if "closing with" in line]
    assert [line for line in told if line not in closing] == [line], told
    assert "not a SQLite database" in line, line
    assert "Traceback" not in bot.output


async def test_alias_add_echoes_the_alias_as_the_moderator_typed_it(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Plan line R2 (round 8's U3): `/alias add straße zorb` answered "Added: “strasse zorb”
    now opens …": the form search compares, which the moderator never typed. `/alias list`
    and the remove box show what was typed; so does the answer now, and a second add of the
    same alias in capitals echoes that spelling too."""
    fake, moderator, channel = scene.fake, scene.moderator, scene.channel
    said = await add_alias(fake, moderator, "Straße Zorb", "rag", channel)
    assert said.startswith("Added: “Straße Zorb” now opens **"), said
    said = await add_alias(fake, moderator, "STRASSE ZORB", "rag", channel)
    assert said.startswith("“STRASSE ZORB” already opens **"), said
    said = await add_alias(fake, moderator, "strasse zorb", "lora-qlora", channel)
    assert said.startswith("“strasse zorb” is already this server's alias for **"), said
    _, message = await define(fake, scene.alice, "STRASSE ZORB", channel)
    assert embed_of(message)["title"] == "Retrieval-Augmented Generation (RAG)", message
