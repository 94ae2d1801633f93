"""What a twelfth round of outside testing found: a moderator's files, an operator's `.env` and
shell, through `glossary-bot run` against the fake Discord and the command line
(tests/outsider/PLAN.md, round 12)."""

from __future__ import annotations

import json
import signal
from collections.abc import Mapping
from pathlib import Path

import pytest

from bot.storage import Store
from bot.storage.cli import on_store
from bot.storage.models import AliasImport
from tests.discord_app.helpers import define
from tests.resilience.botproc import ROOT, BotProcess, glossary_bot

from .conftest import Scene

CLI_ENV = {"PYTHONPATH": str(ROOT), "GLOSSARY_PATHS": "", "PATH": "/usr/bin:/bin"}


async def test_a_second_bot_through_a_symlink_to_the_database_is_refused(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line X27: the second bot on one SQLite file is refused (round 4), but only when
    DATABASE_PATH is spelt the same: through a symlink (a `current` link on a volume, a path
    under /var that is a link) the second started, took the lock beside the link, and
    IDENTIFYed in a loop against the first (4005 from the fake; on Discord each knocks the
    other's session off). The lock is now beside the file itself."""
    fake = scene.fake
    link = tmp_path / "link.db"
    link.symlink_to(scene.db_path)
    async with BotProcess(fake, scene.db_path, cwd=tmp_path):
        second = BotProcess(fake, link, cwd=tmp_path)
        await second.start(wait_ready=False)
        assert await second.exited(within=60) == 2, second.output
        _, card = await define(fake, scene.alice, "rag", scene.channel)
        assert card["embeds"], card
    [line] = [x for x in second.lines if x.startswith("glossary-bot:")]
    assert "DATABASE_PATH" in line, line
    assert "another bot runs on this SQLite file" in line, line
    assert "Traceback" not in second.output


