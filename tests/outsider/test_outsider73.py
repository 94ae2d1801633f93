"""outsider73: the self-hoster's container, shards on one PostgreSQL, driven as users do (see
tests/outsider/PLAN.md, "outsider73"). What the container alone showed is kept here through the
real program (`glossary-bot run` against the fake Discord, real SQLite files) where the same
state can be made without a container."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cards.fit import fit_lines
from bot.discord_app.cogs.moderators import STORAGE_DOWN
from bot.heartbeat import check_heartbeat
from bot.reach import deleted_folder
from tests.resilience.botproc import BotProcess
from tests.resilience.helpers import moderator_says

from .conftest import Scene

SHORT_BEATS = {"HEARTBEAT_INTERVAL": "0.5"}


async def test_the_folder_the_bot_runs_in_deleted_is_said_so_not_a_replaced_file(
    scene: Scene, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A container's /data is the volume's folder: deleted on the host (`podman volume rm -f`,
    `rm -rf .../_data`), the path /data still leads to it inside the container, a folder with
    no name left, where nothing can be made. The bot logged "the database file … was replaced
    by one that cannot be used (the database file cannot be opened)" and `health` (run inside
    the container) said "no heartbeat … yet (starting, or never connected)" of a bot that had
    run for minutes. The same state outside a container: the bot's working folder, where its
    relative DATABASE_PATH and HEARTBEAT_PATH are, deleted under it (`health` run from within
    that folder, as the container's HEALTHCHECK runs in /data). Both now say the folder was
    deleted and that only a restart with the folder in place mends it."""
    folder = tmp_path / "data"
    folder.mkdir()
    async with BotProcess(
        scene.fake,
        Path("g.db"),
        cwd=folder,
        HEARTBEAT_PATH="glossary-bot.heartbeat",
        **SHORT_BEATS,
    ) as bot:
        await bot.wait_for_output(r"healthy: heartbeat in", within=30)
        monkeypatch.chdir(folder)  # health's view: inside the folder, as /data in a container
        shutil.rmtree(folder)
        assert deleted_folder(Path())  # still there for whoever is in it, by no name
        _, refused = await moderator_says(scene, "alias add", {"alias": "zorb", "term": "rag"})
        assert refused["content"] == STORAGE_DOWN, bot.output
        said = await bot.wait_for_output(r"DATABASE_PATH=g\.db", within=30)
        assert "replaced" not in said, said
        assert "its folder . was deleted while the bot ran in it" in said, said
        assert "restart the bot with the folder in place" in said, said
        # The heartbeat can no longer be written: `health` says why, not "starting".
        await bot.wait_for_output(r"cannot write the heartbeat file", within=30)
        for command, options in (("alias list", {}), ("stats", {}), ("term export", {})):
            _, said_to = await moderator_says(scene, command, options)
            assert "went wrong" not in str(said_to), (command, bot.output)
        healthy, told = check_heartbeat(Path("glossary-bot.heartbeat"))
        assert not healthy
        assert "its folder . was deleted while the bot ran in it" in told, told
        assert "restart the bot with the folder in place" in told, told


def test_a_listing_makes_only_the_lines_it_shows() -> None:
    """`/alias list` of a server with 1,000 aliases quoted every one of them (`echo`, some
    0.2 s of the event loop on a loaded machine) to show the 20 or so that fit in its embed;
    four moderators listing in turn held every server's answers (bench/cross73_bench.py, p99
    9.4x). `fit_lines` now takes the lines as they are made and stops at the first that does
    not fit."""
    made: list[int] = []

    def lines() -> Iterator[str]:
        for n in range(1000):
            made.append(n)
            yield f"alias {n:04} → a term"

    text, listed = fit_lines(lines(), 100)
    assert listed == 5  # 20 characters a line, 99 with the newlines between them
    assert text.splitlines() == [f"alias {n:04} → a term" for n in range(5)]
    assert len(made) == 6  # the five shown, and the one that did not fit
    assert fit_lines(["a", "b"], 100) == ("a\nb", 2)
    assert fit_lines(["a" * 101], 100) == ("", 0)
